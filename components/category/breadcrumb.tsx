import { ChevronRightIcon } from "lucide-react";
import Link from "next/link";

export function Breadcrumb({ title }: { title: string }) {
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex flex-wrap items-center gap-1.5 text-sm text-muted-foreground">
        <li>
          <Link href="/" className="hover:text-foreground">
            Home
          </Link>
        </li>
        <li aria-hidden="true">
          <ChevronRightIcon className="size-3.5" />
        </li>
        <li>
          <Link href="/#lead-categories" className="hover:text-foreground">
            Categories
          </Link>
        </li>
        <li aria-hidden="true">
          <ChevronRightIcon className="size-3.5" />
        </li>
        <li aria-current="page" className="font-medium text-foreground">
          {title}
        </li>
      </ol>
    </nav>
  );
}
