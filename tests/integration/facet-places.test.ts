// Region spellings (docs/product-rules.md, "Segments"; the facet_places migration): UK counties,
// council areas, districts, boroughs, towns and short forms map to their ONS region, US states'
// abbreviations to their codes, and nonsense stays `unknown`. Leads stored before the migration
// are read again by it, with the rollup exact, known leads untouched, and a buyer's earlier
// purchase of `unknown` leads counted by what those leads are now.
import { cp, mkdtemp, readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Location } from "@/lib/location";
import { MIGRATIONS_DIR, migrate } from "@/lib/migrate";
import type { Segment } from "@/lib/segments/vocabularies";
import { createTestDatabase } from "../support/database";
import { rollupMismatches } from "../support/segments";

const MIGRATION = "20261127300000_facet_places";

// Its own database, migrated with every migration but this one (the others change no facet, and
// today's code that stores the leads needs their columns): leads and an order are stored under the
// old mapping, then beforeAll applies this one.
const database = await createTestDatabase("leadmarket_facet_places", { migrate: false });
const earlier = await mkdtemp("/tmp/migrations-");
for (const name of await readdir(MIGRATIONS_DIR)) {
  if (/^\d{14}_/.test(name) && name !== MIGRATION) {
    await cp(`${MIGRATIONS_DIR}/${name}`, `${earlier}/${name}`, { recursive: true });
  }
}
await migrate(database.url, { migrations: earlier });
process.env.DATABASE_URL = database.url;

const { db, pool, transaction } = await import("@/lib/db");
const { countBoughtBefore } = await import("@/lib/leads/allocation");
const { insertLeads } = await import("@/lib/leads/insert");
const { allocateLeads } = await import("@/lib/orders/settle");
const { createCategoryWithLeads, makeLeads } = await import("@/prisma/demo-data");

const BUYER = "places.buyer@example.com";

// Spellings stored before the migration, four leads each, and the region each has after it.
const STORED: [Location, string, string][] = [
  ["USA", "Calif.", "CA"],
  ["USA", "N.Y.", "NY"],
  ["USA", "W.Va.", "WV"],
  ["USA", "Ontario", "unknown"],
  ["UK", "Camden", "london"],
  ["UK", "Fife", "scotland"],
  ["UK", "Co. Antrim", "northern_ireland"],
  ["UK", "Herts", "east_of_england"],
  ["UK", "Atlantis", "unknown"],
];

let categoryId: string;
let applied: string[];
let versionBefore: bigint;
let knownBefore: { id: string; xmin: string }[];
let unknownBefore: Record<string, string>;

async function catalogueVersion(): Promise<bigint> {
  const { rows } = await pool().query<{ version: string }>("SELECT version FROM catalogue_version");
  return BigInt(rows[0].version);
}

/** The plain count: the buyer's bought leads that are sellable and of the country and segment now. */
async function boughtNow(country: Location, segment: Segment): Promise<number> {
  const { rows } = await pool().query<{ n: number }>(
    `SELECT count(*)::int AS n FROM orders o JOIN order_leads ol ON ol.order_id = o.id JOIN leads l ON l.id = ol.lead_id
      WHERE o.buyer_email = $1 AND l.country = $2 AND lead_sellable(l.quarantined_at, l.email_status, l.notice_status)
        AND l.facet_region = ANY($3)`,
    [BUYER, country, segment.region],
  );
  return rows[0].n;
}

beforeAll(async () => {
  categoryId = await createCategoryWithLeads(pool(), { title: "Facet Places" }, { usa: 300, uk: 120 }, 31);
  const stored = STORED.flatMap(([country, state], spelling) =>
    makeLeads(4, { seed: 500 + spelling, country }).map((lead, i) => ({
      ...lead,
      email: `place${spelling}.${i}@places.example`,
      state,
      city: country === "UK" ? "Nowhere" : "",
    })),
  );
  await insertLeads(pool(), categoryId, stored);
  // Unsellable leads move nowhere in the rollup: one found invalid, one quarantined.
  await pool().query(
    `UPDATE leads SET email_status = 'invalid' WHERE email IN ('place0.3@places.example', 'place4.3@places.example')`,
  );
  await pool().query("UPDATE leads SET quarantined_at = now() WHERE email = 'place5.3@places.example'");

  // A buyer's paid order of the USA leads whose region was `unknown`: all of them.
  const { rows } = await pool().query<{ id: string }>(
    `INSERT INTO orders (category_id, lead_title, package_type, lead_count, amount, buyer_email, paid_at, status, location, segment)
     VALUES ($1, 'Facet Places', 'starter', 15, 0, $2, now(), 'finished', 'USA', '{"region": ["unknown"]}') RETURNING id`,
    [categoryId, BUYER],
  );
  const order = { id: rows[0].id, categoryId, leadCount: 15, location: "USA" as const };
  const allocated = await transaction((tx) =>
    allocateLeads(tx, {
      ...order,
      segment: { region: ["unknown"] },
      buyerEmail: BUYER,
      suppressionListId: null,
    }),
  );
  expect(allocated).toBe(15);

  expect(await rollupMismatches(pool(), categoryId)).toEqual([]);
  const regions = await pool().query<{ state: string; facet_region: string }>(
    "SELECT DISTINCT state, facet_region FROM leads WHERE email LIKE '%@places.example'",
  );
  unknownBefore = Object.fromEntries(regions.rows.map((row) => [row.state, row.facet_region]));
  const known = await pool().query<{ id: string; xmin: string }>(
    `SELECT id::text, xmin::text FROM leads WHERE category_id = $1 AND facet_region <> 'unknown' ORDER BY id`,
    [categoryId],
  );
  knownBefore = known.rows;
  versionBefore = await catalogueVersion();

  applied = await migrate(database.url);
});

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
  await database.drop();
});

/** facet_region() of each [country, state, city], in order. */
async function regions(cases: [Location, string, string][]): Promise<string[]> {
  const { rows } = await pool().query<{ region: string }>(
    `SELECT facet_region(c::"Country", s, t) AS region
       FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS x(c, s, t, i) ORDER BY i`,
    [cases.map((c) => c[0]), cases.map((c) => c[1]), cases.map((c) => c[2])],
  );
  return rows.map((row) => row.region);
}

/** Each case with the region it maps to, against each case with the region expected. */
async function expectRegions(cases: [Location, string, string, string][]) {
  const got = await regions(cases.map(([country, state, city]) => [country, state, city]));
  expect(cases.map(([, state, city], i) => `${state} / ${city} -> ${got[i]}`)).toEqual(
    cases.map(([, state, city, region]) => `${state} / ${city} -> ${region}`),
  );
}

const uk = (state: string, region: string, city = ""): [Location, string, string, string] => [
  "UK",
  state,
  city,
  region,
];
const usa = (state: string, region: string): [Location, string, string, string] => ["USA", state, "", region];

describe("UK regions", () => {
  it("read London's boroughs, the City and Middlesex", async () => {
    await expectRegions([
      ...["Camden", "Islington", "Hackney", "Westminster", "Croydon", "Barnet", "Tower Hamlets"].map(
        (place) => uk(place, "london"),
      ),
      uk("Barking and Dagenham", "london"),
      uk("Hammersmith & Fulham", "london"),
      uk("Kingston-upon-Thames", "london"),
      uk("Richmond upon Thames", "london"),
      uk("Royal Borough of Kensington and Chelsea", "london"),
      uk("London Borough of Waltham Forest", "london"),
      uk("City of London", "london"),
      uk("Middlesex", "london"),
      uk("England", "london", "East London"),
      uk("Greater London", "london"),
    ]);
  });

  it("read Scotland's council areas, Wales's principal areas and Northern Ireland's counties and districts", async () => {
    await expectRegions([
      ...[
        "Fife",
        "Lanarkshire",
        "North Lanarkshire",
        "South Lanarkshire",
        "Highland",
        "Aberdeenshire",
        "City of Edinburgh",
        "Glasgow City",
        "Aberdeen City",
        "Dundee",
        "Perth and Kinross",
        "Stirling",
        "Dumfries & Galloway",
        "Na h-Eileanan Siar",
        "Argyll and Bute",
        "Fife, Scotland",
      ].map((place) => uk(place, "scotland")),
      uk("Scotland", "scotland", "Paisley"),
      ...[
        "Glamorgan",
        "Vale of Glamorgan",
        "Gwynedd",
        "Powys",
        "Cardiff",
        "Swansea",
        "City and County of Swansea",
        "Newport",
        "Carmarthenshire",
        "Pembrokeshire",
        "Conwy",
        "Denbighshire",
        "Flintshire",
        "Wrexham",
        "Monmouthshire",
        "Isle of Anglesey",
        "Rhondda Cynon Taf",
        "Neath Port Talbot",
        "North Wales",
      ].map((place) => uk(place, "wales")),
      ...[
        "Co. Antrim",
        "County Down",
        "Armagh",
        "Londonderry",
        "Co Derry",
        "Fermanagh",
        "County Tyrone",
        "Belfast",
        "Newry, Mourne and Down",
        "Northern Ireland",
      ].map((place) => uk(place, "northern_ireland")),
    ]);
  });

  it("read English ceremonial counties, unitary and metropolitan areas and cities", async () => {
    await expectRegions([
      uk("Bedford", "east_of_england"),
      uk("Southend-on-Sea", "east_of_england"),
      uk("Solihull", "west_midlands"),
      uk("Walsall", "west_midlands"),
      uk("Dudley", "west_midlands"),
      uk("Stoke-on-Trent", "west_midlands"),
      uk("Herefordshire, County of", "west_midlands"),
      uk("Teesside", "north_east"),
      uk("Cleveland", "north_east"),
      uk("Redcar and Cleveland", "north_east"),
      uk("County Durham", "north_east"),
      uk("Co. Durham", "north_east"),
      uk("Bristol, City of", "south_west"),
      uk("City of Bristol", "south_west"),
      uk("Bath and North East Somerset", "south_west"),
      uk("Cornwall", "south_west"),
      uk("Kingston upon Hull, City of", "yorkshire_and_the_humber"),
      uk("North Lincolnshire", "yorkshire_and_the_humber"),
      uk("Lincolnshire", "east_midlands"),
      uk("Rutland", "east_midlands"),
      uk("Blackburn with Darwen", "north_west"),
      uk("Cumbria", "north_west"),
      uk("The Wirral", "north_west"),
      uk("Brighton & Hove", "south_east"),
      uk("Milton Keynes", "south_east"),
      uk("Isle of Wight", "south_east"),
      uk("Greater Manchester", "north_west"),
      uk("Kent, UK", "south_east"),
      uk("Surrey, England", "south_east"),
      uk("  WEST   yorkshire ", "yorkshire_and_the_humber"),
      uk("East of England", "east_of_england"),
      uk("south_west", "south_west"),
      // A nation or an empty county: the city.
      uk("England", "yorkshire_and_the_humber", "Leeds"),
      uk("", "east_of_england", "St. Albans"),
      uk("England", "east_of_england", "King's Lynn"),
      uk("England", "north_east", "Newcastle-upon-Tyne"),
    ]);
  });

  it("read the short forms", async () => {
    await expectRegions([
      uk("Herts", "east_of_england"),
      uk("Beds", "east_of_england"),
      uk("Cambs", "east_of_england"),
      uk("Hants", "south_east"),
      uk("Bucks", "south_east"),
      uk("Berks", "south_east"),
      uk("Oxon", "south_east"),
      uk("Lancs", "north_west"),
      uk("Gtr Manchester", "north_west"),
      uk("Notts", "east_midlands"),
      uk("Leics", "east_midlands"),
      uk("Lincs", "east_midlands"),
      uk("Northants", "east_midlands"),
      uk("Yorks", "yorkshire_and_the_humber"),
      uk("N. Yorks", "yorkshire_and_the_humber"),
      uk("Glos", "south_west"),
      uk("Wilts", "south_west"),
      uk("Staffs", "west_midlands"),
      uk("Worcs", "west_midlands"),
      uk("Salop", "west_midlands"),
    ]);
  });

  it("leave nonsense, England alone and names of two regions unknown", async () => {
    await expectRegions([
      uk("Atlantis", "unknown"),
      uk("England", "unknown", "Atlantis"),
      uk("England", "unknown"),
      uk("UK", "unknown"),
      uk("", "unknown"),
      uk("Midlands", "unknown"),
      uk("New South Wales", "unknown"),
      uk("Ontario", "unknown", "Toronto"),
      uk("County", "unknown"),
      uk("Bangor", "unknown"),
    ]);
  });
});

describe("US states", () => {
  it("read codes, names, dotted and traditional abbreviations", async () => {
    const traditional: [string, string][] = [
      ["Ala.", "AL"],
      ["Ariz.", "AZ"],
      ["Ark.", "AR"],
      ["Calif.", "CA"],
      ["Colo.", "CO"],
      ["Conn.", "CT"],
      ["Del.", "DE"],
      ["Fla.", "FL"],
      ["Ga.", "GA"],
      ["Ill.", "IL"],
      ["Ind.", "IN"],
      ["Kans.", "KS"],
      ["Ky.", "KY"],
      ["La.", "LA"],
      ["Md.", "MD"],
      ["Mass.", "MA"],
      ["Mich.", "MI"],
      ["Minn.", "MN"],
      ["Miss.", "MS"],
      ["Mo.", "MO"],
      ["Mont.", "MT"],
      ["Nebr.", "NE"],
      ["Nev.", "NV"],
      ["N.H.", "NH"],
      ["N.J.", "NJ"],
      ["N.M.", "NM"],
      ["N.Y.", "NY"],
      ["N.C.", "NC"],
      ["N.D.", "ND"],
      ["Okla.", "OK"],
      ["Ore.", "OR"],
      ["Pa.", "PA"],
      ["R.I.", "RI"],
      ["S.C.", "SC"],
      ["S.D.", "SD"],
      ["Tenn.", "TN"],
      ["Tex.", "TX"],
      ["Vt.", "VT"],
      ["Va.", "VA"],
      ["Wash.", "WA"],
      ["W.Va.", "WV"],
      ["Wis.", "WI"],
      ["Wyo.", "WY"],
    ];
    await expectRegions([
      ...traditional.map(([state, code]) => usa(state, code)),
      usa("CA", "CA"),
      usa("ca", "CA"),
      usa("C.A.", "CA"),
      usa("US-CA", "CA"),
      usa("us-ny", "NY"),
      usa("California", "CA"),
      usa("new  york", "NY"),
      usa("Washington", "WA"),
      usa("West Virginia", "WV"),
      usa("Washington, DC", "DC"),
      usa("Washington, D.C.", "DC"),
      usa("D.C.", "DC"),
      usa("District of Columbia", "DC"),
      usa("N. Dak.", "ND"),
    ]);
  });

  it("leave what is no state unknown", async () => {
    await expectRegions([
      usa("Ontario", "unknown"),
      usa("US-XX", "unknown"),
      usa("Puerto Rico", "unknown"),
      usa("Atlantis", "unknown"),
      usa("", "unknown"),
      usa("CA 94105", "unknown"),
    ]);
  });
});

describe("the migration", () => {
  it("reads the stored leads again and keeps the rollup exact", async () => {
    expect(applied[0]).toBe(MIGRATION);
    expect(unknownBefore).toEqual(Object.fromEntries(STORED.map(([, state]) => [state, "unknown"])));
    const { rows } = await pool().query<{ state: string; facet_region: string }>(
      "SELECT DISTINCT state, facet_region FROM leads WHERE email LIKE '%@places.example'",
    );
    expect(Object.fromEntries(rows.map((row) => [row.state, row.facet_region]))).toEqual(
      Object.fromEntries(STORED.map(([, state, region]) => [state, region])),
    );
    expect(await rollupMismatches(pool(), categoryId)).toEqual([]);
    // The rollup counts the sellable ones only: 3 of the 4 "Calif." leads, 4 of "N.Y.".
    const { rows: rollup } = await pool().query<{ region: string; leads: number }>(
      `SELECT region, sum(leads)::int AS leads FROM category_segments
        WHERE category_id = $1 AND region IN ('CA', 'NY') GROUP BY 1`,
      [categoryId],
    );
    const { rows: demo } = await pool().query<{ region: string; leads: number }>(
      `SELECT facet_region AS region, count(*)::int AS leads FROM leads WHERE category_id = $1
          AND facet_region IN ('CA', 'NY') AND email NOT LIKE '%@places.example'
          AND lead_sellable(quarantined_at, email_status, notice_status) GROUP BY 1`,
      [categoryId],
    );
    const demoOf = (region: string) => demo.find((row) => row.region === region)?.leads ?? 0;
    expect(Object.fromEntries(rollup.map((row) => [row.region, row.leads]))).toEqual({
      CA: demoOf("CA") + 3,
      NY: demoOf("NY") + 4,
    });
    expect(await catalogueVersion()).toBeGreaterThan(versionBefore);
  });

  it("leaves the leads it maps as before untouched", async () => {
    expect(knownBefore.length).toBe(420);
    const { rows } = await pool().query<{ id: string; xmin: string }>(
      "SELECT id::text, xmin::text FROM leads WHERE id = ANY($1::bigint[]) ORDER BY id",
      [knownBefore.map((row) => row.id)],
    );
    expect(rows).toEqual(knownBefore);
  });

  it("counts a buyer's earlier purchase of unknown leads by what they are now", async () => {
    // Bought as `unknown`: 11 sellable "Calif.", "N.Y." and "W.Va." leads now of their state, 4 of Ontario.
    for (const segment of [{ region: ["unknown"] }, { region: ["CA", "unknown"] }, { region: ["NY"] }]) {
      const count = await countBoughtBefore({ categoryId, country: "USA", segment }, BUYER);
      expect({ segment, count }).toEqual({ segment, count: await boughtNow("USA", segment) });
    }
    expect(await boughtNow("USA", { region: ["unknown"] })).toBe(4);
  });
});
