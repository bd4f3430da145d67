import type { MetadataRoute } from "next";
import { siteUrl } from "@/lib/env";
import { cachedCategories } from "@/lib/categories/cached-reads";

// Lists the categories: served from the cache until the catalogue changes (lib/categories/cache.ts).
export const revalidate = 3600;

export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const base = siteUrl();
  const categories = await cachedCategories();
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
