// How every reader of a query string takes a key given more than once: its values joined with ","
// (`?region=CA&region=NY` is `?region=CA,NY`). route() (lib/api/handler.ts), the pages' segment
// reading (lib/segments/schema.ts) and the custom server's front cache (lib/categories/front-cache.mjs)
// read it so; plain JavaScript because the custom server loads it without a build.

/** A key's values as one: joined with ",". */
export function joinedValues(values) {
  return values.join(",");
}

/** Every key of a query string once, with its values joined. */
export function queryRecord(searchParams) {
  const keys = [...new Set(searchParams.keys())];
  return Object.fromEntries(keys.map((key) => [key, joinedValues(searchParams.getAll(key))]));
}

/** A comma list's values, trimmed; empty parts are ignored. */
export function commaList(text) {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}
