import { ChevronRightIcon } from "lucide-react";
import Link from "next/link";

// No prefetch: the header's logo already prefetches the home page, and each link to it with
// another hash would fetch it again.
export function Breadcrumb({ title }: { title: string }) {
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex flex-wrap items-center gap-1.5 text-sm text-muted-foreground">
        <li>
          <Link href="/" prefetch={false} className="hover:text-foreground">
            Home
          </Link>
        </li>
        <li aria-hidden="true">
          <ChevronRightIcon className="size-3.5" />
        </li>
        <li>
          <Link href="/#lead-categories" prefetch={false} className="hover:text-foreground">
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
