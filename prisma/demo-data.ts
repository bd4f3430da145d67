// Realistic, deterministic demo leads: the seed's data and the tests' factories.
import type { Pool } from "pg";
import { insertLeads, type Country, type LeadInput } from "../lib/leads/insert";

export type DemoCategory = { title: string; description: string; leads: number };

export const DEMO_CATEGORIES: DemoCategory[] = [
  {
    title: "Marketing",
    description: "Marketing directors, CMOs, growth and brand managers at B2B and consumer companies.",
    leads: 25000,
  },
  {
    title: "Software & SaaS",
    description: "Founders, CTOs, engineering and product leaders at software companies.",
    leads: 12000,
  },
  {
    title: "Healthcare",
    description: "Practice owners, hospital administrators and healthcare operations managers.",
    leads: 9000,
  },
  {
    title: "Finance",
    description: "CFOs, controllers, finance directors and investment professionals.",
    leads: 9000,
  },
  {
    title: "Real Estate",
    description: "Brokers, agency owners, property managers and developers.",
    leads: 6000,
  },
  {
    title: "E-commerce",
    description: "Online store owners, e-commerce managers and heads of digital retail.",
    leads: 6000,
  },
  {
    title: "Human Resources",
    description: "HR directors, talent acquisition leads and people operations managers.",
    leads: 5000,
  },
  {
    title: "Legal",
    description: "Managing partners, general counsel and legal operations leaders.",
    leads: 3000,
  },
  {
    title: "Education",
    description: "School leaders, EdTech founders and university department heads.",
    leads: 3000,
  },
  {
    title: "Construction",
    description: "Contractors, construction company owners and project directors.",
    leads: 2500,
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
];
const COMPANY_FIRST = [
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
];
const COMPANY_SECOND = [
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
  "works",
  "peak",
  "light",
  "brook",
  "view",
  "star",
];
const COMPANY_SUFFIX = [
  "Group",
  "Partners",
  "Labs",
  "Solutions",
  "Holdings",
  "Consulting",
  "Systems",
  "Co",
  "Agency",
  "Technologies",
];
const USA_CITIES: [string, string][] = [
  ["New York", "NY"],
  ["Los Angeles", "CA"],
  ["Chicago", "IL"],
  ["Houston", "TX"],
  ["Phoenix", "AZ"],
  ["Philadelphia", "PA"],
  ["San Antonio", "TX"],
  ["San Diego", "CA"],
  ["Dallas", "TX"],
  ["Austin", "TX"],
  ["San Francisco", "CA"],
  ["Seattle", "WA"],
  ["Denver", "CO"],
  ["Boston", "MA"],
  ["Atlanta", "GA"],
  ["Miami", "FL"],
  ["Nashville", "TN"],
  ["Portland", "OR"],
];
const UK_CITIES: [string, string][] = [
  ["London", "England"],
  ["Manchester", "England"],
  ["Birmingham", "England"],
  ["Leeds", "England"],
  ["Bristol", "England"],
  ["Liverpool", "England"],
  ["Edinburgh", "Scotland"],
  ["Glasgow", "Scotland"],
  ["Cardiff", "Wales"],
  ["Belfast", "Northern Ireland"],
];
const SENIORITY_TITLES: [string, string][] = [
  ["C-Level", "Chief {d} Officer"],
  ["VP", "VP of {d}"],
  ["Director", "{d} Director"],
  ["Head", "Head of {d}"],
  ["Manager", "{d} Manager"],
  ["Senior", "Senior {d} Specialist"],
];
const DEPARTMENTS = [
  "Marketing",
  "Sales",
  "Operations",
  "Finance",
  "Technology",
  "People",
  "Product",
  "Growth",
];
const SIZES = ["1-10", "11-50", "51-200", "201-500", "501-1000", "1001-5000", "5000+"];
const REVENUES = ["<$1M", "$1M-$10M", "$10M-$50M", "$50M-$100M", "$100M-$500M", "$500M+"];

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

function slug(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]+/g, "");
}

export type LeadOptions = { seed?: number; industry?: string; country?: Country; now?: Date };

/** `count` leads with unique emails; 70% USA, 30% UK unless a country is given. */
export function makeLeads(count: number, options: LeadOptions = {}): LeadInput[] {
  const next = random(options.seed ?? 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const now = (options.now ?? new Date()).getTime();
  const used = new Set<string>();
  const leads: LeadInput[] = [];
  for (let i = 0; i < count; i++) {
    const firstName = pick(FIRST_NAMES);
    const lastName = pick(LAST_NAMES);
    const company = `${pick(COMPANY_FIRST)}${pick(COMPANY_SECOND)} ${pick(COMPANY_SUFFIX)}`;
    const country: Country = options.country ?? (next() < 0.7 ? "USA" : "UK");
    const domain = `${slug(company)}.${country === "UK" ? "co.uk" : "com"}`;
    let local = `${slug(firstName)}.${slug(lastName)}`;
    for (let n = 2; used.has(`${local}@${domain}`); n++) local = `${slug(firstName)}.${slug(lastName)}${n}`;
    used.add(`${local}@${domain}`);
    const [seniority, titleTemplate] = pick(SENIORITY_TITLES);
    const department = pick(DEPARTMENTS);
    const [city, state] = pick(country === "UK" ? UK_CITIES : USA_CITIES);
    const digits = () => String(Math.floor(next() * 10));
    const phone =
      country === "UK"
        ? `+44 20 ${Array.from({ length: 4 }, digits).join("")} ${Array.from({ length: 4 }, digits).join("")}`
        : `+1 (${200 + Math.floor(next() * 700)}) ${200 + Math.floor(next() * 700)}-${Array.from({ length: 4 }, digits).join("")}`;
    leads.push({
      firstName,
      lastName,
      jobTitle: titleTemplate.replace("{d}", department),
      seniority,
      department,
      company,
      companyWebsite: `https://www.${domain}`,
      companySize: pick(SIZES),
      companyRevenue: pick(REVENUES),
      industry: options.industry ?? "Business Services",
      email: `${local}@${domain}`,
      phone,
      city,
      state,
      country,
      profileUrl: `https://www.linkedin.com/in/${slug(firstName)}-${slug(lastName)}-${Math.floor(next() * 0xffffff).toString(16)}`,
      verifiedAt: new Date(now - Math.floor(next() * 60 * 24 * 3600 * 1000)),
    });
  }
  return leads;
}

/** Creates a category and fills it with `leads` generated leads; returns its id. */
export async function createCategoryWithLeads(
  pool: Pool,
  category: { title: string; description?: string },
  leads: number,
  seed = 1,
): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    "INSERT INTO categories (title, description) VALUES ($1, $2) RETURNING id",
    [category.title, category.description ?? ""],
  );
  const id = rows[0].id;
  if (leads > 0) await insertLeads(pool, id, makeLeads(leads, { seed, industry: category.title }));
  return id;
}

/** The embedded store's first-start data. */
export async function seedDemoData(pool: Pool): Promise<{ categories: number; leads: number }> {
  let total = 0;
  for (const [index, category] of DEMO_CATEGORIES.entries()) {
    await createCategoryWithLeads(pool, category, category.leads, index + 1);
    total += category.leads;
  }
  return { categories: DEMO_CATEGORIES.length, leads: total };
}
