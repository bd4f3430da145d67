// Facts about the business shown across the public site (header, footer, legal pages, metadata).
export const SITE_NAME = "LeadMarket";
export const SITE_TAGLINE = "Verified B2B Leads for USA & UK";
export const SITE_DESCRIPTION =
  "Buy verified B2B lead lists of decision makers in the USA and UK: 93% accuracy, weekly updates, GDPR compliant, instant CSV & Excel download.";

export const CONTACT_EMAIL = "support@leadmarket.io";
export const PRIVACY_EMAIL = "privacy@leadmarket.io";
export const POSTAL_ADDRESS = [
  "LeadMarket Inc.",
  "548 Market Street, Suite 200",
  "San Francisco, CA 94104",
  "United States",
];

/** The product's header anchors, in order. */
export const NAV_LINKS = [
  { hash: "how-it-works", label: "How It Works" },
  { hash: "lead-categories", label: "Lead Categories" },
  { hash: "packages", label: "Packages" },
  { hash: "custom-request", label: "Custom Request" },
] as const;

export const LEGAL_LINKS = [
  { href: "/privacy-policy", label: "Privacy Policy" },
  { href: "/terms-of-service", label: "Terms of Service" },
  { href: "/cookie-policy", label: "Cookie Policy" },
] as const;

/** The footer's resources; those without a page behind them yet link nowhere ("#"). */
export const RESOURCE_LINKS = [
  { label: "Blog", href: "#" },
  { label: "Lead Generation Guide", href: "#" },
  { label: "Case Studies", href: "#" },
  { label: "FAQ", href: "#" },
  { label: "API Documentation", href: "/docs/api" },
] as const;

export const LEGAL_LAST_UPDATED = "May 22, 2023";
