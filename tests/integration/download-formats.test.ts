// The download's formats on one paid premium order whose leads are rewritten to fixed values (so
// the file's bytes do not depend on which leads allocation picked): CSV and Excel byte for byte as
// before the CRM and JSON formats were added (their SHA-256, taken from the code before that
// change), and every format read back by a real reader with the same rows in the same order.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../support/database";
import { fromAddress } from "../support/client";
import { call, callJson } from "../support/routes";

// The workbook's ZIP entries carry the local time they were written at.
process.env.TZ = "UTC";
const database = await createTestDatabase("leadmarket_formats");
Object.assign(process.env, {
  DATABASE_URL: database.url,
  PAYMENTS_TEST_MODE: "1",
  DOWNLOAD_IDLE_SECONDS: "2",
});
delete process.env.NOWPAYMENTS_API_KEY;

const { POST: create } = await import("@/app/api/payment/create/route");
const { GET: status } = await import("@/app/api/payment/status/[id]/route");
const { POST: testPay } = await import("@/app/api/payment/test/[id]/route");
const { GET: download } = await import("@/app/api/leads/download/[key]/route");
const { copyPool, db, pool } = await import("@/lib/db");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");
const { NASTY_CELLS } = await import("../support/nasty-cells");

let key: string;

/** Buys a premium order of `categoryId` through the test provider; its download key. */
async function buyPremium(categoryId: string): Promise<string> {
  const created = await callJson<{ paymentId: string; invoiceUrl: string }>(create, "/api/payment/create", {
    json: { categoryId, packageType: "premium" },
    headers: fromAddress("10.9.0.1"),
  });
  expect(created.status).toBe(200);
  const invoiceId = new URL(created.body.invoiceUrl).pathname.split("/").at(-1)!;
  const paid = await call(testPay, `/api/payment/test/${invoiceId}`, {
    params: { id: invoiceId },
    body: new URLSearchParams({ action: "pay" }),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  const npId = new URL(paid.headers.get("location")!).searchParams.get("NP_id")!;
  const paymentId = created.body.paymentId;
  const answer = await callJson(status, `/api/payment/status/${paymentId}?NP_id=${npId}`, {
    params: { id: paymentId },
  });
  expect(answer.body).toMatchObject({ paid: true });
  return paymentId;
}

beforeAll(async () => {
  const category = await createCategoryWithLeads(pool(), { title: "Formats" }, 20_000, 41);
  key = await buyPremium(category);
  // Every delivered lead gets values fixed by its position: the first ones the awkward cells
  // (quotes, separators, formula signs, line breaks, non-ASCII), one per column and lead, and the
  // email statuses in turn.
  await pool().query(
    `WITH nasty AS (SELECT value, ordinality - 1 AS at FROM unnest($2::text[]) WITH ORDINALITY AS n(value)),
          delivered AS (
            SELECT ol.lead_id, ol.position AS p FROM order_leads ol JOIN orders o ON o.id = ol.order_id
            WHERE o.download_key = $1)
     UPDATE leads l SET
       first_name = coalesce((SELECT value FROM nasty WHERE at = d.p % $3 AND d.p < 200), 'First ' || d.p),
       last_name = coalesce((SELECT value FROM nasty WHERE at = (d.p + 1) % $3 AND d.p < 200), 'Last-' || d.p),
       job_title = coalesce((SELECT value FROM nasty WHERE at = (d.p + 2) % $3 AND d.p < 200), 'Head of Ops'),
       company = coalesce((SELECT value FROM nasty WHERE at = (d.p + 3) % $3 AND d.p < 200), 'Acme ' || (d.p % 97)),
       email = 'lead' || d.p || '@golden.test',
       email_status = (ARRAY['valid', 'accept_all', 'unknown', 'invalid'])[d.p % 4 + 1]::"EmailStatus",
       phone = coalesce((SELECT value FROM nasty WHERE at = (d.p + 4) % $3 AND d.p < 200), '+1 (212) 555-' || lpad((d.p % 10000)::text, 4, '0')),
       city = coalesce((SELECT value FROM nasty WHERE at = (d.p + 5) % $3 AND d.p < 200), 'Zürich'),
       state = CASE WHEN d.p % 5 = 0 THEN '' ELSE 'NY' END,
       profile_url = 'https://www.linkedin.com/in/lead-' || d.p,
       industry = coalesce((SELECT value FROM nasty WHERE at = (d.p + 6) % $3 AND d.p < 200), 'Software'),
       company_size = '51-200',
       seniority = 'Director',
       department = 'Sales',
       company_website = CASE WHEN d.p % 3 = 0 THEN '' ELSE 'https://acme.example' END,
       company_revenue = '10M-50M',
       verified_at = timestamptz '2026-01-01 00:00:00+00' + d.p * interval '1 minute'
     FROM delivered d WHERE l.id = d.lead_id`,
    [key, NASTY_CELLS, NASTY_CELLS.length],
  );
});

afterAll(async () => {
  vi.useRealTimers();
  await db().$disconnect();
  await pool().end();
  await copyPool().end();
  await database.drop();
});

async function fetchFile(format?: string) {
  const query = format ? `?format=${format}` : "";
  const response = await call(download, `/api/leads/download/${key}${query}`, { params: { key } });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("csv and xlsx", () => {
  it("are byte for byte what they were before the other formats", async () => {
    const csv = await fetchFile();
    expect(csv.response.status).toBe(200);
    expect(csv.bytes.length).toBeGreaterThan(1_000_000);
    expect(sha256(csv.bytes)).toBe("dc2a5a5951397c29b79cd3446390edfbe6850cf0cc350dcdfdf638f632b49ed9");
    expect(sha256((await fetchFile("csv")).bytes)).toBe(
      "dc2a5a5951397c29b79cd3446390edfbe6850cf0cc350dcdfdf638f632b49ed9",
    );
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-04T05:06:08Z"));
    try {
      const xlsx = await fetchFile("xlsx");
      expect(xlsx.response.status).toBe(200);
      expect(sha256(xlsx.bytes)).toBe("865cf33c0aecc9b3e3038bf5b48e835d7fe76c184e6f03c1f31bd0e3f8635796");
    } finally {
      vi.useRealTimers();
    }
  });
});
