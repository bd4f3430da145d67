import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { LazyToaster } from "@/components/ui/lazy-toaster";
import { SITE_DESCRIPTION, SITE_NAME, SITE_TAGLINE } from "@/lib/site";
import { pageMetadata } from "@/components/site/metadata";
import { siteUrl } from "@/lib/env";
import "./globals.css";

// A function, so pages rendered per request use the deployed PUBLIC_BASE_URL, not the build's.
export function generateMetadata(): Metadata {
  return {
    metadataBase: new URL(siteUrl()),
    applicationName: SITE_NAME,
    icons: { icon: "/favicon.svg" },
    ...pageMetadata({
      title: `${SITE_NAME} | ${SITE_TAGLINE}`,
      description: SITE_DESCRIPTION,
      path: "/",
      absoluteTitle: true,
    }),
    title: { default: `${SITE_NAME} | ${SITE_TAGLINE}`, template: `%s | ${SITE_NAME}` },
    alternates: undefined,
  };
}

// Pages that read nothing per request are rendered on their first request (never from the build's
// output: lib/categories/cache-handler.mjs keeps entries in the serving process only) and then
// served from the cache; re-rendered hourly at most, so the footer's year follows the calendar.
export const revalidate = 3600;

export const viewport: Viewport = {
  themeColor: "#4338ca",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        {/* No QueryClientProvider here either: React Query is loaded only by the pages that use it
            (components/providers.tsx), so the home page and the static pages ship without it. */}
        {children}
        <LazyToaster />
      </body>
    </html>
  );
}
