import { SearchXIcon } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";

export default function CategoryNotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <SearchXIcon className="size-12 text-muted-foreground" aria-hidden="true" />
      <h1 className="mt-5 text-3xl font-bold">Category Not Found</h1>
      <p className="mt-3 text-muted-foreground">
        This lead category does not exist or is no longer available. Browse our other categories instead.
      </p>
      <Button asChild className="mt-8">
        <Link href="/">Return to Home</Link>
      </Button>
    </div>
  );
}
