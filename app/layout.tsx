import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { Providers } from "@/app/providers";
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

export const viewport: Viewport = {
  themeColor: "#4338ca",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        {/* No TooltipProvider here: each Tooltip mounts its own (same delays), so pages without a
            tooltip do not load Radix Tooltip and its positioning code. */}
        <Providers>
          {children}
          <LazyToaster />
        </Providers>
      </body>
    </html>
  );
}
