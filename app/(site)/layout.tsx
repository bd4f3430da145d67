import type { ReactNode } from "react";
import { SiteChrome } from "@/components/site/site-chrome";

// Public pages render per request: they show live data, and the footer's year must never be stale.
export const dynamic = "force-dynamic";

export default function SiteLayout({ children }: { children: ReactNode }) {
  return <SiteChrome>{children}</SiteChrome>;
}
