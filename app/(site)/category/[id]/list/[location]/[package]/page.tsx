import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CategoryPageBody, categoryMetadata } from "@/components/category/category-page";
import { isLocation } from "@/lib/location";
import { getPackage } from "@/lib/packages";

// /category/{id}?location={USA|UK}&package={package} (either may be missing), rewritten here
// (next.config.ts) so that each country and package has its own cached page.
export function generateStaticParams(): { location: string; package: string }[] {
  return [];
}

type Props = { params: Promise<{ id: string; location: string; package: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id, location } = await params;
  const country = location.toUpperCase();
  return isLocation(country) ? categoryMetadata(id, country) : {};
}

export default async function CategoryVariantPage({ params }: Props) {
  const { id, location, package: packageId } = await params;
  const pkg = getPackage(packageId);
  // ?location=uk reads as UK, as the home page's links may be typed by hand.
  const country = location.toUpperCase();
  if (!pkg || !isLocation(country)) notFound();
  return <CategoryPageBody id={id} pkg={pkg} location={country} />;
}
