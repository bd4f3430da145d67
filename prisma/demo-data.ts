// Realistic, deterministic demo leads: the seed's data and the tests' factories. Leads belong to
// companies: a company has one domain (its website and every email), one city (every phone on its
// exchange, with the city's real area code), a size and a revenue that fit each other; a lead's
// title, seniority and department come from its category's profile (prisma/demo-profiles.ts).
// docs/product-rules.md ("Demo data") lists what the tests hold this to.
import type { Pool, PoolClient } from "pg";
import type { Location } from "../lib/location";
import { analyzeLeads, copyNewLeads, type LeadInput } from "../lib/leads/insert";
import type { EmailStatus } from "../lib/verification/verify-addresses";
import { pgTransaction } from "../lib/pg-transaction";
import {
  CONTACTS_BY_SIZE,
  GENERIC_PROFILE,
  PROFILES,
  REVENUE_BY_SIZE,
  SIZES,
  SIZE_WEIGHTS,
  UK_CITIES,
  USA_CITIES,
  type City,
  type Profile,
  type Role,
} from "./demo-profiles";

/** A demo category and how many leads it holds per country. */
export type DemoCategory = { title: string; description: string; usa: number; uk: number };

// Every category sells every package (20,000 leads at most) in the USA; half of them in the UK too.
export const DEMO_CATEGORIES: DemoCategory[] = [
  {
    title: "Marketing",
    description: "Marketing directors, CMOs, growth and brand managers at B2B and consumer companies.",
    usa: 25_000,
    uk: 21_000,
  },
  {
    title: "Software & SaaS",
    description: "Founders, CTOs, engineering and product leaders at software companies.",
    usa: 22_500,
    uk: 12_000,
  },
  {
    title: "Healthcare",
    description: "Practice owners, hospital administrators and healthcare operations managers.",
    usa: 21_500,
    uk: 20_400,
  },
  {
    title: "Finance",
    description: "CFOs, controllers, finance directors and investment professionals.",
    usa: 21_000,
    uk: 20_300,
  },
  {
    title: "Real Estate",
    description: "Brokers, agency owners, property managers and developers.",
    usa: 20_800,
    uk: 6_500,
  },
  {
    title: "E-commerce",
    description: "Online store owners, e-commerce managers and heads of digital retail.",
    usa: 20_600,
    uk: 20_200,
  },
  {
    title: "Human Resources",
    description: "HR directors, talent acquisition leads and people operations managers.",
    usa: 20_400,
    uk: 5_500,
  },
  {
    title: "Legal",
    description: "Managing partners, general counsel and legal operations leaders.",
    usa: 20_300,
    uk: 20_100,
  },
  {
    title: "Education",
    description: "School leaders, EdTech founders and university department heads.",
    usa: 20_200,
    uk: 4_000,
  },
  {
    title: "Construction",
    description: "Contractors, construction company owners and project directors.",
    usa: 20_100,
    uk: 3_000,
  },
];

const FIRST_NAMES = [
  "James",
  "Mary",
  "John",
  "Patricia",
  "Robert",
  "Jennifer",
  "Michael",
  "Linda",
  "William",
  "Elizabeth",
  "David",
  "Barbara",
  "Richard",
  "Susan",
  "Joseph",
  "Jessica",
  "Thomas",
  "Sarah",
  "Charles",
  "Karen",
  "Daniel",
  "Nancy",
  "Matthew",
  "Lisa",
  "Anthony",
  "Betty",
  "Mark",
  "Margaret",
  "Steven",
  "Sandra",
  "Paul",
  "Ashley",
  "Andrew",
  "Emily",
  "Joshua",
  "Donna",
  "Kevin",
  "Michelle",
  "Brian",
  "Olivia",
  "George",
  "Amelia",
  "Oliver",
  "Isla",
  "Harry",
  "Sophie",
  "Jack",
  "Grace",
  "Noah",
  "Chloe",
  "Ethan",
  "Hannah",
  "Ryan",
  "Laura",
  "Nathan",
  "Rachel",
  "Adam",
  "Megan",
  "Samuel",
  "Rebecca",
  "Priya",
  "Arjun",
  "Wei",
  "Mei",
  "Carlos",
  "Sofia",
  "Ahmed",
  "Fatima",
  "Luis",
  "Elena",
];
const LAST_NAMES = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Garcia",
  "Miller",
  "Davis",
  "Rodriguez",
  "Martinez",
  "Wilson",
  "Anderson",
  "Taylor",
  "Thomas",
  "Moore",
  "Jackson",
  "Martin",
  "Lee",
  "Thompson",
  "White",
  "Harris",
  "Clark",
  "Lewis",
  "Robinson",
  "Walker",
  "Young",
  "Allen",
  "King",
  "Wright",
  "Scott",
  "Green",
  "Baker",
  "Adams",
  "Nelson",
  "Hill",
  "Campbell",
  "Mitchell",
  "Roberts",
  "Carter",
  "Phillips",
  "Evans",
  "Turner",
  "Parker",
  "Collins",
  "Edwards",
  "Stewart",
  "Morris",
  "Murphy",
  "Cook",
  "Rogers",
  "Hughes",
  "Wood",
  "Walsh",
  "Patel",
  "Khan",
  "Bennett",
  "Shaw",
  "Hunt",
  "Palmer",
  "Fletcher",
  "Chen",
  "Nguyen",
  "Kim",
  "Singh",
  "Lopez",
  "Hernandez",
  "O'Brien",
  "MacDonald",
  "Reid",
  "Price",
];
const NAME_FIRST = [
  "North",
  "Blue",
  "Summit",
  "Bright",
  "Iron",
  "Silver",
  "Green",
  "Harbor",
  "Pioneer",
  "Apex",
  "Cedar",
  "Vertex",
  "Crescent",
  "Beacon",
  "Granite",
  "Maple",
  "Atlas",
  "Horizon",
  "Keystone",
  "Redwood",
  "Sterling",
  "Clear",
  "Oak",
  "Falcon",
  "Willow",
  "Aspen",
  "Birch",
  "Copper",
  "Eagle",
  "Lake",
  "River",
  "Sun",
  "Pine",
  "Elm",
  "Fox",
  "Hawk",
  "Meadow",
  "Ash",
  "Bay",
  "Coast",
  "Park",
  "Sky",
  "Spring",
  "Star",
  "West",
  "East",
  "High",
  "Castle",
  "King",
  "Bell",
];
const NAME_SECOND = [
  "field",
  "path",
  "stone",
  "bridge",
  "point",
  "wave",
  "line",
  "gate",
  "crest",
  "ridge",
  "wood",
  "peak",
  "light",
  "brook",
  "view",
  "side",
  "way",
  "ford",
  "mont",
  "well",
];

/** Small, fast, seeded PRNG (mulberry32) so demo data is the same on every machine. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const slugs = new Map<string, string>();

/** Lower-case letters and digits only; names repeat, so each is worked out once. */
function slug(value: string): string {
  let known = slugs.get(value);
  if (known === undefined) {
    known = value.toLowerCase().replace(/[^a-z0-9]+/g, "");
    slugs.set(value, known);
  }
  return known;
}

/** The profile of a category title; categories other than the demo ones get a generic one. */
export function profileFor(title: string): Profile {
  return PROFILES[title] ?? GENERIC_PROFILE;
}

/** Picks from weighted items with one random number. */
function weighted<T>(items: readonly T[], weightOf: (item: T) => number): (r: number) => T {
  const cumulative: number[] = [];
  let total = 0;
  for (const item of items) cumulative.push((total += weightOf(item)));
  return (r) => {
    const target = r * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle] > target) high = middle;
      else low = middle + 1;
    }
    return items[low];
  };
}

/** For each size band, a weighted pick among the profile's roles that exist at that size. */
function rolePickers(profile: Profile): ((r: number) => Role)[] {
  return SIZES.map((size, band) => {
    const fitting = profile.roles.filter((role) => role.min <= band && band <= role.max);
    if (fitting.length === 0) throw new Error(`No role for a ${size} company`);
    return weighted(fitting, (role) => role.weight);
  });
}

const pickUsaCity = weighted(USA_CITIES, (city) => city.weight);
const pickUkCity = weighted(UK_CITIES, (city) => city.weight);
const pickBand = weighted(
  SIZES.map((_, band) => band),
  (band) => SIZE_WEIGHTS[band],
);

type Company = {
  name: string;
  domain: string;
  band: number;
  revenue: string;
  industry: string;
  city: City;
  /** The phone number up to its last four digits: "+1 (312) 555-" or "+44 161 496 ". */
  exchange: string;
  /** How local parts are made: first.last, flast, firstl or first. */
  emailStyle: number;
};

function digits(next: () => number, count: number): string {
  let text = "";
  for (let i = 0; i < count; i++) text += Math.floor(next() * 10);
  return text;
}

/** A US central office code: first digit 2-9, never N11 or the fictional 555. */
function usExchange(next: () => number): string {
  for (;;) {
    const code = `${2 + Math.floor(next() * 8)}${digits(next, 2)}`;
    if (code.slice(1) !== "11" && code !== "555") return code;
  }
}

function ukExchange(city: City, next: () => number): string {
  const [head, tail] = city.ukLocal!;
  let local: string;
  if (city.city === "London") local = `${["3", "7", "8"][Math.floor(next() * 3)]}${digits(next, head - 1)}`;
  else if (city.city === "Cardiff") local = `20${digits(next, head - 2)}`;
  else if (city.city === "Belfast") local = `90${digits(next, head - 2)}`;
  else local = `${2 + Math.floor(next() * 8)}${digits(next, head - 1)}`;
  // The company's switchboard range: all but the last tail digits.
  return `${city.ukPrefix} ${local} ${digits(next, tail - 4)}`;
}

function makeCompany(name: string, country: Location, profile: Profile, next: () => number): Company {
  const band = pickBand(next());
  const city = country === "UK" ? pickUkCity(next()) : pickUsaCity(next());
  const revenues = REVENUE_BY_SIZE[band];
  const exchange =
    country === "UK"
      ? ukExchange(city, next)
      : `+1 (${city.areaCodes![Math.floor(next() * city.areaCodes!.length)]}) ${usExchange(next)}-`;
  return {
    name,
    domain: `${slug(name)}.${country === "UK" ? "co.uk" : "com"}`,
    band,
    revenue: revenues[Math.floor(next() * revenues.length)],
    industry: profile.industries[Math.floor(next() * profile.industries.length)],
    city,
    exchange,
    emailStyle: Math.floor(next() * 4),
  };
}

function localPart(style: number, first: string, last: string): string {
  const f = slug(first);
  const l = slug(last);
  if (style === 1) return `${f[0]}${l}`;
  if (style === 2) return `${f}${l[0]}`;
  if (style === 3) return f;
  return `${f}.${l}`;
}

const DAY_MS = 24 * 3600 * 1000;

export type LeadOptions = {
  seed?: number;
  /** The category's title: picks its profile (titles, industries, company names). */
  category?: string;
  country?: Location;
  now?: Date;
  /** Give the leads the statuses of checked data: 85% valid, 10% accept-all, 5% unknown. */
  statuses?: boolean;
};

// Twenty leads in a row: 17 valid, 2 accept-all, 1 unknown, spread over the twenty.
const STATUS_CYCLE: EmailStatus[] = Array.from({ length: 20 }, (_, i) =>
  i % 10 === 3 ? "accept_all" : i === 17 ? "unknown" : "valid",
);

// Where demo leads were collected: each company's contacts share one, picked by the company's walk
// (not the seeded draws, so every other generated value stays as it was).
const DEMO_SOURCES = ["Company websites", "Public professional profiles", "Partner: Acme Data Ltd"];

/**
 * `count` leads of one country (USA unless given) with unique emails, company by company, in
 * batches. About 88% were verified in the last 30 days, the rest up to 120 days ago.
 */
export function* leadBatches(
  count: number,
  options: LeadOptions = {},
  batchSize = 5000,
): Generator<LeadInput[]> {
  const next = random(options.seed ?? 1);
  const country: Location = options.country ?? "USA";
  const profile = profileFor(options.category ?? "");
  const roles = rolePickers(profile);
  const now = (options.now ?? new Date()).getTime();
  // Company names walk every combination in a seeded order, so no two share a name or a domain.
  const combinations = NAME_FIRST.length * NAME_SECOND.length * profile.kinds.length;
  const stride = 7919; // prime, and no combination count is a multiple of it
  let walked = Math.floor(next() * combinations);
  let made = 0;
  let batch: LeadInput[] = [];
  while (made < count) {
    walked = (walked + stride) % combinations;
    const kind = profile.kinds[walked % profile.kinds.length];
    const rest = Math.floor(walked / profile.kinds.length);
    const first = NAME_FIRST[rest % NAME_FIRST.length];
    const second = NAME_SECOND[Math.floor(rest / NAME_FIRST.length)];
    const company = makeCompany(`${first}${second} ${kind}`, country, profile, next);
    const [fewest, most] = CONTACTS_BY_SIZE[company.band];
    const contacts = Math.min(count - made, fewest + Math.floor(next() * (most - fewest + 1)));
    const used = new Set<string>();
    for (let i = 0; i < contacts; i++) {
      const firstName = FIRST_NAMES[Math.floor(next() * FIRST_NAMES.length)];
      const lastName = LAST_NAMES[Math.floor(next() * LAST_NAMES.length)];
      let local = localPart(company.emailStyle, firstName, lastName);
      if (used.has(local)) local = localPart(0, firstName, lastName);
      for (let n = 2; used.has(local); n++) local = `${localPart(0, firstName, lastName)}${n}`;
      used.add(local);
      const job = roles[company.band](next());
      const recent = next() < 0.88;
      const age = recent ? next() * 29 * DAY_MS : (30 + next() * 90) * DAY_MS;
      batch.push({
        firstName,
        lastName,
        jobTitle: job.title,
        seniority: job.seniority,
        department: job.department,
        company: company.name,
        companyWebsite: `https://www.${company.domain}`,
        companySize: SIZES[company.band],
        companyRevenue: company.revenue,
        industry: company.industry,
        email: `${local}@${company.domain}`,
        phone: `${company.exchange}${digits(next, 4)}`,
        city: company.city.city,
        state: company.city.state,
        country,
        profileUrl: `https://www.linkedin.com/in/${slug(firstName)}-${slug(lastName)}-${Math.floor(next() * 0xffffff).toString(16)}`,
        verifiedAt: new Date(now - Math.floor(age)),
        source: DEMO_SOURCES[walked % DEMO_SOURCES.length],
        // Fictional people: seeded as notified, so the demo sells UK rows from its first start.
        ...(country === "UK" ? { noticeStatus: "sent" as const } : {}),
        ...(options.statuses ? { emailStatus: STATUS_CYCLE[(made + i) % STATUS_CYCLE.length] } : {}),
      });
      if (batch.length === batchSize) {
        yield batch;
        batch = [];
      }
    }
    made += contacts;
  }
  if (batch.length > 0) yield batch;
}

/** `count` leads of one country (USA unless given); see leadBatches. */
export function makeLeads(count: number, options: LeadOptions = {}): LeadInput[] {
  return [...leadBatches(count, options)].flat();
}

/** How many leads a category gets: a number means all in the USA. */
export type LeadMix = number | { usa: number; uk: number };

/** Creates a category and fills it with generated leads; returns its id. */
export async function createCategoryWithLeads(
  pool: Pool,
  category: { title: string; description?: string },
  leads: LeadMix,
  seed = 1,
): Promise<string> {
  const id = await pgTransaction(pool, (client) => createFilled(client, category, leads, seed));
  await analyzeLeads(pool);
  return id;
}

async function createFilled(
  client: PoolClient,
  category: { title: string; description?: string },
  leads: LeadMix,
  seed: number,
  statuses = false,
): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    "INSERT INTO categories (title, description) VALUES ($1, $2) RETURNING id",
    [category.title, category.description ?? ""],
  );
  const { usa, uk } = typeof leads === "number" ? { usa: leads, uk: 0 } : leads;
  function* both(): Generator<LeadInput[]> {
    yield* leadBatches(usa, { seed, category: category.title, country: "USA", statuses });
    yield* leadBatches(uk, { seed: seed + 1000, category: category.title, country: "UK", statuses });
  }
  // The generator makes each email once, so the rows can be copied straight in.
  if (usa + uk > 0) await copyNewLeads(client, rows[0].id, both());
  return rows[0].id;
}

/**
 * The embedded store's first-start data (and the browser tests'), in one transaction. Into an
 * empty leads table the rows load without its secondary indexes, which are then rebuilt from
 * their own definitions, sorted once, as a database restore does: a third of the time of updating
 * them row by row. (The table is locked meanwhile; a seed runs before the store serves.)
 */
export async function seedDemoData(pool: Pool): Promise<{ categories: number; leads: number }> {
  await pgTransaction(pool, async (client) => {
    const { rows: empty } = await client.query("SELECT 1 FROM leads LIMIT 1");
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
       WHERE schemaname = current_schema() AND tablename = 'leads' AND indexname <> 'leads_pkey'`,
    );
    const rebuilt = empty.length === 0 ? indexes : [];
    for (const index of rebuilt) await client.query(`DROP INDEX "${index.name}"`);
    for (const [index, category] of DEMO_CATEGORIES.entries()) {
      // The demo's leads look checked: 85% valid, 10% accept-all, 5% unknown, none invalid.
      await createFilled(client, category, category, index + 1, true);
    }
    for (const index of rebuilt) await client.query(index.definition);
  });
  await analyzeLeads(pool);
  const total = DEMO_CATEGORIES.reduce((sum, category) => sum + category.usa + category.uk, 0);
  return { categories: DEMO_CATEGORIES.length, leads: total };
}
