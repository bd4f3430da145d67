// Files that heal (docs/product-rules.md) against PostgreSQL, the NOWPayments stand-in and a real
// SMTP server: a sold lead found invalid is swapped in place in the files of orders paid in the last
// 30 days, under the order's own rules, without touching its replacement claim; the buyer hears of
// it at most once a day; rows the category cannot fill are recorded once; many orders of one
// category are healed together exactly as one at a time; a download during the swaps reads each
// file whole before or after.
import { afterAll, describe, expect, it } from "vitest";
import { fromAddress } from "../support/client";
import { paidOrder } from "../support/paid-order";
import { call, callJson } from "../support/routes";
import { startTestStore } from "../support/store";
import type { Tx } from "@/lib/db";
import type { Delivered } from "@/lib/orders/replacement/swap";

const store = await startTestStore({
  name: "leadmarket_heal",
  apiKey: "np-heal-key",
  ipnSecret: "ipn-heal",
  env: { ORDER_CREATE_LIMIT: "0", DNS_SERVERS: "off" },
});
const { standin, smtp } = store;

const { GET: download } = await import("@/app/api/leads/download/[key]/route");
const { GET: orderApi } = await import("@/app/api/orders/[key]/route");
const { db, pool, transaction } = await import("@/lib/db");
const { healOrders } = await import("@/lib/orders/heal");
const { lockFreeOrders, swapForFresh } = await import("@/lib/orders/replacement/swap");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

afterAll(store.close);

const DAY_MS = 24 * 3600 * 1000;
let addresses = 0;
const nextAddress = () => `10.9.${Math.floor(++addresses / 250)}.${addresses % 250}`;

type Row = { position: number; lead_id: string; email: string; status: string };

async function orderRows(key: string): Promise<Row[]> {
  const { rows } = await pool().query<Row>(
    `SELECT ol.position, ol.lead_id::text AS lead_id, l.email, l.email_status::text AS status
       FROM orders o JOIN order_leads ol ON ol.order_id = o.id JOIN leads l ON l.id = ol.lead_id
      WHERE o.download_key = $1 ORDER BY ol.position`,
    [key],
  );
  return rows;
}

/** What a check does: the leads' status becomes invalid (one statement, as the re-checks write it). */
async function findInvalid(rows: Row[]): Promise<void> {
  await pool().query(`UPDATE leads SET email_status = 'invalid' WHERE id = ANY($1::bigint[])`, [
    rows.map((row) => row.lead_id),
  ]);
}

/** How many of the rows' leads wait in the heal queue. */
async function queued(rows: Row[]): Promise<number> {
  const { rowCount } = await pool().query(
    "SELECT 1 FROM invalidated_leads WHERE lead_id = ANY($1::bigint[])",
    [rows.map((row) => row.lead_id)],
  );
  return rowCount ?? 0;
}

async function csvOf(key: string): Promise<string[]> {
  const response = await call(download, `/api/leads/download/${key}`, {
    params: { key },
    headers: fromAddress(nextAddress()),
  });
  expect(response.status).toBe(200);
  return (await response.text()).trim().split("\n").slice(1);
}

type Summary = {
  swaps: { replaced: number; notReplaced: number; latest: { row: number; replaced: boolean }[] };
};

async function summaryOf(key: string): Promise<Summary> {
  const answer = await callJson<Summary>(orderApi, `/api/orders/${key}`, {
    params: { key },
    headers: fromAddress(nextAddress()),
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** The rows of the orders (by id), as "order:position" -> lead id, read on `tx`. */
async function leadsAt(orderIds: string[], tx: Tx = db()): Promise<Map<string, string>> {
  const rows = await tx.$queryRaw<{ at: string; lead_id: string }[]>`
    SELECT order_id || ':' || position AS at, lead_id::text FROM order_leads WHERE order_id = ANY(${orderIds}::uuid[])`;
  return new Map(rows.map((row) => [row.at, row.lead_id]));
}

/**
 * The orders' rows once their invalid rows are swapped one order at a time, each by swapForFresh
 * (a claim's swap), in the order a heal takes them; all of it rolled back.
 */
async function swappedOneAtATime(orderIds: string[]): Promise<Map<string, string>> {
  let swapped = new Map<string, string>();
  const rolledBack = new Error("rolled back");
  await transaction(async (tx) => {
    for (const order of await lockFreeOrders(tx, orderIds, new Date(Date.now() - 30 * DAY_MS))) {
      const rows = await tx.$queryRaw<Delivered[]>`
        SELECT ol.position, ol.lead_id, l.email, l.email_status::text, l.provider_checked_at
          FROM order_leads ol JOIN leads l ON l.id = ol.lead_id
         WHERE ol.order_id = ${order.id}::uuid AND l.email_status = 'invalid' ORDER BY ol.position`;
      await swapForFresh(
        tx,
        order,
        rows,
        rows.map((row) => row.email),
      );
    }
    swapped = await leadsAt(orderIds, tx);
    throw rolledBack;
  }).catch((error: unknown) => {
    if (error !== rolledBack) throw error;
  });
  return swapped;
}

const heals = async (key: string) =>
  (
    await pool().query<{ old: string; fresh: string | null }>(
      `SELECT h.old_lead_id::text AS old, h.new_lead_id::text AS fresh FROM order_heals h
         JOIN orders o ON o.id = h.order_id WHERE o.download_key = $1`,
      [key],
    )
  ).rows;

describe("files that heal", () => {
  it("swaps invalid rows in place, leaves the claim alone and mails the buyer at most once a day", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Healing Leads" }, 3000, 71);
    const email = "healed-buyer@example.com";
    const key = await paidOrder(standin, { categoryId: category, email });
    const before = await orderRows(key);
    const invalid = [before[4], before[500], before[999]];
    await findInvalid(invalid);
    expect(await queued(invalid)).toBe(3);

    expect(await healOrders()).toBe(3);
    const after = await orderRows(key);
    expect(after).toHaveLength(1000);
    const heldBefore = new Set(before.map((row) => row.lead_id));
    for (const row of invalid) {
      const swapped = after.find((one) => one.position === row.position)!;
      expect(swapped.lead_id).not.toBe(row.lead_id);
      expect(heldBefore.has(swapped.lead_id)).toBe(false);
      expect(swapped.status).not.toBe("invalid");
    }
    // Every other row is as delivered.
    expect(after.filter((row, index) => row.lead_id !== before[index].lead_id)).toHaveLength(3);
    const file = await csvOf(key);
    expect(file).toHaveLength(1000);
    for (const row of invalid) expect(file.join("\n")).not.toContain(row.email);

    // The buyer's one claim is untouched: no claim, no attempt counted.
    const order = await db().order.findUniqueOrThrow({
      where: { downloadKey: key },
      select: { claimAttempts: true, replacement: { select: { id: true } } },
    });
    expect(order.replacement).toBeNull();
    expect(order.claimAttempts).toEqual([]);
    const summary = await summaryOf(key);
    expect(summary.swaps).toMatchObject({ replaced: 3, notReplaced: 0 });
    expect(summary.swaps.latest.map((swap) => swap.row).sort((a, b) => a - b)).toEqual(
      invalid.map((row) => row.position),
    );

    const mail = await smtp.waitFor(
      (m) => m.subject === "3 leads in your order were found invalid and replaced",
    );
    expect([mail.to].flat()[0]?.text).toBe(email);
    expect(mail.text).toContain(`/order/${key}`);

    // Two more the same day: swapped at once, told about the next day.
    await findInvalid([after[10], after[11]]);
    expect(await healOrders()).toBe(2);
    const mailed = await db().order.findUniqueOrThrow({
      where: { downloadKey: key },
      select: { healMailedAt: true },
    });
    expect(await healOrders(new Date(Date.now() + 2 * 3600 * 1000))).toBe(0);
    expect(
      (await db().order.findUniqueOrThrow({ where: { downloadKey: key }, select: { healMailedAt: true } }))
        .healMailedAt,
    ).toEqual(mailed.healMailedAt);
    await healOrders(new Date(Date.now() + DAY_MS + 60_000));
    await smtp.waitFor((m) => m.subject === "2 leads in your order were found invalid and replaced");
    expect((await summaryOf(key)).swaps.replaced).toBe(5);
  });

  it("never gives the buyer's earlier purchases, and records rows it cannot fill once", async () => {
    // 2,050 leads: the buyer's two orders take 2,000 of them, which leaves 50 fresh ones.
    const category = await createCategoryWithLeads(pool(), { title: "Short Healing Leads" }, 2050, 72);
    const email = "twice-buyer@example.com";
    const first = await paidOrder(standin, { categoryId: category, email });
    const second = await paidOrder(standin, { categoryId: category, email });
    const bought = new Set((await orderRows(first)).map((row) => row.lead_id));
    const rows = await orderRows(second);
    await findInvalid(rows.slice(0, 60));

    expect(await healOrders()).toBe(50);
    const after = await orderRows(second);
    const swapped = after.filter((row, index) => row.lead_id !== rows[index].lead_id);
    expect(swapped).toHaveLength(50);
    for (const row of swapped) expect(bought.has(row.lead_id)).toBe(false);
    const recorded = await heals(second);
    expect(recorded).toHaveLength(60);
    expect(recorded.filter((row) => row.fresh === null)).toHaveLength(10);
    expect((await summaryOf(second)).swaps).toMatchObject({ replaced: 50, notReplaced: 10 });

    // Not tried again, and the queue is empty of them.
    expect(await healOrders()).toBe(0);
    expect(await heals(second)).toHaveLength(60);
    expect(await queued(rows.slice(0, 60))).toBe(0);
  });

  it("shares the work between two instances, across categories, swapping each row once", async () => {
    const first = await createCategoryWithLeads(pool(), { title: "Shared Healing Leads" }, 2200, 75);
    const second = await createCategoryWithLeads(pool(), { title: "Other Healing Leads" }, 1100, 76);
    const keys = [
      await paidOrder(standin, { categoryId: first }),
      await paidOrder(standin, { categoryId: first }),
      await paidOrder(standin, { categoryId: second }),
    ];
    const before = await Promise.all(keys.map(orderRows));
    for (const rows of before) await findInvalid(rows.slice(0, 2));

    const passes = await Promise.all([healOrders(), healOrders()]);
    expect(passes[0] + passes[1]).toBe(6);
    const fresh: string[] = [];
    for (const [index, key] of keys.entries()) {
      const recorded = await heals(key);
      expect(recorded).toHaveLength(2);
      fresh.push(...recorded.map((row) => row.fresh!));
      const after = await orderRows(key);
      expect(after.filter((row, at) => row.lead_id !== before[index][at].lead_id)).toHaveLength(2);
    }
    // No fresh lead went to two orders, nor twice to one.
    expect(new Set(fresh).size).toBe(6);
  });

  it("heals many orders of one category together exactly as one order at a time", async () => {
    // 4,400 leads: four orders take 4,000, which leaves 400 fresh ones for their 520 invalid rows
    // (more than one statement ranks, RANKED_ROWS of lib/orders/replacement/swap.ts), so the orders
    // healed last take sold leads. Two orders are one buyer's.
    const category = await createCategoryWithLeads(pool(), { title: "Crowded Healing Leads" }, 4400, 77);
    const keys = [
      await paidOrder(standin, { categoryId: category, email: "again@example.com" }),
      await paidOrder(standin, { categoryId: category, email: "again@example.com" }),
      await paidOrder(standin, { categoryId: category, email: "elsewhere@example.com" }),
      await paidOrder(standin, { categoryId: category, email: "listed@example.com" }),
    ];
    const { rows: orders } = await pool().query<{ id: string }>(
      "SELECT id::text FROM orders WHERE download_key = ANY($1) ORDER BY array_position($1, download_key)",
      [keys],
    );
    const ids = orders.map((order) => order.id);
    const freshest = (offset: number, limit: number) =>
      pool().query<{ id: string; email: string }>(
        `SELECT id::text, email FROM leads l WHERE category_id = $1
            AND NOT EXISTS (SELECT 1 FROM lead_sales s WHERE s.lead_id = l.id)
          ORDER BY verified_at DESC, id OFFSET $2 LIMIT $3`,
        [category, offset, limit],
      );
    // The third buyer bought 50 of the freshest people in another category; the fourth order's
    // list names the next 100.
    const boughtElsewhere = (await freshest(0, 50)).rows;
    const other = await createCategoryWithLeads(pool(), { title: "Elsewhere Healing Leads" }, 1000, 78);
    await pool().query(
      `INSERT INTO leads (category_id, first_name, last_name, email, country, verified_at)
       SELECT $1, first_name, last_name, email, country, now() FROM leads WHERE id = ANY($2::bigint[])`,
      [other, boughtElsewhere.map((lead) => lead.id)],
    );
    await paidOrder(standin, { categoryId: other, email: "elsewhere@example.com" });
    const listed = (await freshest(50, 100)).rows;
    await pool().query(
      `WITH list AS (
         INSERT INTO suppression_lists (owner, expires_at, entries, emails, domains, hashes, ignored, email_keys, domain_keys)
         SELECT 'heal-test', now() + interval '30 days', 100, 100, 0, 0, 0,
                ARRAY(SELECT email_hash FROM leads WHERE id = ANY($1::bigint[])), '{}'
         RETURNING id)
       UPDATE orders SET suppression_list_id = (SELECT id FROM list) WHERE id = $2::uuid`,
      [listed.map((lead) => lead.id), ids[3]],
    );
    const fresh = new Set((await freshest(0, 400)).rows.map((lead) => lead.id));
    const before = await Promise.all(keys.map(orderRows));
    for (const rows of before) await findInvalid(rows.slice(0, 130));

    const expected = await swappedOneAtATime(ids);
    expect(await healOrders()).toBe(520);
    expect(await leadsAt(ids)).toEqual(expected);

    // What that is: the fresh leads first, each to one order; none bought before, elsewhere or listed.
    const given = await Promise.all(keys.map(async (key) => (await heals(key)).map((row) => row.fresh!)));
    const givenFresh = given.flat().filter((id) => fresh.has(id));
    expect(givenFresh).toHaveLength(400);
    expect(new Set(givenFresh).size).toBe(400);
    for (const [order, sameBuyer] of [
      [0, 1],
      [1, 0],
    ]) {
      const held = new Set(before[sameBuyer].map((row) => row.lead_id));
      expect(given[order].filter((id) => held.has(id))).toEqual([]);
    }
    expect(given[2].filter((id) => boughtElsewhere.some((lead) => lead.id === id))).toEqual([]);
    expect(given[3].filter((id) => listed.some((lead) => lead.id === id))).toEqual([]);
  });

  it("heals only orders paid in the last 30 days", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Old Healing Leads" }, 1500, 73);
    const key = await paidOrder(standin, { categoryId: category });
    await pool().query("UPDATE orders SET paid_at = now() - interval '31 days' WHERE download_key = $1", [
      key,
    ]);
    const rows = await orderRows(key);
    await findInvalid(rows.slice(0, 3));
    expect(await healOrders()).toBe(0);
    expect((await orderRows(key)).map((row) => row.lead_id)).toEqual(rows.map((row) => row.lead_id));
    expect(await heals(key)).toHaveLength(0);
    expect(await queued(rows.slice(0, 3))).toBe(0);
  });

  it("gives a download during the swaps the whole file before or after, never a mix", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Busy Healing Leads" }, 3000, 74);
    const key = await paidOrder(standin, { categoryId: category });
    const rows = await orderRows(key);
    const invalid = rows.slice(100, 300);
    await findInvalid(invalid);
    const oldEmails = invalid.map((row) => row.email);
    // Two downloads in flight (an order's most), started one after the other while the pass runs.
    const healing = healOrders();
    const files: string[][] = [];
    for (let round = 0; round < 3; round++) files.push(...(await Promise.all([csvOf(key), csvOf(key)])));
    await healing;
    const oldIn = (file: string[]) => {
      const text = file.join("\n");
      return [...oldEmails].filter((address) => text.includes(address)).length;
    };
    for (const file of files) expect([0, 200]).toContain(oldIn(file));
    expect(oldIn(await csvOf(key))).toBe(0);
  });
});
