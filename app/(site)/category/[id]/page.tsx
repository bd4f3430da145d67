import type { Metadata } from "next";
import { CategoryPageBody, categoryMetadata } from "@/components/category/category-page";
import { DEFAULT_LOCATION } from "@/lib/location";
import { PACKAGES } from "@/lib/packages";

// Rendered on a category's first request and then served from the cache until the catalogue
// changes (lib/categories/cache.ts); never at build, which has no database. `?location=` and
// `?package=` are served by list/[location]/[package] (next.config.ts rewrites them there), so this
// page, the USA list with the first package, reads no query string.

export function generateStaticParams(): { id: string }[] {
  return [];
}

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return categoryMetadata((await params).id, DEFAULT_LOCATION);
}

export default async function CategoryPage({ params }: Props) {
  return <CategoryPageBody id={(await params).id} pkg={PACKAGES[0]} location={DEFAULT_LOCATION} />;
}
