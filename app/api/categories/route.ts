import { route } from "@/lib/api/handler";
import { cachedCategories } from "@/lib/categories/cached-reads";

// Served from the cache until the catalogue changes (lib/categories/cache.ts).
export const dynamic = "force-static";
export const revalidate = 3600;

// GET /api/categories - every category with its available lead count
export const GET = route({}, async () => Response.json(await cachedCategories()));
