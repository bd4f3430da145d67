// The abuse benchmark's table (scripts/bench-abuse.ts): for every public route and method under
// app/api, the worst input we know and how to send it, or, for a route that reads nothing a
// visitor controls beyond a small bounded query, why a plain burst is its worst. The unit test
// tests/unit/abuse-coverage.test.ts fails when a public route has no entry here, so a new
// endpoint cannot ship without its cost being measured. Importing this module builds nothing:
// the files are made when a request asks for them.
import { Buffer } from "node:buffer";
import { worstClaimCsv, worstCsv, worstSmallXlsx, worstXlsx } from "../tests/support/nasty-cells";
import { FACETS, VOCABULARIES } from "../lib/segments/vocabularies";

/** What the bench's setup made, which the requests name. */
export type AbuseContext = {
  /** The demo's largest category (USA leads). */
  categoryId: string;
  /** A sellable lead's id. */
  leadId: string;
  /** A paid premium order's download key, and the addresses it delivered. */
  paidKey: string;
  paidEmails: string[];
  /** An unpaid order's key and its test invoice id. */
  openKey: string;
  openInvoiceId: string;
  /**
   * 100,000-entry exclusion lists, each usable only from the address that uploaded it: two for
   * create, one for availability (an input's list and owner must not have spent their check limits
   * in another input's burst, or its worst case would not run).
   */
  lists: { id: string; address: string }[];
};

/** One request: `address` (when given) replaces the worker's own client address. */
export type AbuseRequest = {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  address?: string;
};

export type AbuseInput = {
  /** Its name in the report: `[a-z0-9_]+`. */
  name: string;
  /** The input, in words. */
  worst: string;
  /** Workers sending at once, each from its own client address (unless a request names one). */
  clients: number;
  /** Requests in all (the burst also stops after the bench's time bound). */
  requests: number;
  build: (context: AbuseContext, index: number) => AbuseRequest;
};

export type AbuseEntry = {
  method: "GET" | "POST";
  /** As tests/support/api-routes.ts writes it: `/api/orders/{key}`. */
  path: string;
  /** Set when the route reads nothing a visitor controls beyond a small bounded query: why. */
  bounded?: string;
  inputs: AbuseInput[];
};

// ---- Request helpers -------------------------------------------------------------------------------

const BOUNDARY = "----leadmarket-bench-abuse";

/** A multipart body of text fields and files. */
export function multipart(
  fields: Record<string, string>,
  files: { field: string; name: string; type: string; data: Buffer }[],
): { headers: Record<string, string>; body: Buffer } {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return {
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body: Buffer.concat(parts),
  };
}

const json = (method: "POST", path: string, value: unknown): AbuseRequest => ({
  method,
  path,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(value),
});

/** Made once, on first use: the files are large and most runs of the table never need them. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
// The worst files we know (issue 30's review), shared with the tests that refuse them.
const bigXlsx = once(worstXlsx);
const smallXlsx = once(worstSmallXlsx);
const listCsv = once(() => worstCsv());
const claimCsv = once(worstClaimCsv);
const requestFile = once(() => Buffer.alloc(10 * 1024 * 1024, "lead,company\n"));
const ipnBody = once(() => {
  // 16 KB of keys (the bound): what the callback parses and walks before it can refuse.
  const keys: Record<string, number> = {};
  for (let index = 0; JSON.stringify(keys).length < 15.5 * 1024; index++) keys[`k${index}`] = index;
  return JSON.stringify(keys);
});
/** 16 KB of nested arrays (the bound): parsed fine, then too deep for any payment. */
const deepIpnBody = once(() => `${"[".repeat(8 * 1024 - 8)}${"]".repeat(8 * 1024 - 8)}`);
const testPayForm = once(() => `action=pay&${"x=1&".repeat((10 * 1024 * 1024) / 4)}`);

/** A wide segment: up to 12 values of every facet (52 in all, of the 60 a query may name). */
const WIDE_SEGMENT = FACETS.map(
  (facet) => `&${facet}=${encodeURIComponent(VOCABULARIES[facet].slice(0, 12).join(","))}`,
).join("");
/** Narrow segments, each a different answer about a list's matches (the review's oracle). */
const SEGMENTS = [
  "",
  "&region=WA",
  ...FACETS.slice(1).map((facet) => `&${facet}=${encodeURIComponent(VOCABULARIES[facet][0])}`),
  WIDE_SEGMENT,
];

const uuid = (index: number) => `00000000-0000-4000-8000-${index.toString(16).padStart(12, "0")}`;

// ---- The table -------------------------------------------------------------------------------------

export const ABUSE_ENDPOINTS: AbuseEntry[] = [
  {
    method: "POST",
    path: "/api/admin/login",
    inputs: [
      {
        name: "login_unknown_emails",
        worst: "wrong passwords for a new email each time: every attempt costs a bcrypt comparison (cost 12)",
        clients: 8,
        requests: 40,
        build: (_, index) =>
          json("POST", "/api/admin/login", { email: `guess${index}@example.com`, password: "x".repeat(72) }),
      },
    ],
  },
  {
    method: "GET",
    path: "/api/categories",
    bounded: "no input: the catalogue from the cache",
    inputs: [
      {
        name: "categories",
        worst: "a burst",
        clients: 8,
        requests: 400,
        build: () => ({ method: "GET", path: "/api/categories" }),
      },
    ],
  },
  {
    method: "GET",
    path: "/api/categories/{id}",
    bounded: "a uuid: one row by its key",
    inputs: [
      {
        name: "category",
        worst: "a burst, known and unknown ids",
        clients: 8,
        requests: 400,
        build: (context, index) => ({
          method: "GET",
          path: `/api/categories/${index % 2 ? context.categoryId : uuid(index)}`,
        }),
      },
    ],
  },
  {
    method: "GET",
    path: "/api/categories/{id}/segment",
    inputs: [
      {
        name: "segment_counts",
        worst: "52 filter values over every facet, and narrow segments",
        clients: 8,
        requests: 400,
        build: (context, index) => ({
          method: "GET",
          path: `/api/categories/${context.categoryId}/segment?location=USA${SEGMENTS[index % SEGMENTS.length]}`,
        }),
      },
    ],
  },
  {
    method: "POST",
    path: "/api/custom-request",
    inputs: [
      {
        name: "custom_request_5x10mb",
        worst: "5 CSV files of 10 MB, the most one request may carry",
        clients: 4,
        requests: 4,
        build: (_, index) => ({
          method: "POST",
          path: "/api/custom-request",
          ...multipart(
            { name: `Bench ${index}`, email: `bench-${index}@example.com`, platforms: "linkedin" },
            Array.from({ length: 5 }, (__, file) => ({
              field: "files",
              name: `leads-${file}.csv`,
              type: "text/csv",
              data: requestFile(),
            })),
          ),
        }),
      },
    ],
  },
  {
    method: "GET",
    path: "/api/health",
    bounded: "no input: one SELECT 1 (the probe itself)",
    inputs: [
      {
        name: "health",
        worst: "a burst",
        clients: 8,
        requests: 400,
        build: () => ({ method: "GET", path: "/api/health" }),
      },
    ],
  },
  {
    method: "GET",
    path: "/api/openapi.json",
    bounded: "takes no input: the document is built once per process and re-encoded per request",
    inputs: [
      {
        name: "openapi",
        worst: "a burst",
        clients: 8,
        requests: 200,
        build: () => ({ method: "GET", path: "/api/openapi.json" }),
      },
    ],
  },
  {
    method: "GET",
    path: "/api/leads",
    inputs: [
      {
        name: "leads_deep_page",
        worst: "page 100 of 100 (the deepest page the query allows: an OFFSET of 9,900 leads)",
        clients: 8,
        requests: 80,
        build: () => ({ method: "GET", path: "/api/leads?page=100&pageSize=100" }),
      },
    ],
  },
  {
    method: "GET",
    path: "/api/leads/{id}",
    bounded: "a numeric id: one row by its key",
    inputs: [
      {
        name: "lead",
        worst: "a burst, known and unknown ids",
        clients: 8,
        requests: 400,
        build: (context, index) => ({
          method: "GET",
          path: `/api/leads/${index % 2 ? context.leadId : 900_000_000 + index}`,
        }),
      },
    ],
  },
  {
    method: "GET",
    path: "/api/leads/download/{key}",
    inputs: [
      {
        name: "download_premium_xlsx",
        worst: "a paid premium order (20,000 leads) as XLSX, the costlier format",
        clients: 4,
        requests: 8,
        build: (context) => ({ method: "GET", path: `/api/leads/download/${context.paidKey}?format=xlsx` }),
      },
    ],
  },
  {
    method: "GET",
    path: "/api/leads/filter",
    inputs: [
      {
        name: "leads_filter_deep_page",
        worst: "the largest category's page 100 of 100 in the USA",
        clients: 8,
        requests: 80,
        build: (context) => ({
          method: "GET",
          path: `/api/leads/filter?category=${context.categoryId}&location=USA&page=100&pageSize=100`,
        }),
      },
    ],
  },
  {
    method: "GET",
    path: "/api/orders/{key}",
    bounded: "a key: one order by its key",
    inputs: [
      {
        name: "order_summary",
        worst: "a burst, the paid order's key and unknown ones",
        clients: 8,
        requests: 200,
        build: (context, index) => ({
          method: "GET",
          path: `/api/orders/${index % 2 ? context.paidKey : `${context.paidKey.slice(0, -4)}${(index % 10_000).toString().padStart(4, "0")}`}`,
        }),
      },
    ],
  },
  {
    method: "POST",
    path: "/api/orders/{key}/cancel",
    bounded: "a key, no body: one unpaid order by its key",
    inputs: [
      {
        name: "order_cancel",
        worst: "a burst on the open order's key",
        clients: 8,
        requests: 200,
        build: (context) => ({ method: "POST", path: `/api/orders/${context.openKey}/cancel` }),
      },
    ],
  },
  {
    method: "GET",
    path: "/api/orders/{key}/opt-outs",
    bounded: "a key: one order's opt-outs, read by the order's key (at most its row count)",
    inputs: [
      {
        name: "order_opt_outs",
        worst: "a burst on the paid order's key",
        clients: 8,
        requests: 200,
        build: (context) => ({ method: "GET", path: `/api/orders/${context.paidKey}/opt-outs` }),
      },
    ],
  },
  {
    method: "POST",
    path: "/api/orders/{key}/invoice",
    inputs: [
      {
        name: "invoice_details",
        worst: "a burst of full-length details with 40-character VAT IDs to check, on the paid order's key",
        clients: 8,
        requests: 200,
        build: (context, index) =>
          json("POST", `/api/orders/${context.paidKey}/invoice`, {
            companyName: "C".repeat(200),
            address: "A".repeat(500),
            country: index % 2 ? "DE" : "GB",
            vatId: `${index % 2 ? "DE" : "GB"}${"9".repeat(38)}`,
          }),
      },
    ],
  },
  {
    method: "GET",
    path: "/api/orders/{key}/invoice",
    bounded: "a key: one order's invoice, drawn afresh each time (30 per order per 10 minutes)",
    inputs: [
      {
        name: "invoice_pdf",
        worst: "a burst on the paid order's key",
        clients: 8,
        requests: 200,
        build: (context) => ({ method: "GET", path: `/api/orders/${context.paidKey}/invoice` }),
      },
    ],
  },
  {
    method: "POST",
    path: "/api/orders/{key}/replacement",
    inputs: [
      {
        name: "claim_dots_csv",
        worst: "a 10 MB claim CSV of 320-character cells (a@, 317 dots, @) with the paid key",
        clients: 4,
        requests: 4,
        build: (context) => ({
          method: "POST",
          path: `/api/orders/${context.paidKey}/replacement`,
          ...multipart({}, [{ field: "file", name: "claim.csv", type: "text/csv", data: claimCsv() }]),
        }),
      },
      {
        name: "claim_json_1000",
        worst:
          "JSON claims of 1,000 of the order's addresses, again and again (each checked with the provider)",
        clients: 4,
        requests: 20,
        build: (context) =>
          json("POST", `/api/orders/${context.paidKey}/replacement`, {
            emails: context.paidEmails.slice(0, 1000),
          }),
      },
    ],
  },
  {
    method: "POST",
    path: "/api/orders/lookup",
    bounded: "one email in a small JSON body (always 202)",
    inputs: [
      {
        name: "order_lookup",
        worst: "a burst, a new email each time",
        clients: 8,
        requests: 200,
        build: (_, index) => json("POST", "/api/orders/lookup", { email: `buyer${index}@example.com` }),
      },
    ],
  },
  {
    method: "POST",
    path: "/api/payment/create",
    inputs: [
      {
        name: "create_with_list",
        worst:
          "a premium order with a 100,000-entry exclusion list and a narrow segment, from the list's owner",
        clients: 4,
        requests: 12,
        build: (context, index) => {
          const list = context.lists[index % 2];
          return {
            ...json("POST", "/api/payment/create", {
              categoryId: context.categoryId,
              packageType: index % 2 ? "premium" : "starter",
              location: "USA",
              segment: index % 2 ? undefined : { region: ["WA"] },
              suppressionListId: list.id,
            }),
            address: list.address,
          };
        },
      },
    ],
  },
  {
    method: "POST",
    path: "/api/payment/ipn",
    inputs: [
      {
        name: "ipn_16kb_keys",
        worst: "a 16 KB JSON body of keys (the bound) with a well-formed wrong signature",
        clients: 4,
        requests: 200,
        build: () => ({
          method: "POST",
          path: "/api/payment/ipn",
          headers: { "content-type": "application/json", "x-nowpayments-sig": "ab".repeat(64) },
          body: ipnBody(),
        }),
      },
      {
        name: "ipn_deep_nesting",
        worst: "8,184 nested arrays (16 KB) with a well-formed wrong signature",
        clients: 4,
        requests: 100,
        build: () => ({
          method: "POST",
          path: "/api/payment/ipn",
          headers: { "content-type": "application/json", "x-nowpayments-sig": "ab".repeat(64) },
          body: deepIpnBody(),
        }),
      },
    ],
  },
  {
    method: "GET",
    path: "/api/payment/status/{id}",
    bounded: "an id of at most 128 characters: one order by its keys",
    inputs: [
      {
        name: "payment_status",
        worst: "a burst, unknown ids with an NP_id",
        clients: 8,
        requests: 200,
        build: (context, index) => ({
          method: "GET",
          path: `/api/payment/status/${index % 2 ? context.openKey : `test_${index.toString(16).padStart(16, "0")}`}?NP_id=${index}`,
        }),
      },
    ],
  },
  {
    method: "POST",
    path: "/api/payment/test/{id}",
    inputs: [
      {
        name: "test_pay_10mb_form",
        worst: "a 10 MB form body to an open test invoice (the demo runs in test mode): read whole",
        clients: 4,
        requests: 8,
        build: (context) => ({
          method: "POST",
          path: `/api/payment/test/${context.openInvoiceId}`,
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: testPayForm(),
        }),
      },
    ],
  },
  {
    method: "POST",
    path: "/api/privacy/requests",
    bounded: "one email and a kind in a small JSON body (always 202)",
    inputs: [
      {
        name: "privacy_request",
        worst: "a burst, a new email each time",
        clients: 8,
        requests: 200,
        build: (_, index) =>
          json("POST", "/api/privacy/requests", { email: `person${index}@example.com`, kind: "erasure" }),
      },
    ],
  },
  {
    method: "POST",
    path: "/api/privacy/requests/confirm",
    bounded: "one token in a small JSON body",
    inputs: [
      {
        name: "privacy_confirm",
        worst: "a burst of forged tokens",
        clients: 8,
        requests: 200,
        build: (_, index) =>
          json("POST", "/api/privacy/requests/confirm", { token: `${"a".repeat(200)}.${index}` }),
      },
    ],
  },
  {
    method: "POST",
    path: "/api/privacy/notices/opt-out",
    bounded: "one token in a small JSON body, its signature checked before any read",
    inputs: [
      {
        name: "notice_opt_out",
        worst: "a burst of forged tokens of the longest allowed length",
        clients: 8,
        requests: 200,
        build: (_, index) =>
          json("POST", "/api/privacy/notices/opt-out", { token: `${"a".repeat(1990)}.${index}` }),
      },
    ],
  },
  {
    method: "POST",
    path: "/api/suppression-lists",
    inputs: [
      {
        name: "list_xlsx_6m_shared_cells",
        worst:
          "a 389 KB XLSX whose 6.26M cells all point to one shared string of 320 characters (a@, 317 dots, @)",
        clients: 4,
        requests: 4,
        build: () => ({
          method: "POST",
          path: "/api/suppression-lists",
          ...multipart({}, [{ field: "file", name: "list.xlsx", type: XLSX, data: bigXlsx() }]),
        }),
      },
      {
        name: "list_xlsx_500k_shared_cells",
        worst: "its 31 KB variant: 500,000 such cells",
        clients: 4,
        requests: 8,
        build: () => ({
          method: "POST",
          path: "/api/suppression-lists",
          ...multipart({}, [{ field: "file", name: "list.xlsx", type: XLSX, data: smallXlsx() }]),
        }),
      },
      {
        name: "list_dots_csv",
        worst: "a 10 MB CSV of the same 320-character cells",
        clients: 4,
        requests: 4,
        build: () => ({
          method: "POST",
          path: "/api/suppression-lists",
          ...multipart({}, [{ field: "file", name: "list.csv", type: "text/csv", data: listCsv() }]),
        }),
      },
    ],
  },
  {
    method: "GET",
    path: "/api/suppression-lists/{id}/availability",
    inputs: [
      {
        name: "availability_100k_list",
        worst: "a 100,000-entry list, 40 at once from its owner, per facet (the review's oracle walk)",
        clients: 40,
        requests: 80,
        build: (context, index) => {
          const list = context.lists[2];
          return {
            method: "GET",
            path: `/api/suppression-lists/${list.id}/availability?categoryId=${context.categoryId}&location=USA${SEGMENTS[index % SEGMENTS.length]}`,
            address: list.address,
          };
        },
      },
    ],
  },
];
