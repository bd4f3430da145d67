// Replacement claims checked again when they arrive (docs/product-rules.md, "Replacement claims"),
// against a DNS server on loopback and the ZeroBounce stand-in: addresses found invalid count, are
// replaced and stop being sellable to anyone; those the provider confirms deliverable do not count;
// the others count and stay sellable to other buyers.
import { afterAll, describe, expect, it } from "vitest";
import { fromAddress } from "../support/client";
import { startDnsServer } from "../support/dns-server";
import { callJson } from "../support/routes";
import { startTestStore } from "../support/store";
import { startZeroBounceStandin } from "../support/zerobounce-standin";
import { paidOrder } from "../support/paid-order";

const dns = await startDnsServer({ zone: { "ok.test": { mx: [{ exchange: "mx.ok.test", priority: 10 }] } } });
const zerobounce = await startZeroBounceStandin();
const store = await startTestStore({
  name: "leadmarket_replacement_checks",
  apiKey: "np-repl-checks",
  ipnSecret: "ipn-repl-checks",
  env: {
    ORDER_CREATE_LIMIT: "0",
    DNS_SERVERS: dns.address,
    EMAIL_VERIFIER_API_KEY: zerobounce.apiKey,
    EMAIL_VERIFIER_API_URL: zerobounce.url,
  },
});
const { standin } = store;

const { POST: claimRoute } = await import("@/app/api/orders/[key]/replacement/route");
const { db, pool } = await import("@/lib/db");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

afterAll(async () => {
  await store.close();
  await dns.close();
  await zerobounce.close();
});

let addresses = 0;
const nextAddress = () => `10.8.${Math.floor(++addresses / 250)}.${addresses % 250}`;

const buy = (categoryId: string) => paidOrder(standin, { categoryId });

async function orderEmails(key: string): Promise<{ lead_id: string; email: string }[]> {
  const { rows } = await pool().query(
    `SELECT ol.lead_id::text AS lead_id, l.email FROM orders o JOIN order_leads ol ON ol.order_id = o.id
       JOIN leads l ON l.id = ol.lead_id WHERE o.download_key = $1 ORDER BY ol.position`,
    [key],
  );
  return rows;
}

describe("a claim checked again", () => {
  it("counts and unsells invalid addresses, does not count confirmed ones, and leaves the rest sellable", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Checked Claims" }, 1300, 51);
    // Every address on a domain the loopback server answers; 30 of the most recent on one it does not.
    await pool().query(`UPDATE leads SET email = 'p' || id || '@ok.test' WHERE category_id = $1`, [category]);
    const key = await buy(category);
    const delivered = await orderEmails(key);
    const gone = delivered.slice(0, 30);
    await pool().query("UPDATE leads SET email = 'p' || id || '@gone.test' WHERE id = ANY($1::bigint[])", [
      gone.map((row) => row.lead_id),
    ]);
    const rejected = delivered.slice(30, 60);
    const unsure = delivered.slice(60, 90);
    const fine = delivered.slice(90, 120);
    for (const row of rejected)
      zerobounce.results.set(row.email, { status: "invalid", sub_status: "mailbox_not_found" });
    for (const row of unsure)
      zerobounce.results.set(row.email, { status: "unknown", sub_status: "timeout_exceeded" });
    const reported = [
      ...gone.map((row) => row.email.replace("@ok.test", "@gone.test")),
      ...[...rejected, ...unsure, ...fine].map((row) => row.email),
    ];
    const countBefore = (await db().category.findUniqueOrThrow({ where: { id: category } })).count;

    const answer = await callJson<Record<string, unknown>>(claimRoute, `/api/orders/${key}/replacement`, {
      params: { key },
      headers: fromAddress(nextAddress()),
      json: { emails: reported },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      accepted: true,
      reported: 120,
      counted: 90,
      replaced: 90,
      shortfall: 0,
      invalidConfirmed: 60,
      heldForReview: 0,
    });
    const deliverable = answer.body.verifiedDeliverable as { email: string; checkedAt: string }[];
    expect(deliverable.map((row) => row.email).sort()).toEqual(fine.map((row) => row.email).sort());
    expect(Number.isNaN(Date.parse(deliverable[0].checkedAt))).toBe(false);
    // Only the addresses our checks left standing went to the provider.
    expect(zerobounce.calls).toEqual(["validatebatch:90"]);

    const statuses = async (rows: { lead_id: string }[]) =>
      (
        await db().lead.findMany({
          where: { id: { in: rows.map((row) => BigInt(row.lead_id)) } },
          select: { emailStatus: true, quarantinedAt: true },
        })
      ).map((lead) => `${lead.emailStatus}${lead.quarantinedAt ? ":quarantined" : ""}`);
    expect(new Set(await statuses([...gone, ...rejected]))).toEqual(new Set(["invalid"]));
    expect(new Set(await statuses(unsure))).toEqual(new Set(["unknown"]));
    expect(new Set(await statuses(fine))).toEqual(new Set(["valid"]));
    expect((await db().verifierMonth.findFirstOrThrow()).invalidFound).toBe(60);
    // The 60 invalid ones left the count; the 30 unconfirmed ones are still for sale.
    expect((await db().category.findUniqueOrThrow({ where: { id: category } })).count).toBe(countBefore - 60);

    // The confirmed rows stay in the buyer's file; the 90 counted ones were swapped.
    const after = await orderEmails(key);
    const kept = new Set(after.map((row) => row.lead_id));
    expect(fine.every((row) => kept.has(row.lead_id))).toBe(true);
    expect([...gone, ...rejected, ...unsure].some((row) => kept.has(row.lead_id))).toBe(false);
  });

  it("counts an address already found invalid as invalid without asking, and never puts it back on sale", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Known Invalid Claims" }, 1200, 52);
    await pool().query(`UPDATE leads SET email = 'p' || id || '@ok.test' WHERE category_id = $1`, [category]);
    const key = await buy(category);
    const delivered = await orderEmails(key);
    // Found invalid after the sale: 40 by a re-check, 20 taken off the shelf by the admin.
    const rechecked = delivered.slice(0, 40);
    const deleted = delivered.slice(40, 60);
    await pool().query(
      `UPDATE leads SET email_status = 'invalid', email_status_reason = 'mailbox_not_found' WHERE id = ANY($1::bigint[])`,
      [rechecked.map((row) => row.lead_id)],
    );
    await pool().query(
      `UPDATE leads SET email_status = 'invalid', email_status_reason = 'reported' WHERE id = ANY($1::bigint[])`,
      [deleted.map((row) => row.lead_id)],
    );
    // The provider would call them deliverable now: it is not asked.
    for (const row of [...rechecked, ...deleted])
      zerobounce.results.set(row.email, { status: "valid", sub_status: "" });
    zerobounce.calls.length = 0;
    const invalidBefore = (await db().verifierMonth.findFirst())?.invalidFound ?? 0;

    const answer = await callJson<Record<string, unknown>>(claimRoute, `/api/orders/${key}/replacement`, {
      params: { key },
      headers: fromAddress(nextAddress()),
      json: { emails: [...rechecked, ...deleted].map((row) => row.email) },
    });
    expect(answer.body).toMatchObject({ counted: 60, replaced: 60, invalidConfirmed: 60, heldForReview: 0 });
    expect(answer.body.verifiedDeliverable).toEqual([]);
    expect(zerobounce.calls).toEqual([]);
    const after = await db().lead.findMany({
      where: { id: { in: [...rechecked, ...deleted].map((row) => BigInt(row.lead_id)) } },
      select: { emailStatus: true, emailStatusReason: true },
    });
    expect(new Set(after.map((lead) => lead.emailStatus))).toEqual(new Set(["invalid"]));
    expect(after.filter((lead) => lead.emailStatusReason === "reported")).toHaveLength(20);
    // Already counted when they were found: not found again.
    expect((await db().verifierMonth.findFirst())?.invalidFound ?? 0).toBe(invalidBefore);
  });
});
