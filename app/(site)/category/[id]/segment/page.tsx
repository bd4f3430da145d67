import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CategoryPageBody, categoryMetadata } from "@/components/category/category-page";
import { getPackage, PACKAGES } from "@/lib/packages";
import { segmentPageQuery } from "@/lib/schemas/category-segment";

// /category/{id}?region=CA&seniority=c_level,vp&...&emailQuality=valid (any filter), rewritten here by
// next.config.ts: rendered for its own query, so a shared link shows its segment, from nothing but
// the address and the catalogue. The HTTP server keeps what it renders, one copy per segment, while
// the catalogue version holds (lib/categories/front-cache.mjs). An unknown filter value is a 404,
// as an unknown package is.

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

async function read({ params, searchParams }: Props) {
  const query = await searchParams;
  const parsed = segmentPageQuery(query);
  const packageId = Array.isArray(query.package) ? query.package[0] : query.package;
  const pkg = packageId === undefined ? PACKAGES[0] : getPackage(packageId);
  return { id: (await params).id, parsed, pkg };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { id, parsed } = await read(props);
  return parsed ? categoryMetadata(id, parsed.location, parsed.segment, parsed.emailQuality) : {};
}

export default async function CategorySegmentPage(props: Props) {
  const { id, parsed, pkg } = await read(props);
  if (!parsed || !pkg) notFound();
  return (
    <CategoryPageBody
      id={id}
      pkg={pkg}
      location={parsed.location}
      segment={parsed.segment}
      emailQuality={parsed.emailQuality}
    />
  );
}
