// Buying with an exclusion list (docs/product-rules.md, "Exclusion lists") against PostgreSQL and
// the NOWPayments stand-in: the list's owner only; what it removes (told only after payment),
// counted apart from the buyer's earlier purchases; 409 and no invoice when too few leads remain;
// allocation and replacement skip every listed lead (by email hash or domain); the order page, the
// receipt and the admin's detail say what was left out; the upkeep deletes unused lists after 24 hours and an order's list once
// its replacement window has closed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromAddress } from "../support/client";
import { call, callJson } from "../support/routes";
import { startTestStore } from "../support/store";
import { fileHead, multipart, MULTIPART } from "../support/uploads";

const store = await startTestStore({
  name: "leadmarket_suppression_orders",
  apiKey: "np-sup-orders",
  ipnSecret: "ipn-sup-orders",
  env: { ORDER_CREATE_LIMIT: "0" },
});
const { standin } = store;

const { POST: uploadRoute } = await import("@/app/api/suppression-lists/route");
const { GET: availabilityRoute } = await import("@/app/api/suppression-lists/[id]/availability/route");
const { POST: create } = await import("@/app/api/payment/create/route");
const { POST: ipn } = await import("@/app/api/payment/ipn/route");
const { GET: orderApi } = await import("@/app/api/orders/[key]/route");
const { POST: claimRoute } = await import("@/app/api/orders/[key]/replacement/route");
const { GET: saleRoute } = await import("@/app/api/admin/sales/[id]/route");
const { db, pool, transaction } = await import("@/lib/db");
const { signAdminToken } = await import("@/lib/auth/session");
const { deleteExpiredLists, ownedList } = await import("@/lib/suppression/lists");
const { listedLeads } = await import("@/lib/suppression/counts");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

const BUYER = "returning@buyer.example";
const OWNER = "10.30.0.1";
let category: string;
let token: string;

beforeAll(async () => {
  category = await createCategoryWithLeads(pool(), { title: "Exclusions" }, { usa: 3000, uk: 400 }, 61);
  const admin = await db().admin.create({
    data: { email: "sup-admin@example.com", passwordHash: "x" },
    select: { id: true, passwordChangedAt: true },
  });
  token = await signAdminToken(admin);
});

afterAll(store.close);

type Availability = { packages: Record<string, { leadCount: number; available: boolean }> };

async function upload(text: string, address = OWNER): Promise<string> {
  const answer = await callJson<{ suppressionListId: string }>(uploadRoute, "/api/suppression-lists", {
    body: multipart(fileHead("file", "mine.csv"), text),
    headers: { "content-type": MULTIPART, ...fromAddress(address) },
  });
  expect(answer.status).toBe(201);
  return answer.body.suppressionListId;
}

function availability(id: string, address = OWNER, query = "location=USA") {
  return callJson<Availability & { message?: string }>(
    availabilityRoute,
    `/api/suppression-lists/${id}/availability?categoryId=${category}&${query}`,
    { params: { id }, headers: fromAddress(address) },
  );
}

function createOrder(body: Record<string, unknown>, address = OWNER) {
  return callJson<{ paymentId: string; message?: string }>(create, "/api/payment/create", {
    json: { categoryId: category, packageType: "starter", ...body },
    headers: fromAddress(address),
  });
}

async function pay(key: string): Promise<void> {
  const order = await db().order.findUniqueOrThrow({ where: { downloadKey: key } });
  const payment = standin.pay(order.invoiceId!, { status: "finished" });
  const signed = standin.signedIpn(payment.payment_id);
  const paid = await call(ipn, "/api/payment/ipn", {
    body: signed.body,
    headers: { "content-type": "application/json", "x-nowpayments-sig": signed.signature },
  });
  expect(paid.status).toBe(200);
}

/** The category's sellable USA leads' emails, newest first (as allocation takes them). */
async function usaEmails(): Promise<string[]> {
  const { rows } = await pool().query<{ email: string }>(
    `SELECT email FROM leads WHERE category_id = $1 AND country = 'USA' AND lead_sellable(quarantined_at, email_status, notice_status)
      ORDER BY verified_at DESC, id`,
    [category],
  );
  return rows.map((row) => row.email);
}

async function delivered(key: string): Promise<string[]> {
  const { rows } = await pool().query<{ email: string }>(
    `SELECT l.email FROM orders o JOIN order_leads ol ON ol.order_id = o.id JOIN leads l ON l.id = ol.lead_id
      WHERE o.download_key = $1 ORDER BY ol.position`,
    [key],
  );
  return rows.map((row) => row.email);
}

const domainOf = (email: string) => email.slice(email.lastIndexOf("@") + 1);

describe("a list is its uploader's", () => {
  it("is refused from another address, and once expired or unknown", async () => {
    const id = await upload("someone@else.example\n");
    expect((await availability(id)).status).toBe(200);
    const other = await availability(id, "10.30.9.9");
    expect(other.status).toBe(404);
    expect(other.body.message).toContain("upload it again");
    const before = await db().order.count();
    expect((await createOrder({ suppressionListId: id }, "10.30.9.9")).status).toBe(404);
    expect((await createOrder({ suppressionListId: crypto.randomUUID() })).status).toBe(404);
    expect((await createOrder({ suppressionListId: "not-a-uuid" })).status).toBe(400);
    await pool().query(
      "UPDATE suppression_lists SET expires_at = now() - interval '1 second' WHERE id = $1",
      [id],
    );
    expect((await createOrder({ suppressionListId: id })).status).toBe(404);
    expect(await db().order.count()).toBe(before);
  });
});

describe("buying with a list", () => {
  let key: string;
  let listed: Set<string>;
  let listedDomains: Set<string>;

  it("counts what the list removes past earlier purchases, and answers 409 without an invoice", async () => {
    // An earlier purchase of the buyer's email: 1,000 leads.
    const first = await createOrder({ email: BUYER }, "10.30.1.1");
    await pay(first.body.paymentId);
    const bought = new Set(await delivered(first.body.paymentId));

    // The list: 300 leads bought before, 1,200 the buyer did not buy, one company domain, and
    // addresses the category does not hold (in upper case: matched normalised).
    const emails = await usaEmails();
    const unbought = emails.filter((email) => !bought.has(email));
    const domain = domainOf(unbought[1500]);
    listed = new Set([...[...bought].slice(0, 300), ...unbought.slice(0, 1200)]);
    listedDomains = new Set([domain]);
    const byDomain = emails.filter((email) => domainOf(email) === domain);
    const lines = [...listed].map((email, i) => `Contact ${i},${i % 2 ? email.toUpperCase() : email}`);
    const id = await upload(
      ["Name,Email", ...lines, `Extra,x@elsewhere.example`, `Company,${domain}`].join("\n"),
    );

    const all = new Set([...listed, ...byDomain]);
    // Before payment the answer says only which packages the rest fills, never how many the list names.
    const answer = await availability(id);
    expect(answer.status).toBe(200);
    expect(3000 - all.size).toBeGreaterThanOrEqual(1000);
    expect(answer.body).toEqual({
      packages: {
        starter: { leadCount: 1000, available: true },
        standard: { leadCount: 10000, available: false },
        premium: { leadCount: 20000, available: false },
      },
    });
    // The count itself (told after payment): each listed lead once, by hash or domain.
    const scope = { categoryId: category, country: "USA" as const, segment: null };
    const ownList = await ownedList(id, { clientIp: OWNER });
    expect(await transaction((tx) => listedLeads(tx, ownList, scope))).toBe(all.size);
    // Another country's leads are not the list's: none of it is in the UK.
    expect(await transaction((tx) => listedLeads(tx, ownList, { ...scope, country: "UK" }))).toBe(0);
    // In a segment: only its listed leads.
    const { rows } = await pool().query<{ facet_seniority: string; email: string }>(
      "SELECT facet_seniority, email FROM leads WHERE category_id = $1 AND country = 'USA'",
      [category],
    );
    const seniority = rows[0].facet_seniority;
    const inSegment = rows.filter((row) => row.facet_seniority === seniority).map((row) => row.email);
    expect(
      await transaction((tx) => listedLeads(tx, ownList, { ...scope, segment: { seniority: [seniority] } })),
    ).toBe(inSegment.filter((email) => all.has(email)).length);

    // 3,000 - 1,000 bought - the list's others (1,200 and the domain's unbought) leaves fewer than 1,000.
    const before = await db().order.count();
    const refused = await createOrder({ email: BUYER, suppressionListId: id });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      "Exclusions has 3,000 leads; what is left without the 1,000 you bought before and the contacts on your list is fewer than the 1,000 the Starter package includes. Choose a smaller package or request custom leads.",
    );
    expect(await db().order.count()).toBe(before);

    // Without the email, the list alone leaves enough.
    const created = await createOrder({ suppressionListId: id });
    expect(created.status).toBe(200);
    key = created.body.paymentId;
    const order = await db().order.findUniqueOrThrow({ where: { downloadKey: key } });
    expect(order).toMatchObject({ suppressionListId: id, excludedListed: all.size });
    for (const email of byDomain) listed.add(email);
  });

  it("allocates and replaces none of the listed leads, and keeps the list for the window", async () => {
    await pay(key);
    const got = await delivered(key);
    expect(got).toHaveLength(1000);
    expect(got.filter((email) => listed.has(email) || listedDomains.has(domainOf(email)))).toEqual([]);
    const order = await db().order.findUniqueOrThrow({
      where: { downloadKey: key },
      include: { suppressionList: true },
    });
    const window = order.paidAt!.getTime() + 30 * 86_400_000;
    expect(Math.abs(order.suppressionList!.expiresAt.getTime() - window)).toBeLessThan(60_000);

    const claim = await callJson<{ replaced: number }>(claimRoute, `/api/orders/${key}/replacement`, {
      params: { key },
      json: { emails: got.slice(0, 200) },
    });
    expect(claim.status).toBe(201);
    expect(claim.body.replaced).toBe(200);
    const after = await delivered(key);
    expect(after.filter((email) => !got.includes(email))).toHaveLength(200);
    expect(after.filter((email) => listed.has(email) || listedDomains.has(domainOf(email)))).toEqual([]);
  });

  it("says what was left out on the order page, in the receipt and in the admin's detail", async () => {
    const id = await upload(`${(await usaEmails()).slice(-120).join("\n")}\n`);
    const created = await createOrder({ email: BUYER, suppressionListId: id, location: "USA" }, OWNER);
    expect(created.status).toBe(200);
    const next = created.body.paymentId;
    await pay(next);
    const order = await db().order.findUniqueOrThrow({ where: { downloadKey: next } });
    expect(order.excludedListed).toBeGreaterThan(0);
    const text = `${order.excludedBought!.toLocaleString("en-US")} contacts you bought before and ${order.excludedListed!.toLocaleString("en-US")} from your list were left out`;
    const summary = await callJson<{ excluded: string }>(orderApi, `/api/orders/${next}`, {
      params: { key: next },
    });
    expect(summary.body.excluded).toBe(text);
    const sale = await callJson<{ excluded: string }>(saleRoute, `/api/admin/sales/${order.id}`, {
      params: { id: order.id },
      token,
    });
    expect(sale.body.excluded).toBe(text);
    const receipts = await db().mailOutbox.findMany({ where: { kind: "receipt", recipient: BUYER } });
    expect(receipts.some((mail) => JSON.stringify(mail.mail).includes(text))).toBe(true);
    // The first order, bought without a list, says only what applies.
    const first = await callJson<{ excluded: string }>(orderApi, `/api/orders/${key}`, { params: { key } });
    expect(first.body.excluded).toMatch(/^[\d,]+ contacts from your list were left out$/);
  });
});

describe("expiry", () => {
  it("deletes unused lists 24 hours after upload, and an order's once its window has closed", async () => {
    const unused = await upload("nobody@unused.example\n");
    const order = await db().order.findFirstOrThrow({
      where: { suppressionListId: { not: null }, paidAt: { not: null } },
    });
    const kept = order.suppressionListId!;
    const now = Date.now();
    await deleteExpiredLists(new Date(now + 23 * 3600_000));
    expect(await db().suppressionList.count({ where: { id: unused } })).toBe(1);
    await deleteExpiredLists(new Date(now + 25 * 3600_000));
    expect(await db().suppressionList.count({ where: { id: unused } })).toBe(0);
    expect(await db().suppressionList.count({ where: { id: kept } })).toBe(1);

    await deleteExpiredLists(new Date(now + 31 * 86_400_000));
    expect(await db().suppressionList.count()).toBe(0);
    const after = await db().order.findUniqueOrThrow({ where: { id: order.id } });
    expect(after).toMatchObject({ suppressionListId: null, excludedListed: order.excludedListed });
  });

  it("keeps a list past its expiry while a part-paid order or rows held for review may still need it", async () => {
    const emails = await usaEmails();
    const listed = emails.slice(0, 50);
    const list = await upload(listed.join("\n"));
    const created = await createOrder({ suppressionListId: list });
    expect(created.status).toBe(200);
    const key = created.body.paymentId;
    // Part paid: the buyer may top it up days later.
    await pool().query(
      `UPDATE orders SET status = 'partially_paid', actually_paid = 1 WHERE download_key = $1`,
      [key],
    );
    const now = Date.now();
    await deleteExpiredLists(new Date(now + 5 * 86_400_000));
    expect(await db().suppressionList.count({ where: { id: list } })).toBe(1);

    await pay(key);
    const rows = await pool().query<{ email: string }>(
      `SELECT l.email FROM orders o JOIN order_leads ol ON ol.order_id = o.id JOIN leads l ON l.id = ol.lead_id
        WHERE o.download_key = $1`,
      [key],
    );
    expect(rows.rows.some((row) => listed.includes(row.email))).toBe(false);
    // A claim without the provider's word: 800 rows held for the admin past the 30 days.
    const claim = await callJson<{ heldForReview: number }>(claimRoute, `/api/orders/${key}/replacement`, {
      params: { key },
      headers: fromAddress("10.30.0.10"),
      json: { emails: rows.rows.map((row) => row.email) },
    });
    expect(claim.body.heldForReview).toBe(800);
    await deleteExpiredLists(new Date(now + 40 * 86_400_000));
    expect(await db().suppressionList.count({ where: { id: list } })).toBe(1);
    await pool().query(
      `UPDATE replacement_reports SET held = false WHERE order_id = (SELECT id FROM orders WHERE download_key = $1)`,
      [key],
    );
    await deleteExpiredLists(new Date(now + 40 * 86_400_000));
    expect(await db().suppressionList.count({ where: { id: list } })).toBe(0);
  });
});
