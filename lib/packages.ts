// Relative: next.config.ts reads this file, and its loader resolves no "@/" path from here.
import { DELIVERED_FIELDS, LEAD_FIELDS, type LeadColumn } from "./leads/fields";

// The fixed package table. Shared by the browser (display) and the server, which alone decides
// what a purchase costs and how many leads it delivers.
export const PACKAGE_IDS = ["starter", "standard", "premium"] as const;
export type PackageId = (typeof PACKAGE_IDS)[number];

export type FeatureObject = { included: boolean; text: string };

/** A delivered column: the lead field (its SQL name) and the header the download gives it. */
export type Column = { key: string; header: string };

const HEADERS = Object.fromEntries(
  [...LEAD_FIELDS, ...DELIVERED_FIELDS].map((field) => [field.column, field.header]),
) as Record<LeadColumn, string>;
const columns = (...keys: LeadColumn[]): Column[] => keys.map((key) => ({ key, header: HEADERS[key] }));

const STARTER_COLUMNS = columns(
  "first_name",
  "last_name",
  "job_title",
  "company",
  "email",
  "email_status",
  "phone",
  "phone_status",
  "phone_screened_at",
  "city",
  "state",
  "country",
);
const STANDARD_COLUMNS = [...STARTER_COLUMNS, ...columns("profile_url", "industry", "company_size")];
const PREMIUM_COLUMNS = [
  ...STANDARD_COLUMNS,
  ...columns("seniority", "department", "company_website", "company_revenue", "verified_at"),
];
// Every file ends with where and when each lead was collected (docs/product-rules.md, "UK compliance").
const PROVENANCE_COLUMNS = columns("source", "collected_at");

/** What each package's download holds, in file order. */
export const PACKAGE_COLUMNS: Record<PackageId, Column[]> = {
  starter: [...STARTER_COLUMNS, ...PROVENANCE_COLUMNS],
  standard: [...STANDARD_COLUMNS, ...PROVENANCE_COLUMNS],
  premium: [...PREMIUM_COLUMNS, ...PROVENANCE_COLUMNS],
};

// The feature list is read off the columns, so a card can never promise a field the file lacks.
const FEATURES: { text: string; columns: string[] }[] = [
  { text: "Full name & job title", columns: ["first_name", "last_name", "job_title"] },
  { text: "Verified business email", columns: ["email"] },
  { text: "Phone number", columns: ["phone"] },
  { text: "Company & location", columns: ["company", "city", "state", "country"] },
  { text: "CSV & Excel download", columns: [] },
  { text: "Profile URL", columns: ["profile_url"] },
];
const BASIC_INSIGHTS = ["industry", "company_size"];
const ADVANCED_INSIGHTS = [...BASIC_INSIGHTS, "company_website", "company_revenue"];
const PEOPLE_DETAILS = {
  text: "Seniority, department & revenue",
  columns: ["seniority", "department", "company_revenue"],
};

function featureObjects(columns: Column[]): FeatureObject[] {
  const keys = new Set(columns.map((column) => column.key));
  const has = (wanted: string[]) => wanted.every((key) => keys.has(key));
  const insights = has(ADVANCED_INSIGHTS)
    ? { included: true, text: "Advanced Industry Insights" }
    : has(BASIC_INSIGHTS)
      ? { included: true, text: "Basic Industry Insights" }
      : { included: false, text: "Industry Insights" };
  return [
    ...FEATURES.map(({ text, columns: wanted }) => ({ included: has(wanted), text })),
    insights,
    { included: has(PEOPLE_DETAILS.columns), text: PEOPLE_DETAILS.text },
  ];
}

export type LeadPackage = {
  id: PackageId;
  name: string;
  title: string;
  subtitle: string;
  description: string;
  price: number;
  leadCount: number;
  /** How the lead count is written on the site ('20,000+' for premium). */
  leadsLabel: string;
  pricePerLead: number;
  isPopular: boolean;
  featureObjects: FeatureObject[];
};

export const PACKAGES: readonly LeadPackage[] = [
  {
    id: "starter",
    name: "Starter",
    title: "Starter Package",
    subtitle: "Test a new market",
    description: "1,000 verified leads to validate a campaign before you scale it.",
    price: 10,
    leadCount: 1000,
    leadsLabel: "1,000",
    pricePerLead: 0.01,
    isPopular: false,
    featureObjects: featureObjects(STARTER_COLUMNS),
  },
  {
    id: "standard",
    name: "Standard",
    title: "Standard Package",
    subtitle: "Our most popular choice",
    description: "10,000 verified leads with profile links and basic company insights.",
    price: 100,
    leadCount: 10000,
    leadsLabel: "10,000",
    pricePerLead: 0.01,
    isPopular: true,
    featureObjects: featureObjects(STANDARD_COLUMNS),
  },
  {
    id: "premium",
    name: "Premium",
    title: "Premium Package",
    subtitle: "Full market coverage",
    description: "20,000+ verified leads with advanced insights on every contact and company.",
    price: 200,
    leadCount: 20000,
    leadsLabel: "20,000+",
    pricePerLead: 0.01,
    isPopular: false,
    featureObjects: featureObjects(PREMIUM_COLUMNS),
  },
];

export function getPackage(id: string | null | undefined): LeadPackage | undefined {
  return PACKAGES.find((pkg) => pkg.id === id);
}

export function isPackageId(value: unknown): value is PackageId {
  return typeof value === "string" && (PACKAGE_IDS as readonly string[]).includes(value);
}
