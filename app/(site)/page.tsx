import type { Metadata } from "next";
import { Suspense } from "react";
import { CtaBanner } from "@/components/site/home/cta-banner";
import { CustomRequestSection } from "@/components/site/home/custom-request-section";
import { Faq, HOME_FAQ } from "@/components/site/home/faq";
import { Hero } from "@/components/site/home/hero";
import { HowItWorks } from "@/components/site/home/how-it-works";
import { LeadCategories } from "@/components/site/home/lead-categories";
import { Testimonials } from "@/components/site/home/testimonials";
import { TrustedBy } from "@/components/site/home/trusted-by";
import { WhyUs } from "@/components/site/home/why-us";
import { pageMetadata } from "@/components/site/metadata";
import { HashScroll } from "@/components/site/hash-scroll";
import { JsonLd } from "@/components/site/json-ld";
import { SITE_DESCRIPTION, SITE_NAME, SITE_TAGLINE } from "@/lib/site";
import { siteUrl } from "@/lib/env";
import { cachedCategories } from "@/lib/categories/cached-reads";
import type { CategoryDto } from "@/lib/schemas/category";

// Rendered on its first request, then served from the cache until the catalogue changes
// (lib/categories/cache.ts).
export const metadata: Metadata = pageMetadata({
  title: `${SITE_NAME} | ${SITE_TAGLINE}`,
  description: SITE_DESCRIPTION,
  path: "/",
  absoluteTitle: true,
});

export default function HomePage() {
  // The top of the page needs no data and is sent at once; the rest waits for the categories and
  // streams in right behind it. With the document's first bytes holding only the top sections,
  // the browser paints the hero before the scripts start hydrating, instead of after them.
  // The fallback keeps the footer below the fold until the rest arrives.
  return (
    <>
      <Hero />
      <TrustedBy />
      <HowItWorks />
      <Suspense fallback={<div aria-hidden="true" className="min-h-dvh" />}>
        <HomeCatalog />
      </Suspense>
    </>
  );
}

async function HomeCatalog() {
  // The categories are rendered into the HTML and handed to the section as props, so the browser
  // does not fetch them again. If the database cannot be read, the section falls back to fetching
  // itself.
  let categories: CategoryDto[] | null = null;
  try {
    categories = await cachedCategories();
  } catch (error) {
    console.error("Home page: could not read categories", error);
  }

  const base = siteUrl();
  return (
    <>
      {/* Here, so it runs once the sections it scrolls to are on screen. */}
      <HashScroll />
      <LeadCategories initial={categories} />
      <WhyUs />
      <CustomRequestSection />
      <Testimonials />
      <Faq />
      <CtaBanner />
      <JsonLd
        data={[
          {
            "@context": "https://schema.org",
            "@type": "Organization",
            name: SITE_NAME,
            url: base,
            logo: `${base}/favicon.svg`,
            description: SITE_DESCRIPTION,
          },
          {
            "@context": "https://schema.org",
            "@type": "FAQPage",
            mainEntity: HOME_FAQ.map((item) => ({
              "@type": "Question",
              name: item.question,
              acceptedAnswer: { "@type": "Answer", text: item.answer },
            })),
          },
        ]}
      />
    </>
  );
}
