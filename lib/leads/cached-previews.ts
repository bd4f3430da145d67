import "server-only";
import { catalogueRead } from "@/lib/categories/cache";
import { listLeadPreviews } from "@/lib/leads/previews";

// A category page's lead previews, cached under the catalogue tag (lib/categories/cache.ts).
export const cachedLeadPreviews = catalogueRead("lead-previews", listLeadPreviews, null);
