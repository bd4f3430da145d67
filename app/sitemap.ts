import type { MetadataRoute } from "next";
import { siteUrl } from "@/lib/env";
import { listCategories } from "@/lib/categories/public";

// Lists live categories, so it is built per request and never at build time.
export const dynamic = "force-dynamic";

export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const base = siteUrl();
  const categories = await listCategories();
  return [
    { url: `${base}/`, changeFrequency: "weekly", priority: 1 },
    ...categories.map((category) => ({
      url: `${base}/category/${category._id}`,
      lastModified: new Date(category.updatedAt ?? category.createdAt),
      changeFrequency: "weekly" as const,
      priority: 0.8,
    })),
    { url: `${base}/privacy-policy`, changeFrequency: "yearly", priority: 0.2 },
    { url: `${base}/terms-of-service`, changeFrequency: "yearly", priority: 0.2 },
    { url: `${base}/cookie-policy`, changeFrequency: "yearly", priority: 0.2 },
  ];
}
