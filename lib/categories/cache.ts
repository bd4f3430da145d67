import "server-only";
import { revalidateTag, unstable_cache } from "next/cache";
import { buildingForProduction, insideNextServer } from "@/lib/env";

/**
 * The tag on every cached page, route and read that shows the catalogue (categories, counts, lead
 * previews). Keep in step with lib/categories/cache-handler.mjs.
 */
export const CATALOGUE_TAG = "catalogue";

// Tests and scripts call the same functions outside Next.js, where there is no cache to read or
// revalidate. `next build` must not reach the database: what it prerenders from this data is never
// served (the cache handler keeps entries in the serving process only), so it gets `atBuild`.

/**
 * A catalogue read whose result is cached under CATALOGUE_TAG. Using it also puts the tag on the
 * page or route that calls it, so the whole response is revalidated with the catalogue.
 */
export function catalogueRead<A extends unknown[], R>(
  name: string,
  read: (...args: A) => Promise<R>,
  atBuild: R,
): (...args: A) => Promise<R> {
  const cached = unstable_cache(read, ["catalogue", name], { tags: [CATALOGUE_TAG] });
  return (...args: A) => {
    if (buildingForProduction()) return Promise.resolve(atBuild);
    return insideNextServer() ? cached(...args) : read(...args);
  };
}

/**
 * Call after any change to the catalogue: drops this instance's cached pages at once. Other
 * instances notice by themselves: the change's own transaction bumped catalogue_version (a
 * trigger on categories and leads), and cached entries are served only while it matches.
 */
export function revalidateCatalogue(): void {
  if (insideNextServer()) revalidateTag(CATALOGUE_TAG, { expire: 0 });
}
