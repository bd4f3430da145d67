import { z } from "zod";
import type { EmailQuality } from "@/lib/email-quality";
import { emailAddress, hasNoNul, NUL_MESSAGE } from "@/lib/schemas/common";

// Admin back-office schemas and answer shapes, shared by the route handlers, the forms and the
// client hooks (docs/product-rules.md).

export const MIN_PASSWORD_LENGTH = 6;
// bcrypt only looks at the first 72 bytes; refusing longer passwords avoids a false sense of strength.
const MAX_PASSWORD_BYTES = 72;

// A password of spaces alone is no password: refused before any comparison or hashing.
const notBlank = (value: string) => value.trim().length > 0;

export const loginSchema = z.object({
  email: emailAddress,
  password: z.string().max(200).refine(notBlank, "Password is required"),
});

export const changePasswordSchema = z.object({
  currentPassword: z.string().max(200).refine(notBlank, "Current password is required"),
  newPassword: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `New password must be at least ${MIN_PASSWORD_LENGTH} characters long`)
    .refine(notBlank, "New password must not be only spaces")
    .refine((value) => new TextEncoder().encode(value).length <= MAX_PASSWORD_BYTES, {
      message: `New password must be at most ${MAX_PASSWORD_BYTES} bytes long`,
    }),
});

// The seller's identity (docs/product-rules.md, "UK compliance"). Each field may be cleared with
// "" except that a value given must be well formed; spaces inside the numbers are dropped.
const sellerText = (label: string, max: number) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters`).refine(hasNoNul, NUL_MESSAGE);
const compact = (value: string) => value.replace(/\s+/g, "").toUpperCase();
// The ICO's registration numbers: "Z" and seven characters, e.g. Z1234567 or ZA123456.
const ICO_NUMBER = /^Z[A-Z0-9]\d{6}$/;
// A UK VAT number: GB and 9 or 12 digits, or GBGD/GBHA and 3 digits (government, health).
const VAT_NUMBER = /^GB(?:\d{9}|\d{12}|GD\d{3}|HA\d{3})$/;

export const sellerIdentityFields = {
  sellerLegalName: sellerText("Legal name", 200),
  sellerAddress: sellerText("Postal address", 500),
  sellerIcoNumber: z
    .string()
    .max(40, "ICO registration number is too long")
    .transform(compact)
    .refine(
      (value) => value === "" || ICO_NUMBER.test(value),
      "Enter the ICO registration number, e.g. ZA123456",
    ),
  sellerPrivacyEmail: z.union([z.literal(""), emailAddress.transform((email) => email.toLowerCase())]),
  sellerVatNumber: z
    .string()
    .max(40, "VAT number is too long")
    .transform(compact)
    .transform((value) => (value === "" || value.startsWith("GB") ? value : `GB${value}`))
    .refine((value) => value === "" || VAT_NUMBER.test(value), "Enter a UK VAT number, e.g. GB123456789"),
};
export type SellerIdentity = { [K in keyof typeof sellerIdentityFields]: string };

/** The fields UK rows need before they may be sold (the VAT number is optional), with their labels. */
export const SELLER_REQUIRED: { field: keyof SellerIdentity; label: string }[] = [
  { field: "sellerLegalName", label: "Legal name" },
  { field: "sellerAddress", label: "Postal address" },
  { field: "sellerIcoNumber", label: "ICO registration number" },
  { field: "sellerPrivacyEmail", label: "Privacy contact email" },
];

/** The VAT rate invoices apply (docs/product-rules.md, "Invoices"): 0 to 100 percent, 2 decimals. */
export const vatRatePercent = z
  .number("VAT rate must be a number")
  .min(0, "VAT rate must be between 0 and 100")
  .max(100, "VAT rate must be between 0 and 100")
  // Within float error of a whole number of hundredths: the column keeps 2 decimals.
  .refine(
    (value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6,
    "VAT rate has at most 2 decimals",
  );

export const settingsUpdateSchema = z
  .object({
    ...sellerIdentityFields,
    vatRatePercent,
    email: emailAddress,
    // An empty value clears it: notifications then go to the admin email.
    notificationEmail: z.union([z.literal(""), emailAddress]),
    nowPaymentsApiKey: z.string().trim().min(1, "API key must not be empty").max(500),
    emailVerifierApiKey: z.string().trim().min(1, "API key must not be empty").max(500),
    autoRefreshDashboard: z.boolean(),
    enableNotifications: z.boolean(),
    privacyNotices: z.boolean(),
  })
  .partial()
  .strict();
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

export const categoryCreateSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, "Title is required")
    .max(120, "Title must be at most 120 characters")
    .refine(hasNoNul, NUL_MESSAGE),
  description: z
    .string()
    .trim()
    .max(2000, "Description must be at most 2000 characters")
    .refine(hasNoNul, NUL_MESSAGE)
    .optional(),
});

export const categoryUpdateSchema = categoryCreateSchema
  .partial()
  .refine((value) => value.title !== undefined || value.description !== undefined, {
    message: "Nothing to update",
  });

export const requestStatusSchema = z.object({
  status: z.enum(["in_progress", "completed"], "Status must be in_progress or completed"),
});

export const attachmentParams = z.object({
  id: z.uuid("Invalid id"),
  attachmentId: z.uuid("Invalid attachment id"),
});

export const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(100),
  order: z.enum(["asc", "desc"]).default("desc"),
});
export type ListQuery = z.infer<typeof listQuery>;

/** The Sales tab's status filter: paid, open checkouts, or the ways a checkout ends unpaid. */
export const SALE_FILTERS = ["confirmed", "pending", "expired", "cancelled", "failed"] as const;
export type SaleFilter = (typeof SALE_FILTERS)[number];

export const salesListQuery = listQuery.extend({
  status: z.enum(SALE_FILTERS, "Status must be confirmed, pending, expired, cancelled or failed").optional(),
});
export type SalesListQuery = z.infer<typeof salesListQuery>;

// ---- Answer shapes ----

export type SaleDto = {
  _id: string;
  paymentId: string;
  categoryId: string;
  leadTitle: string;
  /** The segment bought (describeSegment in lib/segments); "" for the whole list. */
  segment: string;
  /** Which email statuses the order accepts (lib/email-quality.ts). */
  emailQuality: EmailQuality;
  packageType: "starter" | "standard" | "premium";
  leadCount: number;
  amount: number;
  /** 'confirmed' once paid, otherwise the provider status as last stored ('pending' by default). */
  status: string;
  createdAt: string;
  paidAt: string | null;
};

/** One order in full for the admin (the download key is never sent). */
export type SaleDetailDto = SaleDto & {
  buyerEmail: string | null;
  invoiceId: string | null;
  providerPaymentId: string | null;
  payCurrency: string | null;
  actuallyPaid: number | null;
  actuallyPaidFiat: number | null;
  downloadExpiresAt: string | null;
  receiptSentAt: string | null;
  checkedAt: string | null;
  lastError: string | null;
  /** What allocation left out, as the buyer is told ("" for nothing). */
  excluded: string;
  history: { status: string; note: string; at: string }[];
};

export type RequestStatus = "pending" | "in_progress" | "completed";

export type AttachmentDto = { _id: string; fileName: string; contentType: string; size: number };

export type RequestDto = {
  _id: string;
  name: string;
  email: string;
  industry: string;
  role: string;
  platform: string;
  message: string;
  status: RequestStatus;
  createdAt: string;
  attachments: AttachmentDto[];
};

export type StatsDto = {
  totalRevenue: number;
  revenueTrend: number;
  totalSales: number;
  confirmedSales: number;
  pendingSales: number;
  leadsSold: number;
  averagePricePerLead: number;
  /** Accepted replacement claims, and their share of paid orders in percent. */
  replacementClaims: number;
  replacementRate: number;
  /** Addresses our checks found invalid this calendar month (UTC), re-checks and claims alike. */
  invalidFoundThisMonth: number;
  totalRequests: number;
  pendingRequests: number;
  inProgressRequests: number;
  completedRequests: number;
  totalCategories: number;
  totalLeads: number;
  revenueByDay: { date: string; revenue: number; sales: number }[];
  /** What the admin must still do before UK rows may be sold (docs/product-rules.md, "UK compliance"). */
  ukCompliance: UkComplianceDto;
};

export type UkComplianceDto = {
  /** Labels of the seller identity's required fields still empty in Settings. */
  sellerMissing: string[];
  /** The registers not loaded yet ("TPS", "CTPS"): UK phones stay unscreened until both are. */
  registersMissing: string[];
  /** The older register's file date, and the last day a screening by it holds (28 days on). */
  screenedAt: string | null;
  screeningExpiresOn: string | null;
  /** Set from 3 days before the screening runs out, and once it has. */
  screeningWarning: string | null;
  /** Article 14 notices: on or off, sent and opted out this calendar month (UTC), leads waiting. */
  notices: { enabled: boolean; sentThisMonth: number; waiting: number; optedOutThisMonth: number };
};

export type SettingsDto = SellerIdentity & {
  /** The VAT rate invoices apply, in percent (prices include VAT). */
  vatRatePercent: number;
  email: string;
  notificationEmail: string;
  /** Masked (last 4 characters at most), or "" when no key is configured. */
  nowPaymentsApiKey: string;
  /** Where the key in use comes from. */
  nowPaymentsApiKeySource: "settings" | "environment" | "none";
  /** The verification provider's key (ZeroBounce), masked like the payment key, or "". */
  emailVerifierApiKey: string;
  emailVerifierApiKeySource: "settings" | "environment" | "none";
  autoRefreshDashboard: boolean;
  enableNotifications: boolean;
  /** Article 14 notices to UK leads' people; off: UK leads sell without them. */
  privacyNotices: boolean;
};

/**
 * Why an import refuses a row: the address checks (docs/product-rules.md, "Verification"), a cell
 * it cannot read, or what ended the file early (a malformed spot, the size limit).
 */
export const IMPORT_REFUSALS = [
  "missing_email",
  "syntax",
  "disposable",
  "no_mail_domain",
  "null_mx",
  "email_status",
  "country",
  "verified_at",
  "collected_at",
  "value_too_long",
  "malformed_csv",
  "file_too_large",
] as const;
export type ImportRefusal = (typeof IMPORT_REFUSALS)[number];

/** The verification provider as Settings shows it; `credits` is null when it could not be asked. */
export type VerificationStatusDto = {
  configured: boolean;
  source: "settings" | "environment" | "none";
  credits: number | null;
  creditsError: string | null;
  sentThisMonth: number;
  monthlyLimit: number | null;
  lastError: string | null;
  lastErrorAt: string | null;
};

export type ImportReport = {
  imported: number;
  duplicates: number;
  /** Rows skipped because the person asked to be erased (their email is on the suppression list). */
  suppressed: number;
  /** The first invalid rows (at most 1000), in line order, with their line numbers in the file. */
  invalid: { line: number; reason: string }[];
  invalidCount: number;
  /** The invalid rows (and what ended the file early) per reason; they add up to invalidCount. */
  reasons: Record<ImportRefusal, number>;
  /** Imported leads per segment facet that could not be mapped to its vocabulary (`unknown`). */
  unknownFacets: Record<"region" | "seniority" | "department" | "size" | "revenue", number>;
  /**
   * The import's source, stored for rows without a Source cell of their own; null when none was
   * given (an API import without the field): such rows are stored as "Not recorded".
   */
  source: string | null;
};

/** Where an import's leads came from (docs/product-rules.md, "UK compliance"). */
export const MAX_SOURCE_LENGTH = 200;
export const importSource = z
  .string()
  .trim()
  .min(1, "Say where these leads came from")
  .max(MAX_SOURCE_LENGTH, `At most ${MAX_SOURCE_LENGTH} characters`);

/** A category's leads due for a re-check, and the admin's "Re-check now" of it (null: never asked). */
export type RecheckOverview = {
  categoryId: string;
  due: number;
  run: { requestedAt: string; total: number; checked: number; finishedAt: string | null } | null;
};

export const claimParams = z.object({
  id: z.uuid("Invalid id"),
  claimId: z.string().regex(/^[1-9][0-9]{0,17}$/, "Invalid claim id"),
});

export const quarantineClaimsQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type QuarantineClaimsQuery = z.infer<typeof quarantineClaimsQuery>;

/** One reported lead of a claim under review, with the verdict of the claim's check. */
export type ReviewedLeadDto = {
  leadId: string;
  email: string;
  /** invalid: found invalid; valid: confirmed deliverable; unconfirmed: counted on the buyer's word. */
  verdict: "invalid" | "valid" | "unconfirmed";
  replaced: boolean;
  held: boolean;
  /** Reported by buyers of two or more orders: awaiting the admin, still on sale. */
  flagged: boolean;
  /** The lead's status now. */
  emailStatus: "valid" | "accept_all" | "unknown" | "invalid";
  /** Different orders whose buyers reported the lead. */
  reportedByOrders: number;
};

/** A category's leads awaiting the admin: flagged (still on sale), and rows held under the 20% cap. */
export type QuarantineCount = { categoryId: string; flagged: number; held: number };

/** An accepted replacement claim with flagged or held leads, for the admin's review. */
export type QuarantineClaimDto = {
  claimId: string;
  orderId: string;
  paymentId: string;
  /** Masked, as in the other lists of people (the order's detail shows it in full). */
  buyerEmail: string;
  packageType: "starter" | "standard" | "premium";
  leadCount: number;
  claimedAt: string;
  reported: number;
  counted: number;
  replaced: number;
  invalidConfirmed: number;
  verifiedDeliverable: number;
  /** The claim's rows held under the 20% cap, awaiting the admin's decision. */
  heldForReview: number;
  /** The claim's reported leads flagged now; `leads` lists the first ones (held ones too). */
  flagged: number;
  leads: ReviewedLeadDto[];
};

// ---- UK phone registers (docs/product-rules.md, "UK compliance") ----

export const PHONE_REGISTERS = ["tps", "ctps"] as const;
export type RegisterName = (typeof PHONE_REGISTERS)[number];

const tomorrow = () => new Date(Date.now() + 24 * 3600 * 1000).toISOString().slice(0, 10);

/** The text fields sent before a register's file (multipart). */
export const registerUploadSchema = z.object({
  register: z.enum(PHONE_REGISTERS, "Register must be tps or ctps"),
  // The register's own date (the TPS service dates its files); a day ahead of UTC is allowed.
  fileDate: z.iso
    .date("File date must be a date (YYYY-MM-DD)")
    .refine((value) => value <= tomorrow(), "File date must not be in the future")
    .refine((value) => value >= "2000-01-01", "File date is too old"),
});
export type RegisterUpload = z.infer<typeof registerUploadSchema>;

export type RegisterReport = {
  register: RegisterName;
  fileDate: string;
  fileName: string;
  /** Non-blank lines read (a header line included). */
  lines: number;
  loaded: number;
  rejected: number;
  /** The first refused lines (at most 100), with their line numbers. */
  rejectedLines: { line: number; text: string }[];
};

/** A register upload's answer: the load, and the screening it started (null until both registers are loaded). */
export type RegisterLoadDto = RegisterReport & {
  screening: { screenedAt: string; screened: number } | null;
};

export type PhoneRegisterDto = {
  register: RegisterName;
  fileDate: string;
  fileName: string;
  numbers: number;
  rejected: number;
  loadedAt: string;
};
