// Next.js's incremental cache for this app (next.config.ts `cacheHandler`): rendered pages, route
// responses and unstable_cache data, held in this process's memory. Several instances may share
// one database, and a change made through one must show on every instance's next request
// (docs/product-rules.md, "Catalogue pages from cache"). So an entry tagged with the catalogue tag
// also records the catalogue version it was built from (catalogue_version, bumped by triggers in
// the transaction that changes categories or leads), and is served only while the database still
// holds that version: one primary-key read per request for a cached catalogue page.
import pg from "pg";

/** Keep in step with CATALOGUE_TAG in lib/categories/cache.ts. */
const CATALOGUE_TAG = "catalogue";
const TAGS_HEADER = "x-next-cache-tags";
/** Enough for every category page in each package; the oldest entries go first beyond it. */
const MAX_ENTRIES = 2000;

const building = process.env.NEXT_PHASE === "phase-production-build";

/** @type {{ entries: Map<string, { value: unknown; lastModified: number; cacheControl?: unknown; tags: string[]; version?: string }>; pending: Map<string, string>; pool?: pg.Pool }} */
const state = (globalThis.__leadmarketPageCache ??= { entries: new Map(), pending: new Map() });

function versionPool() {
  if (!state.pool) {
    state.pool = new pg.Pool({
      connectionString: process.env.DATABASE_URL,
      max: 2,
      connectionTimeoutMillis: 2000,
      idleTimeoutMillis: 30_000,
    });
    // A connection the server cuts (a restart, the embedded database stopping with `npm start`)
    // emits an error event, which would end the process without a listener; the next read fails
    // instead (nothing is cached then), and the pool replaces the connection.
    state.pool.on("connect", (client) => client.on("error", () => undefined));
    state.pool.on("error", () => undefined);
  }
  return state.pool;
}

async function readVersion() {
  try {
    const { rows } = await versionPool().query({
      name: "catalogue_version",
      text: "SELECT version::text AS version FROM catalogue_version WHERE id = 1",
    });
    return rows[0]?.version;
  } catch {
    return undefined;
  }
}

/** The read that requests arriving now will share; it starts after all of them have arrived. */
let nextRead;

/**
 * The catalogue version now, or undefined when the database cannot say (nothing is cached then).
 * Requests that arrive in the same turn of the event loop share one read, which starts after they
 * arrived, so each still sees every change committed before it came in.
 */
export function currentVersion() {
  if (building || !process.env.DATABASE_URL) return Promise.resolve(undefined);
  if (!nextRead) {
    nextRead = new Promise((resolve) =>
      setImmediate(() => {
        nextRead = undefined;
        resolve(readVersion());
      }),
    );
  }
  return nextRead;
}

function tagsOf(value, ctx) {
  if (ctx?.tags) return ctx.tags;
  const header = value?.headers?.[TAGS_HEADER];
  return typeof header === "string" ? header.split(",") : [];
}

export default class CatalogueCacheHandler {
  constructor() {}

  async get(key) {
    const entry = state.entries.get(key);
    if (entry && !entry.tags.includes(CATALOGUE_TAG)) return entry;
    const version = await currentVersion();
    if (!entry || version === undefined || entry.version !== version) {
      // A miss: the version the coming render starts from. The oldest one wins when renders
      // overlap, so an entry is never stamped newer than the data it was built from.
      if (version !== undefined && !state.pending.has(key)) state.pending.set(key, version);
      return null;
    }
    // Most recently used last, so the oldest entry is the first to go beyond MAX_ENTRIES.
    state.entries.delete(key);
    state.entries.set(key, entry);
    return entry;
  }

  async set(key, value, ctx) {
    const version = state.pending.get(key);
    state.pending.delete(key);
    const tags = tagsOf(value, ctx);
    state.entries.delete(key);
    if (value === null) return;
    // A catalogue entry whose starting version is unknown (database unreachable, or another render
    // of the same key took it) is not kept: the next request renders again.
    if (tags.includes(CATALOGUE_TAG) && version === undefined) return;
    state.entries.set(key, {
      value,
      lastModified: Date.now(),
      cacheControl: ctx?.cacheControl,
      tags,
      version,
    });
    if (state.entries.size > MAX_ENTRIES) state.entries.delete(state.entries.keys().next().value);
  }

  async revalidateTag(tags) {
    const list = Array.isArray(tags) ? tags : [tags];
    for (const [key, entry] of state.entries) {
      if (entry.tags.some((tag) => list.includes(tag))) state.entries.delete(key);
    }
  }

  resetRequestCache() {}
}
