// The fixed package table. Shared by the browser (display) and the server, which alone decides
// what a purchase costs and how many leads it delivers.
export const PACKAGE_IDS = ["starter", "standard", "premium"] as const;
export type PackageId = (typeof PACKAGE_IDS)[number];

export type FeatureObject = { included: boolean; text: string };

export type LeadPackage = {
  id: PackageId;
  name: string;
  title: string;
  subtitle: string;
  description: string;
  price: number;
  leads: number;
  leadCount: number;
  /** How the lead count is written on the site ('20,000+' for premium). */
  leadsLabel: string;
  pricePerLead: number;
  isPopular: boolean;
  features: string[];
  featureObjects: FeatureObject[];
  benefits: string[];
};

const BASE_FEATURES = [
  "Full name & job title",
  "Verified business email",
  "Phone number",
  "Company & location",
];

export const PACKAGES: readonly LeadPackage[] = [
  {
    id: "starter",
    name: "Starter",
    title: "Starter Package",
    subtitle: "Test a new market",
    description: "1,000 verified leads to validate a campaign before you scale it.",
    price: 10,
    leads: 1000,
    leadCount: 1000,
    leadsLabel: "1,000",
    pricePerLead: 0.01,
    isPopular: false,
    features: [...BASE_FEATURES, "CSV & Excel download"],
    featureObjects: [
      ...BASE_FEATURES.map((text) => ({ included: true, text })),
      { included: true, text: "CSV & Excel download" },
      { included: false, text: "Profile URL" },
      { included: false, text: "Industry Insights" },
    ],
    benefits: ["Instant download", "Free replacement of invalid leads"],
  },
  {
    id: "standard",
    name: "Standard",
    title: "Standard Package",
    subtitle: "Our most popular choice",
    description: "10,000 verified leads with profile links and basic company insights.",
    price: 100,
    leads: 10000,
    leadCount: 10000,
    leadsLabel: "10,000",
    pricePerLead: 0.01,
    isPopular: true,
    features: [...BASE_FEATURES, "Profile URL", "Basic industry insights", "CSV & Excel download"],
    featureObjects: [
      ...BASE_FEATURES.map((text) => ({ included: true, text })),
      { included: true, text: "CSV & Excel download" },
      { included: true, text: "Profile URL" },
      { included: true, text: "Basic Industry Insights" },
    ],
    benefits: ["Instant download", "Free replacement of invalid leads", "Industry and company size"],
  },
  {
    id: "premium",
    name: "Premium",
    title: "Premium Package",
    subtitle: "Full market coverage",
    description: "20,000+ verified leads with advanced insights on every contact and company.",
    price: 200,
    leads: 20000,
    leadCount: 20000,
    leadsLabel: "20,000+",
    pricePerLead: 0.01,
    isPopular: false,
    features: [
      ...BASE_FEATURES,
      "Profile URL",
      "Advanced industry insights",
      "Seniority, department & revenue",
      "CSV & Excel download",
    ],
    featureObjects: [
      ...BASE_FEATURES.map((text) => ({ included: true, text })),
      { included: true, text: "CSV & Excel download" },
      { included: true, text: "Profile URL" },
      { included: true, text: "Advanced Industry Insights" },
    ],
    benefits: [
      "Instant download",
      "Free replacement of invalid leads",
      "Seniority, department, website and revenue",
    ],
  },
];

export function getPackage(id: string | null | undefined): LeadPackage | undefined {
  return PACKAGES.find((pkg) => pkg.id === id);
}

export function isPackageId(value: unknown): value is PackageId {
  return typeof value === "string" && (PACKAGE_IDS as readonly string[]).includes(value);
}
