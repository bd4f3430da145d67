// What a replacement claim may cost us (docs/product-rules.md, "Replacement claims"), against the
// ZeroBounce stand-in: the provider's credits (the shared pace, verdicts reused for 24 hours, at
// most 3 attempts an order a day), the 20% cap on everything not confirmed invalid, and buyers'
// reports that put leads in the admin's review without taking them off sale.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STANDING_REFUSAL_HEADER } from "@/lib/http/standing-refusals.mjs";
import { fromAddress } from "../support/client";
import { callJson } from "../support/routes";
import { startTestStore } from "../support/store";
import { startZeroBounceStandin } from "../support/zerobounce-standin";
import { paidOrder } from "../support/paid-order";

const zerobounce = await startZeroBounceStandin();
const store = await startTestStore({
  name: "leadmarket_replacement_budget",
  apiKey: "np-repl-budget",
  ipnSecret: "ipn-repl-budget",
  // No resolver answers the demo domains: every address still standing goes to the provider.
  env: {
    ORDER_CREATE_LIMIT: "0",
    DNS_SERVERS: "off",
    EMAIL_VERIFIER_API_KEY: zerobounce.apiKey,
    EMAIL_VERIFIER_API_URL: zerobounce.url,
    EMAIL_VERIFIER_MONTHLY_LIMIT: "100000",
  },
});
const { standin } = store;

const { POST: claimRoute } = await import("@/app/api/orders/[key]/replacement/route");
const { GET: quarantineList } = await import("@/app/api/admin/categories/quarantine/route");
const { GET: claimsRoute } = await import("@/app/api/admin/categories/[id]/quarantine/claims/route");
const { db, pool } = await import("@/lib/db");
const { signAdminToken } = await import("@/lib/auth/session");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

let token: string;
let addresses = 0;
const nextAddress = () => `10.9.${Math.floor(++addresses / 250)}.${addresses % 250}`;

beforeAll(async () => {
  const admin = await db().admin.create({
    data: { email: "budget-admin@example.com", passwordHash: "x" },
    select: { id: true, passwordChangedAt: true },
  });
  token = await signAdminToken(admin);
});

afterAll(async () => {
  await store.close();
  await zerobounce.close();
});

const buy = (categoryId: string) => paidOrder(standin, { categoryId });

async function orderEmails(key: string): Promise<{ lead_id: string; email: string }[]> {
  const { rows } = await pool().query(
    `SELECT ol.lead_id::text AS lead_id, l.email FROM orders o JOIN order_leads ol ON ol.order_id = o.id
       JOIN leads l ON l.id = ol.lead_id WHERE o.download_key = $1 ORDER BY ol.position`,
    [key],
  );
  return rows;
}

const claim = (key: string, emails: string[]) =>
  callJson<Record<string, unknown>>(claimRoute, `/api/orders/${key}/replacement`, {
    params: { key },
    headers: fromAddress(nextAddress()),
    json: { emails },
  });

/** Addresses the stand-in was sent, in all. */
const sent = () =>
  zerobounce.calls
    .filter((entry) => entry.startsWith("validatebatch:"))
    .reduce((sum, entry) => sum + Number(entry.split(":")[1]), 0);

/** The provider's pace starts idle, as after a quiet minute. */
const idlePace = () => pool().query("DELETE FROM paces");

const categoryCount = async (id: string) => (await db().category.findUniqueOrThrow({ where: { id } })).count;

describe("the provider's credits", () => {
  it("spends at most one pace's worth on 20 claims of 1,000 addresses on one order, and refuses the 4th attempt of the day", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Spent Credits" }, 1100, 61);
    const key = await buy(category);
    const emails = (await orderEmails(key)).map((row) => row.email);
    expect(emails).toHaveLength(1000);
    await idlePace();
    zerobounce.calls.length = 0;

    const statuses: number[] = [];
    let retryAfter: string | null = null;
    let standing: string | null = null;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      // Confirmed deliverable by the provider: nothing counts, every claim is refused.
      const answer = await claim(key, emails);
      statuses.push(answer.status);
      if (answer.status === 429) retryAfter ??= answer.headers.get("retry-after");
      if (answer.status === 429) standing ??= answer.headers.get(STANDING_REFUSAL_HEADER);
    }
    expect(statuses.slice(0, 3)).toEqual([422, 422, 422]);
    expect(new Set(statuses.slice(3))).toEqual(new Set([429]));
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(24 * 3600);
    // Every claim on the order is refused so until then: the custom server gives it again itself.
    expect(standing).toBe("1");
    // Refused before its body is read: an empty list would otherwise be 400.
    expect((await claim(key, [])).status).toBe(429);
    // One minute of the provider's pace (5 batches of 200); the later attempts reused its verdicts.
    expect(zerobounce.calls).toEqual(Array.from({ length: 5 }, () => "validatebatch:200"));
    expect(sent()).toBe(1000);
    expect((await db().verifierMonth.findFirstOrThrow()).sent).toBe(1000);
  });

  it("asks the provider only what the shared pace has room for, the rest counted on the buyer's word", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Paced Claims" }, 1700, 62);
    const key = await buy(category);
    const rows = await orderEmails(key);
    // Half of the pace's minute is already taken (by the re-checks, or another claim).
    await pool().query(
      `INSERT INTO paces (name, next_at) VALUES ('provider-batches', clock_timestamp() + interval '30 seconds')
       ON CONFLICT (name) DO UPDATE SET next_at = clock_timestamp() + interval '30 seconds'`,
    );
    zerobounce.calls.length = 0;
    for (const row of rows) zerobounce.results.set(row.email, { status: "invalid", sub_status: "" });
    const answer = await claim(
      key,
      rows.map((row) => row.email),
    );
    expect(answer.status).toBe(201);
    // Room for 2 batches: 400 found invalid (all replaced), 600 unanswered (200 replaced, 400 held).
    expect(zerobounce.calls).toEqual(["validatebatch:200", "validatebatch:200"]);
    expect(answer.body).toMatchObject({
      counted: 1000,
      invalidConfirmed: 400,
      replaced: 600,
      shortfall: 0,
      heldForReview: 400,
    });
  });
  it("asks the provider nothing once the month's limit is reached: the buyer's word counts within the cap", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Month Spent" }, 1300, 65);
    const key = await buy(category);
    const rows = await orderEmails(key);
    for (const row of rows) zerobounce.results.set(row.email, { status: "invalid", sub_status: "" });
    await pool().query(
      `UPDATE verifier_months SET sent = 99999 WHERE month = date_trunc('month', now() AT TIME ZONE 'UTC')::date`,
    );
    await idlePace();
    zerobounce.calls.length = 0;

    const answer = await claim(
      key,
      rows.map((row) => row.email),
    );
    expect(answer.status).toBe(201);
    expect(zerobounce.calls).toEqual([]);
    expect(answer.body).toMatchObject({
      counted: 1000,
      invalidConfirmed: 0,
      replaced: 200,
      heldForReview: 800,
    });
    const month = await db().verifierMonth.findFirstOrThrow({ orderBy: { month: "desc" } });
    expect(month).toMatchObject({
      sent: 99_999,
      lastError: "The monthly limit of addresses sent to the verification provider was reached",
    });
    // The month's allowance back for the tests after this one.
    await pool().query("UPDATE verifier_months SET sent = 0");
  });
});

describe("the 20% cap", () => {
  it("replaces at most 20% of the order when the provider answers catch-all, and holds the rest", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Catch-all Claims" }, 2200, 63);
    const key = await buy(category);
    const rows = await orderEmails(key);
    for (const row of rows) zerobounce.results.set(row.email, { status: "catch-all", sub_status: "" });
    await idlePace();
    zerobounce.calls.length = 0;
    const countBefore = await categoryCount(category);

    const answer = await claim(
      key,
      rows.map((row) => row.email),
    );
    expect(answer.status).toBe(201);
    expect(sent()).toBe(1000);
    expect(answer.body).toMatchObject({
      counted: 1000,
      invalidConfirmed: 0,
      replaced: 200,
      shortfall: 0,
      heldForReview: 800,
    });
    const after = await orderEmails(key);
    expect(after).toHaveLength(1000);
    expect(after.filter((row, index) => row.lead_id !== rows[index].lead_id)).toHaveLength(200);
    // Catch-all is no proof of anything: the reported leads are still on sale.
    expect(await categoryCount(category)).toBe(countBefore);
  });
});

describe("buyers' reports", () => {
  it("never take a lead off sale: reports from two orders flag it for the admin's review", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Overlapping Orders" }, 1300, 64);
    const first = await buy(category);
    const second = await buy(category);
    const firstRows = await orderEmails(first);
    const secondRows = await orderEmails(second);
    const inFirst = new Set(firstRows.map((row) => row.lead_id));
    const overlap = secondRows.filter((row) => inFirst.has(row.lead_id));
    expect(overlap.length).toBeGreaterThan(500);
    // The provider cannot tell: every report stands on the buyer's word.
    for (const row of [...firstRows, ...secondRows])
      zerobounce.results.set(row.email, { status: "unknown", sub_status: "" });
    const countBefore = await categoryCount(category);

    for (const [key, rows] of [
      [first, firstRows],
      [second, secondRows],
    ] as const) {
      await idlePace();
      const answer = await claim(
        key,
        rows.map((row) => row.email),
      );
      expect(answer.status).toBe(201);
    }

    // Still on sale for everyone: the count has not moved, and nothing is quarantined.
    expect(await categoryCount(category)).toBe(countBefore);
    const { rows: offSale } = await pool().query(
      "SELECT 1 FROM leads WHERE category_id = $1 AND NOT lead_sellable(quarantined_at, email_status, notice_status)",
      [category],
    );
    expect(offSale).toHaveLength(0);
    // In the admin's review, flagged: the category's card counts them, the second claim lists them.
    const counts = await callJson<{ categoryId: string; flagged: number; held: number }[]>(
      quarantineList,
      "/x",
      { token },
    );
    expect(counts.body.find((entry) => entry.categoryId === category)).toEqual({
      categoryId: category,
      flagged: overlap.length,
      held: 1600,
    });
    type Listed = {
      flagged: number;
      leads: { leadId: string; flagged: boolean; reportedByOrders: number }[];
    };
    const listed = await callJson<Listed[]>(claimsRoute, "/x", { token, params: { id: category } });
    expect(listed.body.map((entry) => entry.flagged)).toEqual([overlap.length, overlap.length]);
    const flaggedLeads = listed.body[0].leads.filter((lead) => lead.flagged);
    expect(flaggedLeads.length).toBeGreaterThan(0);
    expect(flaggedLeads.every((lead) => lead.reportedByOrders === 2)).toBe(true);
  });
});
