import "server-only";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { loadCategory, loadCategoryImage } from "@/lib/categories/load";
import { CategorySections } from "@/components/category/category-sections";
import { HelpCard } from "@/components/category/help-card";
import { LeadSampleTable, SAMPLE_ROWS, type SampleRow } from "@/components/category/lead-sample-table";
import { PurchaseCard } from "@/components/category/purchase-card";
import { StickyWhenFits } from "@/components/category/sticky-when-fits";
import { JsonLd } from "@/components/site/json-ld";
import { pageMetadata } from "@/components/site/metadata";
import { SITE_NAME } from "@/lib/site";
import { siteUrl } from "@/lib/env";
import { cachedLeadPreviews } from "@/lib/categories/cached-reads";
import { PACKAGES, type LeadPackage } from "@/lib/packages";

/** The metadata of a category page, whichever package it shows. */
export async function categoryMetadata(id: string): Promise<Metadata> {
  const category = await loadCategory(id).catch((error: unknown) => {
    // The page itself reports the failure (error.tsx); metadata falls back to the site's.
    console.error("Category metadata: could not read the category", error);
    return undefined;
  });
  if (!category) return { title: category === null ? "Category Not Found" : "Lead Category" };
  const title = `${category.title} Professionals - USA: Verified B2B Leads`;
  const description = `Buy verified ${category.title} professional leads in the USA: ${category.count.toLocaleString("en-US")} contacts available, 93% accuracy, updated weekly, instant CSV & Excel download from $10.`;
  return pageMetadata({ title, description, path: `/category/${category._id}` });
}

/** A category page showing one package (the layout above renders the hero). */
export async function CategoryPageBody({ id, pkg }: { id: string; pkg: LeadPackage }) {
  // Already read (and checked) by the layout within this request.
  const category = await loadCategory(id);
  if (!category) notFound();

  const previews = await cachedLeadPreviews({
    categoryId: category._id,
    page: 1,
    pageSize: SAMPLE_ROWS,
  }).catch((error: unknown) => {
    console.error("Category page: could not read lead previews", error);
    return null;
  });
  const sampleRows: SampleRow[] = (previews?.leads ?? []).map((lead) => ({
    name: lead.name,
    title: lead.title,
    company: lead.company,
    location: [lead.city, lead.state].filter(Boolean).join(", ") || lead.country,
  }));

  const base = siteUrl();
  const image = await loadCategoryImage(category._id);
  const buyer = { _id: category._id, title: category.title, count: category.count };

  return (
    <>
      {/* The hero is rendered by the layout, above the loading state. */}
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_380px] lg:px-8 lg:py-14">
        <StickyWhenFits className="space-y-6 lg:col-start-2 lg:row-start-1 lg:self-start">
          <PurchaseCard category={buyer} pkg={pkg} />
          <HelpCard />
        </StickyWhenFits>
        <div className="min-w-0 space-y-12 lg:col-start-1 lg:row-start-1">
          <CategorySections
            title={category.title}
            count={category.count}
            pkg={pkg}
            sample={<LeadSampleTable rows={sampleRows} />}
          />
        </div>
      </div>
      <JsonLd
        data={[
          {
            "@context": "https://schema.org",
            "@type": "Product",
            name: `${category.title} Professionals - USA`,
            description:
              category.description ||
              `Verified B2B contact list of ${category.title} professionals in the United States.`,
            image: `${base}${image}`,
            url: `${base}/category/${category._id}`,
            category: "B2B lead lists",
            brand: { "@type": "Brand", name: SITE_NAME },
            offers: PACKAGES.map((option) => ({
              "@type": "Offer",
              name: option.title,
              price: option.price.toFixed(2),
              priceCurrency: "USD",
              url: `${base}/category/${category._id}?package=${option.id}`,
              availability:
                category.count >= option.leadCount
                  ? "https://schema.org/InStock"
                  : "https://schema.org/OutOfStock",
              eligibleQuantity: { "@type": "QuantitativeValue", value: option.leadCount, unitText: "leads" },
            })),
          },
          {
            "@context": "https://schema.org",
            "@type": "BreadcrumbList",
            itemListElement: [
              { "@type": "ListItem", position: 1, name: "Home", item: `${base}/` },
              { "@type": "ListItem", position: 2, name: "Categories", item: `${base}/#lead-categories` },
              {
                "@type": "ListItem",
                position: 3,
                name: category.title,
                item: `${base}/category/${category._id}`,
              },
            ],
          },
        ]}
      />
    </>
  );
}
