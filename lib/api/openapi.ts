import "server-only";
import { z } from "zod";
import { CONTENT_TYPES } from "@/lib/content-types";
import type { LeadPreview, PreviewPage } from "@/lib/leads/previews";
import type { DownloadFormat } from "@/lib/schemas/formats";
import { PACKAGE_IDS } from "@/lib/packages";
import { providerPaymentSchema } from "@/lib/payments/provider";
import type { CategoryDto } from "@/lib/schemas/category";
import { orderKeyParams, orderLookupBody, replacementBody } from "@/lib/schemas/orders";
import type { OrderOptOuts, OrderSummary, ReplacementAnswer } from "@/lib/schemas/orders";
import { invoiceDetailsBody, type InvoiceSummary } from "@/lib/schemas/invoice";
import { pagination, uuidParams } from "@/lib/schemas/common";
import { customRequestSchema, type CustomRequestCreated } from "@/lib/schemas/custom-request";
import { leadFilterQuery, leadIdParams } from "@/lib/schemas/leads";
import {
  createPaymentAnswer,
  createPaymentBody,
  downloadQuery,
  paymentIdParams,
  paymentStatusAnswer,
  paymentStatusQuery,
  testPaymentForm,
} from "@/lib/schemas/payment";
import {
  privacyConfirmBody,
  privacyRequestBody,
  type NoticeOptOutAnswer,
  type PrivacyConfirmAnswer,
} from "@/lib/schemas/privacy";
import {
  listAvailabilityQuery,
  listIdParams,
  type ListAvailability,
  type SuppressionListAnswer,
} from "@/lib/schemas/suppression";
import type { SegmentCounts } from "@/lib/segments/counts";
import { segmentCountsQuery } from "@/lib/schemas/category-segment";
import { EMAIL_QUALITIES } from "@/lib/email-quality";
import { FACETS, VOCABULARIES } from "@/lib/segments/vocabularies";

// The public API's OpenAPI 3.1 document (GET /api/openapi.json, rendered at /docs/api). Inputs are
// the zod schemas the handlers parse with, converted by zod's own z.toJSONSchema() (`io: "input"`:
// what a caller sends, before defaults and transforms); answers are zod schemas written here, each
// checked by the compiler against the type the code answers with. The operations list every public
// route under app/api (tests/unit/openapi.test.ts holds the two together) with its examples, which
// the same test parses with the operation's schemas.

/** A JSON Schema (draft 2020-12), as zod types it; `true` and `false` are schemas too. */
export type JsonSchema = z.core.JSONSchema.JSONSchema;
export type AnySchema = z.core.JSONSchema._JSONSchema;
type Example = { summary: string; value: unknown };

// The document's parts as built below and as /docs/api renders them.
export type ApiParameter = {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description?: string;
  schema: AnySchema;
};
export type ApiMedia = { schema: JsonSchema; example?: unknown; examples?: Record<string, Example> };
type HeaderRefs = Record<string, { $ref: string }>;
export type ApiResponse = { description: string; headers?: HeaderRefs; content?: Record<string, ApiMedia> };
export type ApiDocumentOperation = {
  tags: string[];
  summary: string;
  description: string;
  operationId: string;
  parameters?: ApiParameter[];
  requestBody?: { description: string; required: boolean; content: Record<string, ApiMedia> };
  responses: Record<string, ApiResponse | { $ref: string }>;
};
export type ApiDocument = {
  openapi: string;
  info: { title: string; version: string; description: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<"get" | "post", ApiDocumentOperation>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    headers: Record<string, { description: string; schema: JsonSchema }>;
    responses: Record<string, ApiResponse>;
  };
};

/** What an operation takes in a body: one schema per media type, with examples. */
type RequestBody = {
  description: string;
  required: boolean;
  /** Per media type: the schema that validates it (zod, or JSON Schema where no zod schema reads it). */
  content: Record<string, { schema: z.ZodType | JsonSchema; examples?: Record<string, Example> }>;
};

/** A documented answer: JSON with a zod schema and an example, or a file's media types. */
type Answer = {
  description: string;
  schema?: z.ZodType;
  example?: unknown;
  /** Non-JSON answers (downloads), by media type. */
  files?: Record<string, JsonSchema>;
  headers?: string[];
};

/** The error answers, by status: components.responses (ERROR_ANSWERS below). */
type ErrorStatus = 400 | 401 | 402 | 404 | 408 | 409 | 410 | 413 | 415 | 422 | 429 | 503;

export type ApiOperation = {
  method: "get" | "post";
  path: string;
  tag: Tag;
  summary: string;
  description: string;
  params?: z.ZodType;
  query?: z.ZodType;
  /** Descriptions of path and query parameters, by name. */
  parameterText?: Record<string, string>;
  headers?: { name: string; description: string; required: boolean }[];
  body?: RequestBody;
  answers: Record<number, Answer>;
  errors: ErrorStatus[];
  /** The limits the operation counts (its answers carry the RateLimit-* headers). */
  limit?: string;
};

const TAGS = {
  Catalogue: "Categories, masked lead previews and segment counts: what is for sale.",
  Payments: "Creating an order with its invoice, and following its payment.",
  Orders: "A paid order by its download key: summary, downloads, replacement claims, Find my orders.",
  "Exclusion lists": 'The buyer\'s "Exclude contacts I already have" list, before paying.',
  Privacy: "Access and erasure requests of the people in our data (GDPR).",
  "Custom requests": "A request for a list we do not sell yet.",
  Service: "This reference, and health checks for load balancers.",
} as const;
type Tag = keyof typeof TAGS;

/** What each download format holds (the handler's schema knows only their names). */
const DOWNLOAD_FORMAT_TEXT: Record<DownloadFormat, string> = {
  csv: "CSV with a byte-order mark (Excel needs it); the default.",
  xlsx: "An Excel workbook with the same rows.",
  hubspot: "CSV with HubSpot's own import headers; our other fields as custom columns.",
  salesforce: "CSV with Salesforce's Lead field names; our other fields as custom columns.",
  json: "A JSON array of rows (objects keyed by column header).",
  ndjson: "One JSON object a line.",
};

// ---- Answers: zod schemas checked against the types the code answers with ----

const errorBody = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z
    .record(z.string(), z.string())
    .optional()
    .describe("Field path (dot-separated) to its first error; on 400s for bad input."),
});

const byLocation = <T extends z.ZodType>(value: T) => z.object({ USA: value, UK: value });
const statusMix = z.object({ valid: z.number(), acceptAll: z.number(), unknown: z.number() });
const isoDate = z.string().describe("ISO 8601 date and time (UTC)");

const category = z.object({
  _id: z.uuid(),
  title: z.string(),
  description: z.string(),
  count: z.number().int(),
  countByLocation: byLocation(z.number().int()),
  verifiedRecentlyPercent: z.number().int(),
  verifiedRecentlyPercentByLocation: byLocation(z.number().int()),
  statusMixByLocation: byLocation(statusMix),
  ukPhoneScreening: z
    .object({
      screenedAt: z.iso.date().describe("The TPS/CTPS registers' file date the screening is as old as"),
      callablePercent: z.number().int().describe("Whole percent of the UK leads whose number was callable"),
      current: z.boolean().describe("False once the screening is over 28 days old"),
    })
    .nullable()
    .describe("The UK leads' TPS/CTPS screening; null before both registers are loaded"),
  sourceMix: z
    .array(z.object({ source: z.string(), leads: z.number().int() }))
    .describe('Sellable leads per source, most first; past the fourth, the rest as "Other sources"'),
  updatedAt: isoDate.nullable(),
  createdAt: isoDate,
}) satisfies z.ZodType<CategoryDto>;

const leadPreview = z.object({
  _id: z.string(),
  categoryId: z.uuid(),
  name: z.string().describe("First name and the last name's initial"),
  title: z.string(),
  company: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  verifiedAt: isoDate,
  emailStatus: z.enum(["valid", "accept_all", "unknown"]),
}) satisfies z.ZodType<LeadPreview>;

const previewPage = z.object({
  leads: z.array(leadPreview),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
}) satisfies z.ZodType<PreviewPage>;

const packagesBy = <T extends z.ZodType>(value: T) =>
  z.object({ starter: value, standard: value, premium: value });

const segmentCounts = z.object({
  count: z.number().int(),
  facets: z.object(
    Object.fromEntries(FACETS.map((facet) => [facet, z.record(z.string(), z.number().int())])) as Record<
      (typeof FACETS)[number],
      z.ZodRecord<z.ZodString, z.ZodNumber>
    >,
  ),
  packages: packagesBy(z.object({ available: z.boolean() })),
}) satisfies z.ZodType<SegmentCounts>;

const replacementSummary = z.object({
  reported: z.number().int(),
  counted: z.number().int(),
  replaced: z.number().int(),
  shortfall: z.number().int(),
  heldForReview: z.number().int(),
  declined: z.number().int(),
  claimedAt: isoDate,
});

const invoiceSummary = z.object({
  number: z.number().int().describe("The seller's invoice number: consecutive, without gaps"),
  companyName: z.string(),
  address: z.string(),
  country: z.string().describe("ISO 3166-1 alpha-2"),
  vatId: z.string().nullable().describe("Normalised: no spaces, with its country prefix"),
  issuedAt: isoDate,
  correctedAt: isoDate.nullable().describe("When the one correction was used; null while it is open"),
}) satisfies z.ZodType<InvoiceSummary>;

const orderSummary = z.object({
  categoryTitle: z.string(),
  segment: z.string(),
  emailQuality: z.enum(EMAIL_QUALITIES),
  excluded: z.string(),
  packageType: z.enum(PACKAGE_IDS),
  leadCount: z.number().int(),
  amount: z.number(),
  status: z.string(),
  paidAt: isoDate.nullable(),
  expiresAt: isoDate.nullable(),
  replacement: replacementSummary.nullable(),
  swaps: z.object({
    replaced: z.number().int(),
    notReplaced: z.number().int(),
    latest: z.array(z.object({ row: z.number().int(), replaced: z.boolean(), at: isoDate })).max(50),
  }),
  invoice: invoiceSummary.nullable(),
  optOuts: z
    .number()
    .int()
    .describe("People in the order erased since the purchase; their rows left the file"),
}) satisfies z.ZodType<OrderSummary>;

const orderOptOutsAnswer = z.object({
  count: z.number().int(),
  optOuts: z.array(
    z.object({
      sha256: z.string().describe("SHA-256 (hex) of the person's email, trimmed and lower-cased"),
      at: isoDate,
    }),
  ),
}) satisfies z.ZodType<OrderOptOuts>;

const replacementAnswer = z.object({
  accepted: z.literal(true),
  reported: z.number().int(),
  counted: z.number().int(),
  replaced: z.number().int(),
  shortfall: z.number().int(),
  notInOrder: z.array(z.string()),
  invalidConfirmed: z.number().int(),
  verifiedDeliverable: z.array(z.object({ email: z.string(), checkedAt: isoDate })),
  heldForReview: z.number().int(),
}) satisfies z.ZodType<ReplacementAnswer>;

const suppressionListAnswer = z.object({
  success: z.literal(true),
  suppressionListId: z.uuid(),
  entries: z.number().int(),
  emails: z.number().int(),
  domains: z.number().int(),
  hashes: z.number().int(),
  ignored: z.number().int(),
  expiresAt: isoDate,
}) satisfies z.ZodType<SuppressionListAnswer>;

const listAvailability = z.object({
  packages: packagesBy(z.object({ leadCount: z.number().int(), available: z.boolean() })),
}) satisfies z.ZodType<ListAvailability>;

const privacyConfirmAnswer = z.object({
  success: z.literal(true),
  kind: z.enum(["access", "erasure"]),
  state: z.enum(["completed", "already_completed"]),
}) satisfies z.ZodType<PrivacyConfirmAnswer>;

const noticeOptOutAnswer = z.object({
  success: z.literal(true),
  state: z.enum(["completed", "already_completed"]),
}) satisfies z.ZodType<NoticeOptOutAnswer>;

const customRequestCreated = z.object({
  success: z.literal(true),
  _id: z.uuid(),
}) satisfies z.ZodType<CustomRequestCreated>;

const accepted = z.object({ success: z.literal(true) });
const health = z.object({ status: z.enum(["ok", "degraded"]), database: z.enum(["up", "down"]) });
const ipnAnswer = z.object({
  success: z.literal(true),
  applied: z
    .boolean()
    .describe("Whether the callback named an order of ours (unknown ones are acknowledged too)"),
});

// ---- Examples ----

const CATEGORY_ID = "3f1c2a9e-8b7d-4c6e-9a1b-2d3e4f5a6b7c";
const LIST_ID = "7d2e4c1a-5b3f-4e8d-a9c0-1b2c3d4e5f60";
const ORDER_KEY = "k3P9xQ2mR7vT1wY5zA8bC4dE6fG0hJ2kL4mN6pQ8r";
const NOW = "2026-11-20T14:05:00.000Z";
const EMAIL = "buyer@example.com";

const categoryExample = {
  _id: CATEGORY_ID,
  title: "SaaS Founders",
  description: "Founders and CEOs of software companies.",
  count: 24_500,
  countByLocation: { USA: 18_200, UK: 6_300 },
  verifiedRecentlyPercent: 87,
  verifiedRecentlyPercentByLocation: { USA: 88, UK: 84 },
  statusMixByLocation: {
    USA: { valid: 15_100, acceptAll: 2_300, unknown: 800 },
    UK: { valid: 5_200, acceptAll: 800, unknown: 300 },
  },
  ukPhoneScreening: { screenedAt: "2026-11-20", callablePercent: 82, current: true },
  sourceMix: [
    { source: "Company websites", leads: 14_000 },
    { source: "Public professional profiles", leads: 10_500 },
  ],
  updatedAt: NOW,
  createdAt: "2026-01-15T09:00:00.000Z",
};

const previewExample = {
  _id: "184467",
  categoryId: CATEGORY_ID,
  name: "Dana K.",
  title: "Chief Executive Officer",
  company: "Brightline Analytics",
  city: "Austin",
  state: "TX",
  country: "USA",
  verifiedAt: NOW,
  emailStatus: "valid",
};

const segmentExample = {
  count: 1_240,
  facets: {
    region: { CA: 410, NY: 380, TX: 450 },
    seniority: { c_level: 610, vp: 630 },
    department: { executive: 900, sales: 340 },
    size: { "11-50": 700, "51-200": 540 },
    revenue: { "1M-10M": 820, unknown: 420 },
  },
  packages: { starter: { available: true }, standard: { available: false }, premium: { available: false } },
};

const statusExample = { success: true, status: "waiting", amount: 0, paid: false };

const replacementExample = {
  reported: 80,
  counted: 75,
  replaced: 75,
  shortfall: 0,
  heldForReview: 0,
  declined: 0,
  claimedAt: NOW,
};

const orderExample = {
  categoryTitle: "SaaS Founders",
  segment: "Region: California, New York",
  emailQuality: "any",
  excluded: "",
  packageType: "starter",
  leadCount: 1000,
  amount: 10,
  status: "finished",
  paidAt: NOW,
  expiresAt: "2026-12-20T14:05:00.000Z",
  replacement: replacementExample,
  swaps: { replaced: 2, notReplaced: 0, latest: [{ row: 417, replaced: true, at: NOW }] },
  invoice: null,
  optOuts: 1,
};

const invoiceExample = {
  number: 42,
  companyName: "Example GmbH",
  address: "Hauptstrasse 1\n10115 Berlin",
  country: "DE",
  vatId: "DE136695976",
  issuedAt: NOW,
  correctedAt: null,
};

// ---- Parameters ----

const FACET_TEXT = (facet: (typeof FACETS)[number]) =>
  `Comma-separated, or the key repeated. One of: ${VOCABULARIES[facet].join(", ")}.`;
const SEGMENT_TEXT: Record<string, string> = {
  location: "The country whose leads are counted.",
  ...Object.fromEntries(FACETS.map((facet) => [facet, FACET_TEXT(facet)])),
  emailQuality:
    "Which email statuses count: `any` (valid, accept-all and unknown; the default), `deliverable` (valid and accept-all) or `valid`. Anything else is a 400 naming these.",
};
const KEY_TEXT = "The order's download key: the `paymentId` that payment create answers.";
const UNKNOWN_LOOKUPS =
  "A key or id we do not know counts as an unknown lookup: 30 per client address per 10 minutes.";

// ---- The operations ----

const JSON_TYPE = "application/json";
const MULTIPART = "multipart/form-data";
const fileField = (mediaType: string): JsonSchema => ({ type: "string", contentMediaType: mediaType });

export const API_OPERATIONS: ApiOperation[] = [
  {
    method: "get",
    path: "/api/categories",
    tag: "Catalogue",
    summary: "List categories",
    description: "Every public category with its sellable lead counts, per country and email status.",
    answers: {
      200: { description: "The categories", schema: z.array(category), example: [categoryExample] },
    },
    errors: [503],
  },
  {
    method: "get",
    path: "/api/categories/{id}",
    tag: "Catalogue",
    summary: "One category",
    description: "A public category by its id.",
    params: uuidParams,
    parameterText: { id: "The category's id." },
    answers: { 200: { description: "The category", schema: category, example: categoryExample } },
    errors: [400, 404, 503],
  },
  {
    method: "get",
    path: "/api/categories/{id}/segment",
    tag: "Catalogue",
    summary: "Segment counts",
    description:
      "The sellable leads of a category's country in a segment and email quality, per facet value (each facet applies the other facets' filters), and which packages the segment fills. At most 60 filter values in all.",
    params: uuidParams,
    query: segmentCountsQuery,
    parameterText: { id: "The category's id.", ...SEGMENT_TEXT },
    answers: { 200: { description: "The counts", schema: segmentCounts, example: segmentExample } },
    errors: [400, 404, 503],
  },
  {
    method: "get",
    path: "/api/leads",
    tag: "Catalogue",
    summary: "Lead previews",
    description: "Masked previews of sellable leads across all categories: no email, phone or profile URL.",
    query: pagination,
    parameterText: { page: "Page number, from 1.", pageSize: "Previews per page." },
    answers: {
      200: {
        description: "One page of previews",
        schema: previewPage,
        example: { leads: [previewExample], page: 1, pageSize: 20, total: 24_500 },
      },
    },
    errors: [400, 503],
  },
  {
    method: "get",
    path: "/api/leads/filter",
    tag: "Catalogue",
    summary: "Lead previews of a category",
    description: "Masked previews of one category's sellable leads, optionally of one country.",
    query: leadFilterQuery,
    parameterText: {
      category: "The category's id.",
      location: "The country; both when left out.",
      page: "Page number, from 1.",
      pageSize: "Previews per page.",
    },
    answers: {
      200: {
        description: "One page of previews",
        schema: previewPage,
        example: { leads: [previewExample], page: 1, pageSize: 20, total: 18_200 },
      },
    },
    errors: [400, 404, 503],
  },
  {
    method: "get",
    path: "/api/leads/{id}",
    tag: "Catalogue",
    summary: "One lead preview",
    description: "A sellable lead's masked preview.",
    params: leadIdParams,
    parameterText: { id: "The lead's id (digits)." },
    answers: { 200: { description: "The preview", schema: leadPreview, example: previewExample } },
    errors: [400, 404, 503],
  },
  {
    method: "post",
    path: "/api/payment/create",
    tag: "Payments",
    summary: "Create an order and its invoice",
    description:
      "Records a pending order for a package of a category (in a country, optionally a segment, an email quality (`emailQuality`: `any`, the default, `deliverable` or `valid`; anything else is a 400 naming these) and without the leads of an exclusion list) and opens the provider's invoice. Price and lead count come from the package table; `amount`, `leadCount` and the titles a client may send are ignored. A browser with an open order for the same choice gets that order back. A package the category (segment, list) cannot fill is a 409.",
    body: {
      description: "The order's choice.",
      required: true,
      content: {
        [JSON_TYPE]: {
          schema: createPaymentBody,
          examples: {
            starter: {
              summary: "A starter package of US leads",
              value: { categoryId: CATEGORY_ID, packageType: "starter", location: "USA", email: EMAIL },
            },
            segment: {
              summary:
                "Californian and New York C-levels with valid emails, without the buyer's own contacts",
              value: {
                categoryId: CATEGORY_ID,
                packageType: "standard",
                segment: { region: ["CA", "NY"], seniority: ["c_level"] },
                emailQuality: "valid",
                suppressionListId: LIST_ID,
              },
            },
          },
        },
      },
    },
    answers: {
      200: {
        description: "The order's download key (`paymentId`) and the invoice to pay",
        schema: createPaymentAnswer,
        example: {
          success: true,
          paymentId: ORDER_KEY,
          invoiceUrl: "https://nowpayments.io/payment/?iid=5077125051",
        },
      },
    },
    errors: [400, 404, 409, 413, 429, 503],
    limit:
      "New orders: `ORDER_CREATE_LIMIT` (default 10) per client address per 10 minutes; an open order handed back is not counted.",
  },
  {
    method: "get",
    path: "/api/payment/status/{id}",
    tag: "Payments",
    summary: "Payment status",
    description:
      "Status and amount by download key, provider payment id (`NP_id`) or invoice id. `paid` is the server's verdict. A payment id we have not stored is looked up at the provider (bounded).",
    params: paymentIdParams,
    query: paymentStatusQuery,
    parameterText: {
      id: "The download key, the provider's payment id or its invoice id.",
      NP_id: "The provider's payment id a returning tab brings with the download key.",
    },
    answers: { 200: { description: "The status", schema: paymentStatusAnswer, example: statusExample } },
    errors: [400, 404, 429, 503],
    limit: UNKNOWN_LOOKUPS,
  },
  {
    method: "post",
    path: "/api/payment/ipn",
    tag: "Payments",
    summary: "Payment callback (NOWPayments IPN)",
    description:
      "The provider's instant payment notification. Accepted only with a valid `x-nowpayments-sig` (HMAC-SHA512 of the sorted JSON body with the IPN secret); anything else is 401. Replays and out-of-order callbacks change nothing.",
    headers: [
      { name: "x-nowpayments-sig", description: "The body's HMAC-SHA512 signature.", required: true },
    ],
    body: {
      description: "The provider's payment, as NOWPayments sends it.",
      required: true,
      content: {
        [JSON_TYPE]: {
          schema: providerPaymentSchema,
          examples: {
            finished: {
              summary: "A finished payment",
              value: {
                payment_id: 5524759814,
                invoice_id: 5077125051,
                order_id: "c0a8e4f2-6b1d-4f3e-8a2b-9c7d6e5f4a3b",
                payment_status: "finished",
                price_amount: 10,
                price_currency: "usd",
                pay_amount: 0.00012,
                actually_paid: 0.00012,
                pay_currency: "btc",
              },
            },
          },
        },
      },
    },
    answers: {
      200: { description: "Acknowledged", schema: ipnAnswer, example: { success: true, applied: true } },
    },
    errors: [400, 401, 413, 503],
  },
  {
    method: "post",
    path: "/api/payment/test/{id}",
    tag: "Payments",
    summary: "Test payment (test mode only)",
    description:
      "The test payment page's Pay and Cancel buttons when `PAYMENTS_TEST_MODE` is on; 404 otherwise. Redirects to the shop's success or cancel address.",
    params: paymentIdParams,
    parameterText: { id: "The test invoice's id." },
    body: {
      description: "The button pressed.",
      required: true,
      content: {
        "application/x-www-form-urlencoded": {
          schema: testPaymentForm,
          examples: { pay: { summary: "Pay the invoice", value: { action: "pay" } } },
        },
      },
    },
    answers: { 303: { description: "To the shop's return address", headers: ["Location"] } },
    errors: [400, 404, 503],
  },
  {
    method: "get",
    path: "/api/orders/{key}",
    tag: "Orders",
    summary: "An order",
    description: "The buyer's order by its download key, with its accepted replacement claim.",
    params: orderKeyParams,
    parameterText: { key: KEY_TEXT },
    answers: { 200: { description: "The order", schema: orderSummary, example: orderExample } },
    errors: [400, 404, 429, 503],
    limit: UNKNOWN_LOOKUPS,
  },
  {
    method: "get",
    path: "/api/orders/{key}/opt-outs",
    tag: "Orders",
    summary: "Opt-outs since the purchase",
    description:
      "The people the paid order delivered who were erased (opted out) since its purchase, oldest first: the SHA-256 of each one's normalised email (trimmed, lower-cased), to suppress them in your own CRM. Their rows have already left the order's file. Unpaid or unknown is 404.",
    params: orderKeyParams,
    parameterText: { key: KEY_TEXT },
    answers: {
      200: {
        description: "The order's opt-outs",
        schema: orderOptOutsAnswer,
        example: {
          count: 1,
          optOuts: [{ sha256: "4b1f0c5e3d2a1908f7e6d5c4b3a2918071625344a5b6c7d8e9f0a1b2c3d4e5f6", at: NOW }],
        },
      },
    },
    errors: [400, 404, 429, 503],
    limit: UNKNOWN_LOOKUPS,
  },
  {
    method: "post",
    path: "/api/orders/{key}/cancel",
    tag: "Orders",
    summary: "Cancel a checkout",
    description:
      "The buyer left the invoice unpaid (the provider's cancel return). Only an order with no payment started is cancelled; its invoice stays payable and a later full payment still delivers.",
    params: orderKeyParams,
    parameterText: { key: KEY_TEXT },
    answers: {
      200: {
        description: "The order's status after the cancel",
        schema: paymentStatusAnswer,
        example: { success: true, status: "cancelled", amount: 0, paid: false },
      },
    },
    errors: [400, 404, 429, 503],
    limit: UNKNOWN_LOOKUPS,
  },
  {
    method: "post",
    path: "/api/orders/{key}/invoice",
    tag: "Orders",
    summary: "Enter invoice details",
    description:
      "The paid order's invoice: the first call issues it with the seller's next number, one later call with other details corrects them (keeping the number); a further change is 409. A VAT ID must be well formed for the country (400 naming `vatId`). Unpaid is 409.",
    params: orderKeyParams,
    parameterText: { key: KEY_TEXT },
    body: {
      description: "The buyer's company details.",
      required: true,
      content: {
        [JSON_TYPE]: {
          schema: invoiceDetailsBody,
          examples: {
            company: {
              summary: "A German company with its VAT ID",
              value: {
                companyName: "Example GmbH",
                address: "Hauptstrasse 1\n10115 Berlin",
                country: "DE",
                vatId: "DE136695976",
              },
            },
          },
        },
      },
    },
    answers: {
      201: { description: "The invoice, issued", schema: invoiceSummary, example: invoiceExample },
      200: {
        description: "The invoice, corrected (or unchanged: the same details again)",
        schema: invoiceSummary,
        example: { ...invoiceExample, correctedAt: NOW },
      },
    },
    errors: [400, 404, 409, 429, 503],
    limit: UNKNOWN_LOOKUPS,
  },
  {
    method: "get",
    path: "/api/orders/{key}/invoice",
    tag: "Orders",
    summary: "Download the invoice",
    description:
      "The paid order's invoice as a PDF: the seller's identity, the buyer's details, the order's line in USD, the VAT at the seller's rate (reverse charge when the buyer's VAT ID is from another country than the seller's VAT number) and the crypto amount paid. 404 before its details were entered; unpaid is 409.",
    params: orderKeyParams,
    parameterText: { key: KEY_TEXT },
    answers: {
      200: {
        description: "The PDF, as an attachment named `invoice-{number}.pdf`",
        headers: ["Content-Disposition"],
        files: { "application/pdf": fileField("application/pdf") },
      },
    },
    errors: [400, 404, 409, 429, 503],
    limit: `${UNKNOWN_LOOKUPS} 30 PDFs per order per 10 minutes.`,
  },
  {
    method: "post",
    path: "/api/orders/{key}/replacement",
    tag: "Orders",
    summary: "Claim a replacement",
    description:
      "Report bounced addresses of a paid order (within 30 days of payment, once per order): a JSON list or a CSV upload (at most 10 MB, 20,000 addresses). Accepted when more than 5% of the order's leads count; counted leads are replaced with fresh ones.",
    params: orderKeyParams,
    parameterText: { key: KEY_TEXT },
    body: {
      description: "The reported addresses.",
      required: true,
      content: {
        [JSON_TYPE]: {
          schema: replacementBody,
          examples: {
            list: {
              summary: "Two bounced addresses",
              value: { emails: ["a.lee@example.com", "j.doe@example.org"] },
            },
          },
        },
        [MULTIPART]: {
          schema: {
            type: "object",
            properties: { file: fileField("text/csv") },
            required: ["file"],
          },
        },
      },
    },
    answers: {
      201: {
        description: "The claim, accepted",
        schema: replacementAnswer,
        example: {
          accepted: true,
          reported: 80,
          counted: 75,
          replaced: 75,
          shortfall: 0,
          notInOrder: ["someone@else.example"],
          invalidConfirmed: 60,
          verifiedDeliverable: [{ email: "ok@example.com", checkedAt: NOW }],
          heldForReview: 0,
        },
      },
    },
    errors: [400, 404, 408, 409, 410, 413, 415, 422, 429, 503],
    limit: `CSV uploads: 10 per client address an hour, and 10 per order a day. ${UNKNOWN_LOOKUPS} Uploads: 2 at once per address (429), 8 per instance (503).`,
  },
  {
    method: "post",
    path: "/api/orders/lookup",
    tag: "Orders",
    summary: "Find my orders",
    description:
      "Mails a one-hour sign-in link to the paid orders of an email (at most 3 such mails an address a day). Always 202: the answer never says whether the address bought anything.",
    body: {
      description: "The buyer's email.",
      required: true,
      content: {
        [JSON_TYPE]: {
          schema: orderLookupBody,
          examples: { email: { summary: "An email address", value: { email: EMAIL } } },
        },
      },
    },
    answers: { 202: { description: "Received", schema: accepted, example: { success: true } } },
    errors: [400, 413, 429, 503],
    limit: "10 per client address an hour.",
  },
  {
    method: "get",
    path: "/api/leads/download/{key}",
    tag: "Orders",
    summary: "Download an order's leads",
    description:
      "The paid order's file, streamed, for 30 days after payment (or after fresh links from Find my orders). Every format holds the same rows in the same order. Unpaid is 402, expired 410.",
    params: orderKeyParams,
    query: downloadQuery,
    parameterText: {
      key: KEY_TEXT,
      format: Object.entries(DOWNLOAD_FORMAT_TEXT)
        .map(([format, text]) => `\`${format}\`: ${text}`)
        .join(" "),
      category: "Accepted for older clients and ignored: the order decides what is delivered.",
      count: "Accepted for older clients and ignored.",
    },
    answers: {
      200: {
        description:
          "The file, as an attachment named `leads-{key}.{format}` (`leads-{key}-hubspot.csv` and `leads-{key}-salesforce.csv` for the CRM files)",
        headers: ["Content-Disposition"],
        files: {
          "text/csv": { type: "string" },
          [CONTENT_TYPES.xlsx]: fileField(CONTENT_TYPES.xlsx),
          "application/json": {
            type: "array",
            items: { type: "object", additionalProperties: { type: "string" } },
          },
          "application/x-ndjson": { type: "string" },
        },
      },
    },
    errors: [400, 402, 404, 410, 429, 503],
    limit: `${UNKNOWN_LOOKUPS} At most 2 downloads in flight per order and 4 per client address (429 with Retry-After).`,
  },
  {
    method: "post",
    path: "/api/suppression-lists",
    tag: "Exclusion lists",
    summary: "Upload an exclusion list",
    description:
      "A CSV, XLSX or text file of emails, domains or SHA-256 hashes of normalised emails (at most 100,000 entries, 10 MB). Only hashes and domains are stored, for 24 hours, usable only from the uploading address; pass its id to payment create.",
    body: {
      description: "The list, in the multipart field `file`.",
      required: true,
      content: {
        [MULTIPART]: {
          schema: {
            type: "object",
            properties: { file: fileField("application/octet-stream") },
            required: ["file"],
          },
        },
      },
    },
    answers: {
      201: {
        description: "The stored list",
        schema: suppressionListAnswer,
        example: {
          success: true,
          suppressionListId: LIST_ID,
          entries: 1_520,
          emails: 1_400,
          domains: 20,
          hashes: 100,
          ignored: 3,
          expiresAt: "2026-11-21T14:05:00.000Z",
        },
      },
    },
    errors: [400, 408, 413, 415, 429, 503],
    limit:
      "20 uploads per client address an hour. Uploads: 2 at once per address (429), 16 per instance (503).",
  },
  {
    method: "get",
    path: "/api/suppression-lists/{id}/availability",
    tag: "Exclusion lists",
    summary: "Which packages a list leaves fillable",
    description:
      "Which packages the category's sellable leads (in a country, segment and email quality) can still fill once the list's contacts are left out. How many the list matched is told only after payment, with the receipt and on the order page.",
    params: listIdParams,
    query: listAvailabilityQuery,
    parameterText: { id: "The list's id.", categoryId: "The category's id.", ...SEGMENT_TEXT },
    limit:
      "30 checks of lists per client address and 20 per list in 10 minutes. One check at a time per address (the next 15 wait their turn, up to 10 s; 429 beyond), 4 per instance (503).",
    answers: {
      200: {
        description: "The list's effect",
        schema: listAvailability,
        example: {
          packages: {
            starter: { leadCount: 1000, available: true },
            standard: { leadCount: 10000, available: true },
            premium: { leadCount: 20000, available: false },
          },
        },
      },
    },
    errors: [400, 404, 429, 503],
  },
  {
    method: "post",
    path: "/api/privacy/requests",
    tag: "Privacy",
    summary: "Request access or erasure",
    description:
      "Mails a confirmation link (valid 24 hours, at most 3 such mails an address a day); nothing happens until the person confirms. Always 202.",
    body: {
      description: "The person's email and what they ask for.",
      required: true,
      content: {
        [JSON_TYPE]: {
          schema: privacyRequestBody,
          examples: {
            erasure: { summary: "Erase my data", value: { email: "person@example.com", kind: "erasure" } },
          },
        },
      },
    },
    answers: { 202: { description: "Received", schema: accepted, example: { success: true } } },
    errors: [400, 413, 429, 503],
    limit: "10 per client address an hour.",
  },
  {
    method: "post",
    path: "/api/privacy/requests/confirm",
    tag: "Privacy",
    summary: "Confirm a privacy request",
    description: "Runs the request a mailed link names, once; a second click answers `already_completed`.",
    body: {
      description: "The token of the mailed link.",
      required: true,
      content: {
        [JSON_TYPE]: {
          schema: privacyConfirmBody,
          examples: {
            token: { summary: "The link's token", value: { token: "eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl" } },
          },
        },
      },
    },
    answers: {
      200: {
        description: "Done",
        schema: privacyConfirmAnswer,
        example: { success: true, kind: "erasure", state: "completed" },
      },
    },
    errors: [400, 410, 413, 503],
  },
  {
    method: "post",
    path: "/api/privacy/notices/opt-out",
    tag: "Privacy",
    summary: "Opt out from a privacy notice's link",
    description:
      "Erases, everywhere, the person a UK privacy notice was mailed to, and keeps them out of later imports; once per link (60 days). A second click answers `already_completed`.",
    body: {
      description: "The token of the notice's link.",
      required: true,
      content: {
        [JSON_TYPE]: {
          schema: privacyConfirmBody,
          examples: {
            token: { summary: "The link's token", value: { token: "eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl" } },
          },
        },
      },
    },
    answers: {
      200: {
        description: "Erased",
        schema: noticeOptOutAnswer,
        example: { success: true, state: "completed" },
      },
    },
    errors: [400, 410, 413, 503],
  },
  {
    method: "post",
    path: "/api/custom-request",
    tag: "Custom requests",
    summary: "Send a custom request",
    description:
      "A request for a list we do not sell yet: JSON, or multipart with up to 5 attachments (`files`: PDF, DOC, DOCX, CSV, XLS, XLSX; 10 MB each).",
    body: {
      description: "The request.",
      required: true,
      content: {
        [JSON_TYPE]: {
          schema: customRequestSchema,
          examples: {
            request: {
              summary: "Fintech CTOs",
              value: {
                name: "Alex Morgan",
                email: "alex@example.com",
                industry: "finance",
                role: "cto",
                platforms: ["linkedin"],
                message: "CTOs of UK fintech companies with 50-200 employees.",
              },
            },
          },
        },
        [MULTIPART]: { schema: customRequestSchema },
      },
    },
    answers: {
      201: {
        description: "Stored",
        schema: customRequestCreated,
        example: { success: true, _id: "9b2f6c1e-3d4a-4b5c-8e7f-0a1b2c3d4e5f" },
      },
    },
    errors: [400, 408, 413, 415, 429, 503],
    limit:
      "`CUSTOM_REQUEST_LIMIT` (default 20) per client address per clock hour, submissions in flight included. Uploads: 2 at once per address (429), 16 per instance (503).",
  },
  {
    method: "get",
    path: "/api/openapi.json",
    tag: "Service",
    summary: "This document",
    description:
      "The public API's OpenAPI 3.1 document, as JSON. A page for people renders it at `/docs/api`.",
    answers: { 200: { description: "The document", files: { [JSON_TYPE]: { type: "object" } } } },
    errors: [],
  },
  {
    method: "get",
    path: "/api/health",
    tag: "Service",
    summary: "Health",
    description: "Liveness and database reachability, for load balancers.",
    answers: {
      200: { description: "Up", schema: health, example: { status: "ok", database: "up" } },
      503: {
        description: "The database is unreachable",
        schema: health,
        example: { status: "degraded", database: "down" },
        headers: ["Retry-After"],
      },
    },
    errors: [],
  },
];

// ---- Errors and headers ----

const ERROR_ANSWERS: Record<
  ErrorStatus,
  { name: string; description: string; example: z.input<typeof errorBody> }
> = {
  400: {
    name: "BadRequest",
    description: "Bad input: `errors` names each field with its first problem",
    example: { success: false, message: "Invalid input", errors: { categoryId: "Invalid category id" } },
  },
  401: {
    name: "Unauthorized",
    description: "A callback without a valid signature",
    example: { success: false, message: "Invalid signature" },
  },
  402: {
    name: "PaymentRequired",
    description: "The order is not paid yet",
    example: {
      success: false,
      message:
        "This payment has not been confirmed yet. Check the payment status and try again once it is complete.",
    },
  },
  404: {
    name: "NotFound",
    description: "Unknown id or key",
    example: { success: false, message: "Order not found" },
  },
  408: {
    name: "RequestTimeout",
    description: "An upload that went silent for 15 s or outlived its deadline",
    example: { success: false, message: "The upload timed out" },
  },
  409: {
    name: "Conflict",
    description: "Conflicting state: a package the category cannot fill, a second claim",
    example: {
      success: false,
      message: "A replacement was already granted for this order; each order can be replaced once.",
    },
  },
  410: {
    name: "Gone",
    description: "An expired link or claim window",
    example: { success: false, message: "This download link has expired." },
  },
  413: {
    name: "PayloadTooLarge",
    description: "A body or file over its bound (JSON bodies: 64 KB)",
    example: { success: false, message: "The request body is too large" },
  },
  415: {
    name: "UnsupportedMediaType",
    description: "A body in a media type the endpoint does not take",
    example: { success: false, message: 'Upload the list as multipart/form-data in the field "file"' },
  },
  422: {
    name: "UnprocessableContent",
    description: "A claim whose counted addresses do not reach more than 5% of the order",
    example: {
      success: false,
      message:
        "Free replacement applies when more than 5% of an order's leads are invalid (more than 50 of 1,000). 12 of the reported addresses were delivered in this order.",
    },
  },
  429: {
    name: "TooManyRequests",
    description: "A limit is reached: retry after `Retry-After` seconds",
    example: {
      success: false,
      message: "Too many order lookups from your address. Please try again later.",
    },
  },
  503: {
    name: "ServiceUnavailable",
    description: "The database is unreachable or the instance is busy: retry after `Retry-After` seconds",
    example: { success: false, message: "The service is temporarily unavailable. Please try again shortly." },
  },
};

const HEADERS: Record<string, { description: string; schema: JsonSchema }> = {
  "RateLimit-Limit": {
    description:
      "The requests the limit allows in its window (the limit closest to refusing, when several count).",
    schema: { type: "integer", minimum: 0 },
  },
  "RateLimit-Remaining": {
    description: "The requests left in the window after this one.",
    schema: { type: "integer", minimum: 0 },
  },
  "RateLimit-Reset": {
    description:
      "Seconds until one more request is allowed: the oldest counted request leaves the sliding window (custom requests: the clock hour ends).",
    schema: { type: "integer", minimum: 1 },
  },
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 1 } },
  Location: { description: "Where to go next.", schema: { type: "string" } },
  "Content-Disposition": { description: "`attachment` with the file's name.", schema: { type: "string" } },
};
const RATE_LIMIT_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];

// ---- The document ----

/** zod's JSON Schema (draft 2020-12, OpenAPI 3.1's dialect), inlined: no `$defs` to resolve. */
export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const converted: JsonSchema = z.toJSONSchema(schema, { target: "draft-2020-12", io, reused: "inline" });
  delete converted.$schema;
  return converted;
}

const headerRefs = (names: string[]): HeaderRefs =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

function parameters(operation: ApiOperation): ApiParameter[] {
  const listed: ApiParameter[] = [];
  for (const [location, schema] of [
    ["path", operation.params],
    ["query", operation.query],
  ] as const) {
    if (!schema) continue;
    const object = jsonSchema(schema, "input");
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      listed.push({
        name,
        in: location,
        required: location === "path" || (object.required ?? []).includes(name),
        description: operation.parameterText?.[name],
        schema: property,
      });
    }
  }
  for (const header of operation.headers ?? []) {
    listed.push({ ...header, in: "header", schema: { type: "string" } });
  }
  return listed;
}

function requestBody(body: RequestBody): ApiDocumentOperation["requestBody"] {
  const content = Object.fromEntries(
    Object.entries(body.content).map(([mediaType, { schema, examples }]): [string, ApiMedia] => {
      let converted = schema instanceof z.ZodType ? jsonSchema(schema, "input") : schema;
      // A custom request's attachments arrive as parts of their own, beside the fields.
      if (mediaType === MULTIPART && schema === customRequestSchema) {
        converted = {
          ...converted,
          properties: {
            ...converted.properties,
            files: { type: "array", maxItems: 5, items: fileField("application/octet-stream") },
          },
        };
      }
      return [mediaType, { schema: converted, ...(examples ? { examples } : {}) }];
    }),
  );
  return { description: body.description, required: body.required, content };
}

function responses(operation: ApiOperation): ApiDocumentOperation["responses"] {
  const limited = operation.limit ? RATE_LIMIT_HEADERS : [];
  const answers: ApiDocumentOperation["responses"] = {};
  for (const [status, answer] of Object.entries(operation.answers)) {
    const headers = [...(answer.headers ?? []), ...limited];
    const content: Record<string, ApiMedia> | undefined = answer.schema
      ? { [JSON_TYPE]: { schema: jsonSchema(answer.schema, "output"), example: answer.example } }
      : answer.files &&
        Object.fromEntries(Object.entries(answer.files).map(([type, schema]) => [type, { schema }]));
    answers[status] = {
      description: answer.description,
      ...(headers.length ? { headers: headerRefs(headers) } : {}),
      ...(content ? { content } : {}),
    };
  }
  for (const status of operation.errors) {
    answers[status] = { $ref: `#/components/responses/${ERROR_ANSWERS[status].name}` };
  }
  return answers;
}

/** `get` `/api/categories/{id}/segment` is `getApiCategoriesIdSegment`. */
const operationId = (method: string, path: string) =>
  method + path.replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string = "") => next.toUpperCase());

const LIMIT_TEXT =
  "Answers counted against a limit carry `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; every 429 carries `Retry-After`.";

/** The headers of an error answer: a 429's limit and wait, a 503's wait. */
const errorHeaders = (status: number) =>
  status === 429 ? ["Retry-After", ...RATE_LIMIT_HEADERS] : status === 503 ? ["Retry-After"] : [];

function buildDocument(): ApiDocument {
  const paths: ApiDocument["paths"] = {};
  for (const operation of API_OPERATIONS) {
    const listed = parameters(operation);
    (paths[operation.path] ??= {})[operation.method] = {
      tags: [operation.tag],
      summary: operation.summary,
      // The page shows the limits as a paragraph of their own.
      description: operation.limit
        ? `${operation.description}\n\nRate limits: ${operation.limit} ${LIMIT_TEXT}`
        : operation.description,
      operationId: operationId(operation.method, operation.path),
      ...(listed.length ? { parameters: listed } : {}),
      ...(operation.body ? { requestBody: requestBody(operation.body) } : {}),
      responses: responses(operation),
    };
  }
  return {
    openapi: "3.1.1",
    info: {
      title: "LeadMarket API",
      version: "1.0.0",
      description: `The public API of LeadMarket: browse categories, create an order, follow its payment and download its leads. JSON everywhere except downloads and uploads. Errors answer \`{ "success": false, "message": "...", "errors"?: { "field": "..." } }\`. ${LIMIT_TEXT}`,
    },
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: { Error: jsonSchema(errorBody, "output") },
      headers: HEADERS,
      responses: Object.fromEntries(
        Object.entries(ERROR_ANSWERS).map(([status, { name, description, example }]) => [
          name,
          {
            description,
            headers: headerRefs(errorHeaders(Number(status))),
            content: { [JSON_TYPE]: { schema: { $ref: "#/components/schemas/Error" }, example } },
          },
        ]),
      ),
    },
  };
}

let built: ApiDocument | undefined;

/** The document; built once per process (it depends on the code alone). */
export function openApiDocument(): ApiDocument {
  return (built ??= buildDocument());
}
