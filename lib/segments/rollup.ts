import "server-only";
import type { Location } from "@/lib/location";
import { pool } from "@/lib/db";
import { FACETS, VOCABULARIES } from "@/lib/segments/vocabularies";

// A category's category_segments rows for one country, held in this process's memory while the
// catalogue version they were read at is still the database's: every statement that changes leads
// or categories bumps catalogue_version in its own transaction (the catalogue_version migration),
// so a held copy is exact until that number moves. A request costs one primary-key read of the
// version; the rows are read again (one statement, so rows and version agree) only after a change.

export type Rollup = {
  /** The catalogue version the rows were read at. */
  version: bigint;
  /** Whether the category exists with leads (a public category). */
  public: boolean;
  /** Per facet (FACETS order), each row's value as its index in VOCABULARIES[facet]; OTHER if none. */
  codes: Uint8Array[];
  /** Each row's email status as its index in ROLLUP_STATUSES. */
  statuses: Uint8Array;
  /** Each row's sellable leads. */
  leads: Int32Array;
};

/** The email statuses of sellable leads, as rows' `statuses` number them. */
export const ROLLUP_STATUSES = ["valid", "accept_all", "unknown"] as const;

/** The code of a stored value outside the vocabulary: never chosen by a filter, never listed. */
export const OTHER = 255;

/** Category and country pairs held; the least recently used goes first beyond it (~40 KB each). */
const MAX_ROLLUPS = 256;

const INDEX = FACETS.map((facet) => new Map(VOCABULARIES[facet].map((value, index) => [value, index])));

const held = new Map<string, Rollup>();
const reading = new Map<string, Promise<Rollup>>();

async function currentVersion(): Promise<bigint> {
  const { rows } = await pool().query<{ version: string }>({
    name: "segments_catalogue_version",
    text: "SELECT version::text AS version FROM catalogue_version WHERE id = 1",
  });
  return BigInt(rows[0].version);
}

type RollupRow = { version: string; public: boolean; leads: number[]; statuses: string[] } & Record<
  (typeof FACETS)[number],
  string[]
>;

async function readRollup(categoryId: string, location: Location): Promise<Rollup> {
  const { rows } = await pool().query<RollupRow>(
    `SELECT (SELECT version::text FROM catalogue_version WHERE id = 1) AS version,
       EXISTS (SELECT 1 FROM categories WHERE id = $1::uuid AND count > 0) AS public,
       ${FACETS.map((facet) => `coalesce(array_agg(${facet}), '{}') AS ${facet}`).join(", ")},
       coalesce(array_agg(email_status::text), '{}') AS statuses, coalesce(array_agg(leads), '{}') AS leads
     FROM category_segments WHERE category_id = $1::uuid AND country = $2::"Country"`,
    [categoryId, location],
  );
  const row = rows[0];
  return {
    version: BigInt(row.version),
    public: row.public,
    codes: FACETS.map((facet, f) => Uint8Array.from(row[facet], (value) => INDEX[f].get(value) ?? OTHER)),
    statuses: Uint8Array.from(row.statuses, (status) =>
      ROLLUP_STATUSES.indexOf(status as (typeof ROLLUP_STATUSES)[number]),
    ),
    leads: Int32Array.from(row.leads),
  };
}

/** One read of a key at a time; a request arriving meanwhile waits for it, then checks its version. */
function read(key: string, categoryId: string, location: Location): Promise<Rollup> {
  const promise = readRollup(categoryId, location).finally(() => {
    if (reading.get(key) === promise) reading.delete(key);
  });
  reading.set(key, promise);
  return promise;
}

/**
 * The category's rollup for the country, as of this call or later: a copy is used only when it was
 * read at the version the database holds now (or a newer one), so it includes every change
 * committed before the call.
 */
export async function categoryRollup(categoryId: string, location: Location): Promise<Rollup> {
  const key = `${categoryId}/${location}`;
  const version = await currentVersion();
  const fresh = (rollup: Rollup | undefined): rollup is Rollup =>
    rollup !== undefined && rollup.version >= version;
  let rollup = held.get(key);
  if (!fresh(rollup)) {
    // A read already under way may have started before this call's version: then read again.
    rollup = await (reading.get(key) ?? read(key, categoryId, location));
    if (!fresh(rollup)) rollup = await read(key, categoryId, location);
  }
  const kept = held.get(key);
  // Most recently used last; never replaced by an older read that finished later.
  if (!kept || kept.version <= rollup.version) {
    held.delete(key);
    held.set(key, rollup);
  }
  if (held.size > MAX_ROLLUPS) held.delete(held.keys().next().value!);
  return rollup;
}
