// Location and freshness (docs/product-rules.md, "Location" and "Freshness"): per-country counts and
// availability, orders that deliver only their country's leads, empty categories kept out of the
// public catalogue, and the 30-day share and last import kept by the day aggregate. Own database.
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setPrivacyNotices } from "../support/notices";
import { createTestDatabase } from "../support/database";
import { fromAddress } from "../support/client";
import { call, callJson } from "../support/routes";

const database = await createTestDatabase("leadmarket_loc");
Object.assign(process.env, { DATABASE_URL: database.url, PAYMENTS_TEST_MODE: "1" });
delete process.env.NOWPAYMENTS_API_KEY;

const { POST: create } = await import("@/app/api/payment/create/route");
const { GET: status } = await import("@/app/api/payment/status/[id]/route");
const { POST: testPay } = await import("@/app/api/payment/test/[id]/route");
const { GET: download } = await import("@/app/api/leads/download/[key]/route");
const { GET: getCategories } = await import("@/app/api/categories/route");
const { GET: getCategory } = await import("@/app/api/categories/[id]/route");
const { GET: filterLeads } = await import("@/app/api/leads/filter/route");
const { POST: claim } = await import("@/app/api/orders/[key]/replacement/route");
const { default: sitemap } = await import("@/app/sitemap");
const { db, pool, copyPool } = await import("@/lib/db");
const { listAllCategories } = await import("@/lib/categories/public");
const { importLeadsCsv } = await import("@/lib/leads/import");
const { insertLeads } = await import("@/lib/leads/insert");
const { createCategoryWithLeads, makeLeads } = await import("@/prisma/demo-data");

type Category = {
  _id: string;
  count: number;
  countByLocation: { USA: number; UK: number };
  verifiedRecentlyPercent: number;
  verifiedRecentlyPercentByLocation: { USA: number; UK: number };
  updatedAt: string | null;
};

let mixed: string;
let ukOnly: string;
let empty: string;

beforeAll(async () => {
  // UK rows sell from their import here (privacy-notices.test.ts has the notices).
  await setPrivacyNotices(pool(), false);
  mixed = await createCategoryWithLeads(pool(), { title: "Loc Mixed" }, { usa: 1_100, uk: 1_050 }, 51);
  ukOnly = await createCategoryWithLeads(pool(), { title: "Loc UK" }, { usa: 0, uk: 300 }, 52);
  empty = await createCategoryWithLeads(pool(), { title: "Loc Empty" }, 0, 53);
});

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
  await copyPool().end();
  await database.drop();
});

let addresses = 0;
const nextAddress = () => `10.7.0.${++addresses}`;

function createOrder(json: Record<string, unknown>) {
  return callJson<{
    paymentId: string;
    invoiceUrl: string;
    message?: string;
    errors?: Record<string, string>;
  }>(create, "/api/payment/create", { json, headers: fromAddress(nextAddress()) });
}

async function categoryById(id: string): Promise<Category> {
  const { status: code, body } = await callJson<Category>(getCategory, "/api/categories/x", {
    params: { id },
  });
  expect(code).toBe(200);
  return body;
}

/** Buys and pays through the test provider; answers the download key and the return address. */
async function buy(categoryId: string, location?: string) {
  const created = await createOrder({
    categoryId,
    packageType: "starter",
    ...(location ? { location } : {}),
  });
  expect(created.status).toBe(200);
  const key = created.body.paymentId;
  const invoiceId = new URL(created.body.invoiceUrl).pathname.split("/").at(-1)!;
  const paid = await call(testPay, `/api/payment/test/${invoiceId}`, {
    params: { id: invoiceId },
    body: new URLSearchParams({ action: "pay" }),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  const back = new URL(paid.headers.get("location")!);
  const npId = back.searchParams.get("NP_id")!;
  const answer = await callJson(status, `/api/payment/status/${key}?NP_id=${npId}`, { params: { id: key } });
  expect(answer.body).toMatchObject({ paid: true });
  return { key, back };
}

async function column(key: string, name: string): Promise<string[]> {
  const response = await call(download, `/api/leads/download/${key}`, { params: { key } });
  expect(response.status).toBe(200);
  const [header, ...rows] = (await response.text())
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  const index = header.split(",").indexOf(name);
  return rows.map((row) => row.split(",")[index]);
}

const countries = (key: string) => column(key, "Country");

describe("the test payment page", () => {
  it("refuses a form body past 1 KB with 413, and the invoice can still be paid", async () => {
    const created = await createOrder({ categoryId: mixed, packageType: "starter" });
    const invoiceId = new URL(created.body.invoiceUrl).pathname.split("/").at(-1)!;
    const huge = await call(testPay, `/api/payment/test/${invoiceId}`, {
      params: { id: invoiceId },
      body: `action=pay&${"x=1&".repeat(256 * 1024)}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(huge.status).toBe(413);
    const paid = await call(testPay, `/api/payment/test/${invoiceId}`, {
      params: { id: invoiceId },
      body: new URLSearchParams({ action: "pay" }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(paid.status).toBe(303);
  });
});

describe("location", () => {
  it("answers counts per country on the list and on one category", async () => {
    const { body } = await callJson<Category[]>(getCategories, "/api/categories");
    expect(body.find((category) => category._id === mixed)).toMatchObject({
      count: 2_150,
      countByLocation: { USA: 1_100, UK: 1_050 },
    });
    expect((await categoryById(ukOnly)).countByLocation).toEqual({ USA: 0, UK: 300 });
  });

  it("sells a package only where the country has enough leads", async () => {
    const ukShort = await createOrder({ categoryId: ukOnly, packageType: "starter", location: "UK" });
    expect(ukShort.status).toBe(409);
    expect(ukShort.body.message).toContain(
      "Loc UK has 300 leads in the United Kingdom, fewer than the 1,000",
    );
    const usaNone = await createOrder({ categoryId: ukOnly, packageType: "starter" });
    expect(usaNone.status).toBe(409);
    expect(usaNone.body.message).toContain("Loc UK has 0 leads, fewer than the 1,000");
    const standard = await createOrder({ categoryId: mixed, packageType: "standard", location: "UK" });
    expect(standard.status).toBe(409);
  });

  it("refuses a location other than USA or UK", async () => {
    for (const location of ["uk", "DE", "", 7]) {
      const answer = await createOrder({ categoryId: mixed, packageType: "starter", location });
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual({ location: "Choose USA or UK" });
    }
    const filter = await callJson(filterLeads, `/api/leads/filter?category=${mixed}&location=FR`);
    expect(filter.status).toBe(400);
  });

  it("delivers a UK order only UK leads and a USA order (the default) only USA leads", async () => {
    const uk = await buy(mixed, "UK");
    expect(uk.back.searchParams.get("location")).toBe("UK");
    const ukRows = await countries(uk.key);
    expect(ukRows).toHaveLength(1_000);
    expect(new Set(ukRows)).toEqual(new Set(["UK"]));

    const usa = await buy(mixed);
    expect(usa.back.searchParams.has("location")).toBe(false);
    const usaRows = await countries(usa.key);
    expect(usaRows).toHaveLength(1_000);
    expect(new Set(usaRows)).toEqual(new Set(["USA"]));
    const stored = await pool().query("SELECT location::text FROM orders WHERE download_key = $1", [usa.key]);
    expect(stored.rows[0].location).toBe("USA");

    // A delivered lead edited into another country since is no longer part of the UK file.
    await pool().query(
      `UPDATE leads SET country = 'USA' WHERE id = (
         SELECT ol.lead_id FROM order_leads ol JOIN orders o ON o.id = ol.order_id
         WHERE o.download_key = $1 ORDER BY ol.position LIMIT 1)`,
      [uk.key],
    );
    expect(await countries(uk.key)).toHaveLength(999);
    expect((await categoryById(mixed)).countByLocation).toEqual({ USA: 1_101, UK: 1_049 });
  });

  it("replaces reported leads of a UK order with UK leads only", async () => {
    const both = await createCategoryWithLeads(pool(), { title: "Loc Claim" }, { usa: 1_200, uk: 1_100 }, 54);
    const { key } = await buy(both, "UK");
    const reported = (await column(key, "Email")).slice(0, 60);
    const answer = await callJson<{ replaced: number; shortfall: number }>(
      claim,
      `/api/orders/${key}/replacement`,
      { params: { key }, json: { emails: reported }, headers: fromAddress(nextAddress()) },
    );
    expect(answer.status).toBe(201);
    // 100 UK leads were left outside the order, and 1,200 USA ones that must not be used.
    expect(answer.body).toMatchObject({ replaced: 60, shortfall: 0 });
    const after = await countries(key);
    expect(after).toHaveLength(1_000);
    expect(new Set(after)).toEqual(new Set(["UK"]));
  });

  it("previews one country's leads when asked", async () => {
    const { body } = await callJson<{ leads: { country: string }[]; total: number }>(
      filterLeads,
      `/api/leads/filter?category=${mixed}&location=UK&pageSize=100`,
    );
    expect(body.total).toBe(1_049);
    expect(new Set(body.leads.map((lead) => lead.country))).toEqual(new Set(["UK"]));
  });

  it("keeps an empty category out of the public catalogue, not out of the admin's", async () => {
    const { body } = await callJson<Category[]>(getCategories, "/api/categories");
    expect(body.some((category) => category._id === empty)).toBe(false);
    const one = await callJson(getCategory, "/api/categories/x", { params: { id: empty } });
    expect(one.status).toBe(404);
    expect((await callJson(filterLeads, `/api/leads/filter?category=${empty}`)).status).toBe(404);
    expect((await createOrder({ categoryId: empty, packageType: "starter" })).status).toBe(404);
    const urls = (await sitemap()).map((entry) => entry.url);
    expect(urls.some((url) => url.endsWith(`/category/${empty}`))).toBe(false);
    expect(urls.some((url) => url.endsWith(`/category/${mixed}`))).toBe(true);
    expect((await listAllCategories()).some((category) => category._id === empty)).toBe(true);
  });
});

describe("freshness", () => {
  const DAY = 24 * 3600 * 1000;
  // Midday UTC today, so "n days ago" lands on the n-th UTC day before today.
  const noon = new Date(new Date().toISOString().slice(0, 10) + "T12:00:00Z");
  const daysAgo = (days: number) => new Date(noon.getTime() - days * DAY);

  function leadsVerified(country: "USA" | "UK", days: number[], seed: number) {
    return makeLeads(days.length, { country, seed }).map((lead, index) => ({
      ...lead,
      verifiedAt: daysAgo(days[index]),
    }));
  }

  it("gives the whole-percent share verified in the last 30 days, per country, and the last import", async () => {
    const id = await createCategoryWithLeads(pool(), { title: "Loc Fresh" }, 0, 60);
    expect((await listAllCategories()).find((category) => category._id === id)?.updatedAt).toBeNull();
    const before = Date.now();
    // USA: 0, 10 and 29 days ago are recent, 30 and 45 are not; UK: 5 is, 40, 41 and 90 are not.
    await insertLeads(pool(), id, leadsVerified("USA", [0, 10, 29, 30, 45], 61));
    await insertLeads(pool(), id, leadsVerified("UK", [5, 40, 41, 90], 62));
    const first = await categoryById(id);
    expect(first.verifiedRecentlyPercentByLocation).toEqual({ USA: 60, UK: 25 });
    expect(first.verifiedRecentlyPercent).toBe(44); // 4 of 9, rounded down
    expect(new Date(first.updatedAt!).getTime()).toBeGreaterThanOrEqual(before - 1000);

    // An import of three fresh UK rows moves both figures.
    const csv = [
      "first_name,last_name,email,country,verified_at",
      `Ann,One,ann@fresh.co.uk,UK,${daysAgo(1).toISOString()}`,
      `Bob,Two,bob@fresh.co.uk,UK,${daysAgo(2).toISOString()}`,
      `Cat,Three,cat@fresh.co.uk,UK,${daysAgo(3).toISOString()}`,
    ].join("\n");
    const report = await importLeadsCsv(id, Readable.from([Buffer.from(csv)]));
    expect(report.imported).toBe(3);
    const second = await categoryById(id);
    expect(second.countByLocation).toEqual({ USA: 5, UK: 7 });
    expect(second.verifiedRecentlyPercentByLocation).toEqual({ USA: 60, UK: 57 });
    expect(second.verifiedRecentlyPercent).toBe(58); // 7 of 12
    expect(new Date(second.updatedAt!).getTime()).toBeGreaterThan(new Date(first.updatedAt!).getTime());

    // Deleting leads (as an erasure does) keeps the figures exact.
    await pool().query("DELETE FROM leads WHERE category_id = $1 AND verified_at < $2", [id, daysAgo(35)]);
    const third = await categoryById(id);
    expect(third.countByLocation).toEqual({ USA: 4, UK: 4 });
    expect(third.verifiedRecentlyPercentByLocation).toEqual({ USA: 75, UK: 100 });
  });

  it("leaves quarantined leads out of the counts until they are released", async () => {
    const before = await categoryById(mixed);
    const quarantine = (flag: boolean) =>
      pool().query(
        `UPDATE leads SET quarantined_at = ${flag ? "now()" : "NULL"}
         WHERE id IN (SELECT id FROM leads WHERE category_id = $1 AND country = 'UK' ORDER BY id LIMIT 3)`,
        [mixed],
      );
    await quarantine(true);
    expect((await categoryById(mixed)).countByLocation).toEqual({
      USA: before.countByLocation.USA,
      UK: before.countByLocation.UK - 3,
    });
    await quarantine(false);
    expect((await categoryById(mixed)).countByLocation).toEqual(before.countByLocation);
  });

  it("reads the aggregate and the counts, which match a count over the sellable leads for every category", async () => {
    const { rows } = await pool().query<{ mismatches: number }>(`
      SELECT count(*)::int AS mismatches FROM (
        SELECT category_id, country, (verified_at AT TIME ZONE 'UTC')::date AS day, email_status,
               count(*)::int AS leads
        FROM leads WHERE lead_sellable(quarantined_at, email_status, notice_status) GROUP BY 1, 2, 3, 4
      ) actual FULL JOIN category_lead_days d
        ON d.category_id = actual.category_id AND d.country = actual.country AND d.verified_on = actual.day
       AND d.email_status = actual.email_status
      WHERE actual.leads IS DISTINCT FROM d.leads`);
    expect(rows[0].mismatches).toBe(0);
    const counts = await pool().query<{ mismatches: number }>(`
      SELECT count(*)::int AS mismatches FROM categories c
      WHERE c.count <> (SELECT count(*) FROM leads l
                        WHERE l.category_id = c.id AND lead_sellable(l.quarantined_at, l.email_status, l.notice_status))`);
    expect(counts.rows[0].mismatches).toBe(0);
  });
});
