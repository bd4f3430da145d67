import type { MetadataRoute } from "next";
import { siteUrl } from "@/lib/env";

// Per request, so the sitemap address follows the deployed PUBLIC_BASE_URL.
export const dynamic = "force-dynamic";

export default function robots(): MetadataRoute.Robots {
  return {
    rules: [{ userAgent: "*", allow: "/", disallow: ["/admin", "/admin/", "/api/"] }],
    sitemap: `${siteUrl()}/sitemap.xml`,
  };
}
