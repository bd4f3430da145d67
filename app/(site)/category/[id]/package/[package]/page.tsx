import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CategoryPageBody, categoryMetadata } from "@/components/category/category-page";
import { getPackage } from "@/lib/packages";

// /category/{id}?package={package}, rewritten here (next.config.ts) so that each package's page is
// cached under its own path; cached like the category page itself.
export function generateStaticParams(): { package: string }[] {
  return [];
}

type Props = { params: Promise<{ id: string; package: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return categoryMetadata((await params).id);
}

export default async function CategoryPackagePage({ params }: Props) {
  const { id, package: packageId } = await params;
  const pkg = getPackage(packageId);
  if (!pkg) notFound();
  return <CategoryPageBody id={id} pkg={pkg} />;
}
