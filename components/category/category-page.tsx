import "server-only";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { loadCategory, loadCategoryImage } from "@/lib/categories/load";
import { CategorySections } from "@/components/category/category-sections";
import { HelpCard } from "@/components/category/help-card";
import { LeadSampleTable, SAMPLE_ROWS, type SampleRow } from "@/components/category/lead-sample-table";
import { PurchaseCard, type PurchaseCardProps } from "@/components/category/purchase-card";
import { StickyWhenFits } from "@/components/category/sticky-when-fits";
import { CategoryHero } from "@/components/category/category-hero";
import { JsonLd } from "@/components/site/json-ld";
import { pageMetadata } from "@/components/site/metadata";
import { SITE_NAME } from "@/lib/site";
import { siteUrl } from "@/lib/env";
import { cachedLeadPreviews } from "@/lib/leads/cached-previews";
import { categoryHref, LOCATION_NAMES, listTitle, type Location } from "@/lib/location";
import { PACKAGES, type LeadPackage } from "@/lib/packages";
import { SegmentFilters } from "@/components/category/segment-filters";
import { SegmentPreview } from "@/components/category/segment-preview";
import { segmentCounts } from "@/lib/segments/counts";
import { segmentPreview } from "@/lib/leads/segment-preview";
import { BusyError } from "@/lib/concurrency";
import { describeSegment, segmentQueryString, type Segment } from "@/lib/segments/vocabularies";
import { EMAIL_QUALITY_LABELS, withEmailQuality, type EmailQuality } from "@/lib/email-quality";

/**
 * The metadata of a category page for one country, whichever package it shows. A segment's page is
 * its own page (titled and canonical with its filters), so a filtered list can be shared and indexed.
 */
export async function categoryMetadata(
  id: string,
  location: Location,
  segment: Segment | null = null,
  emailQuality: EmailQuality = "any",
): Promise<Metadata> {
  const category = await loadCategory(id).catch((error: unknown) => {
    // The page itself reports the failure (error.tsx); metadata falls back to the site's.
    console.error("Category metadata: could not read the category", error);
    return undefined;
  });
  if (category === undefined) return { title: "Lead Category" };
  // Not offered in a country where it has no leads: the page is a 404, and so is its title.
  if (!category || category.countByLocation[location] === 0) return { title: "Category Not Found" };
  const path = categoryHref(category._id, location);
  if (segment || emailQuality !== "any") {
    const filters = [
      describeSegment(segment),
      emailQuality === "any" ? "" : EMAIL_QUALITY_LABELS[emailQuality],
    ]
      .filter(Boolean)
      .join("; ");
    return pageMetadata({
      title: `${listTitle(category.title, location)} (${filters})`,
      description: `Buy verified ${category.title} professional leads in the ${location}, narrowed to ${filters}: 93% accuracy, updated weekly, instant CSV & Excel download from $10.`,
      path: `${path}${path.includes("?") ? "&" : "?"}${withEmailQuality(segmentQueryString(segment), emailQuality)}`,
    });
  }
  const title = `${listTitle(category.title, location)}: Verified B2B Leads`;
  const description = `Buy verified ${category.title} professional leads in the ${location}: ${category.countByLocation[location].toLocaleString("en-US")} contacts available, 93% accuracy, updated weekly, instant CSV & Excel download from $10.`;
  return pageMetadata({ title, description, path });
}

/** A category page for one country, showing one package (the layout above checks the category). */
export async function CategoryPageBody({
  id,
  pkg,
  location,
  segment = null,
  emailQuality = "any",
}: {
  id: string;
  pkg: LeadPackage;
  location: Location;
  /** The filters of the page's address (lib/segments); null for the whole list. */
  segment?: Segment | null;
  /** The email statuses chosen (lib/email-quality.ts). */
  emailQuality?: EmailQuality;
}) {
  // Already read (and checked) by the layout within this request.
  const category = await loadCategory(id);
  // A category is not offered in a country where it has no leads.
  if (!category || category.countByLocation[location] === 0) notFound();
  const count = category.countByLocation[location];

  const base = siteUrl();
  const image = await loadCategoryImage(category._id);
  const buyer = { _id: category._id, title: category.title, count };
  const counts = await segmentCounts(category._id, location, segment, emailQuality);

  return (
    <>
      <CategoryHero
        title={category.title}
        description={category.description}
        location={location}
        count={count}
        percent={category.verifiedRecentlyPercentByLocation[location]}
        statusMix={category.statusMixByLocation[location]}
        updatedAt={category.updatedAt}
        phoneScreening={location === "UK" ? category.ukPhoneScreening : undefined}
        sourceMix={category.sourceMix}
        image={image}
      />
      {/* No Suspense boundary below the hero: a streamed boundary's content is revealed by script,
          and the page (filters, purchase card, previews) must work without it. It is rendered once
          per catalogue version and then served whole from the cache. */}
      <div className="mx-auto max-w-7xl px-4 pt-8 sm:px-6 lg:px-8">
        <SegmentFilters
          categoryId={category._id}
          location={location}
          pkg={pkg}
          segment={segment}
          emailQuality={emailQuality}
          counts={counts}
        />
      </div>
      <CategoryBody
        category={buyer}
        pkg={pkg}
        location={location}
        segment={segment}
        emailQuality={emailQuality}
        matching={counts.count}
      />
      <JsonLd
        data={[
          {
            "@context": "https://schema.org",
            "@type": "Product",
            name: listTitle(category.title, location),
            description:
              category.description ||
              `Verified B2B contact list of ${category.title} professionals in the ${LOCATION_NAMES[location]}.`,
            image: `${base}${image}`,
            url: `${base}${categoryHref(category._id, location)}`,
            category: "B2B lead lists",
            ...(category.updatedAt ? { dateModified: category.updatedAt } : {}),
            brand: { "@type": "Brand", name: SITE_NAME },
            offers: PACKAGES.map((option) => ({
              "@type": "Offer",
              name: option.title,
              price: option.price.toFixed(2),
              priceCurrency: "USD",
              url: `${base}${categoryHref(category._id, location, option.id)}`,
              availability:
                count >= option.leadCount ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
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

/** The segment preview's rows: none to look for when nothing matches; null (no preview) on a failure. */
async function readSegmentPreview(
  id: string,
  location: Location,
  segment: Segment | null,
  emailQuality: EmailQuality,
  matching: number,
) {
  if (matching === 0) return [];
  return segmentPreview(id, location, segment, emailQuality).catch((error: unknown) => {
    // A busy server or a preview past its time is expected under load: its message says which.
    console.error(
      "Category page: could not read the segment preview",
      error instanceof BusyError ? error.message : error,
    );
    return null;
  });
}

/** Below the hero: the sections with the lead sample, and the purchase and help cards. */
async function CategoryBody({
  category,
  pkg,
  location,
  segment,
  emailQuality = "any",
  matching,
}: PurchaseCardProps & { matching: number }) {
  const narrowed = segment != null || emailQuality !== "any";
  const [segmentRows, previews] = await Promise.all([
    narrowed ? readSegmentPreview(category._id, location, segment ?? null, emailQuality, matching) : null,
    cachedLeadPreviews({ categoryId: category._id, location, page: 1, pageSize: SAMPLE_ROWS }).catch(
      (error: unknown) => {
        console.error("Category page: could not read lead previews", error);
        return null;
      },
    ),
  ]);
  const sampleRows: SampleRow[] = (previews?.leads ?? []).map((lead) => ({
    name: lead.name,
    title: lead.title,
    company: lead.company,
    location: [lead.city, lead.state].filter(Boolean).join(", ") || lead.country,
    emailStatus: lead.emailStatus,
  }));

  return (
    <div className="mx-auto grid max-w-7xl gap-10 px-4 py-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_380px] lg:px-8 lg:py-14">
      <StickyWhenFits className="space-y-6 lg:col-start-2 lg:row-start-1 lg:self-start">
        <PurchaseCard
          category={narrowed ? { ...category, count: matching } : category}
          pkg={pkg}
          location={location}
          segment={segment}
          emailQuality={emailQuality}
        />
        <HelpCard />
      </StickyWhenFits>
      <div className="min-w-0 space-y-12 lg:col-start-1 lg:row-start-1">
        <CategorySections
          title={category.title}
          count={category.count}
          location={location}
          pkg={pkg}
          sample={
            <>
              <LeadSampleTable rows={sampleRows} />
              {segmentRows && <SegmentPreview rows={segmentRows} />}
            </>
          }
        />
      </div>
    </div>
  );
}
