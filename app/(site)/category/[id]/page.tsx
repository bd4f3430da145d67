import type { Metadata } from "next";
import { CategoryPageBody, categoryMetadata } from "@/components/category/category-page";
import { PACKAGES } from "@/lib/packages";

// Rendered on a category's first request and then served from the cache until the catalogue
// changes (lib/categories/cache.ts); never at build, which has no database. `?package=` is served
// by package/[package] (next.config.ts rewrites it there), so this page reads no query string.

export function generateStaticParams(): { id: string }[] {
  return [];
}

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return categoryMetadata((await params).id);
}

export default async function CategoryPage({ params }: Props) {
  return <CategoryPageBody id={(await params).id} pkg={PACKAGES[0]} />;
}
