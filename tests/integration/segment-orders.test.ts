// Buying a segment (docs/product-rules.md, "Segments") against PostgreSQL and the NOWPayments
// stand-in: create re-counts the segment (409, no invoice, when it cannot fill the package), the
// order keeps its segment, allocation, replacements and the download give only leads of it, the
// receipt and the Sales tab name it, a segment holds at most 60 values in all, and the segment
// counts equal count(*) after imports, sales, replacements and erasures (confirmed privacy requests).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromAddress } from "../support/client";
import { call, callJson } from "../support/routes";
import { rollupMismatches } from "../support/segments";
import { startTestStore } from "../support/store";

const store = await startTestStore({
  name: "leadmarket_segment_orders",
  apiKey: "np-seg-key",
  ipnSecret: "ipn-seg",
  env: { ORDER_CREATE_LIMIT: "0" },
});
const { standin, smtp } = store;

const { POST: create } = await import("@/app/api/payment/create/route");
const { POST: ipn } = await import("@/app/api/payment/ipn/route");
const { GET: download } = await import("@/app/api/leads/download/[key]/route");
const { GET: orderApi } = await import("@/app/api/orders/[key]/route");
const { POST: claimRoute } = await import("@/app/api/orders/[key]/replacement/route");
const { GET: segmentRoute } = await import("@/app/api/categories/[id]/segment/route");
const { GET: salesList } = await import("@/app/api/admin/sales/route");
const { db, pool } = await import("@/lib/db");
const { signAdminToken } = await import("@/lib/auth/session");
const { insertLeads } = await import("@/lib/leads/insert");
const { createCategoryWithLeads, makeLeads } = await import("@/prisma/demo-data");
const { SENIORITIES, US_STATES, VOCABULARIES } = await import("@/lib/segments/vocabularies");
const { confirmPrivacyRequest, signPrivacyToken } = await import("@/lib/privacy/requests");
const { emailHash, maskEmail } = await import("@/lib/mail/address");

type Segment = Record<string, string[]>;
type Created = { success: boolean; paymentId: string; message?: string };

let category: string;
let segment: Segment;
let token: string;
let addresses = 0;
const nextAddress = () => `10.8.${Math.floor(++addresses / 250)}.${addresses % 250}`;

const SEGMENT_SQL = "facet_seniority = ANY($2) AND facet_size = ANY($3)";

beforeAll(async () => {
  category = await createCategoryWithLeads(pool(), { title: "Software & SaaS" }, { usa: 6000, uk: 500 }, 51);
  // The most common seniorities until the segment holds a starter and a bit: about a third of the list.
  const { rows } = await pool().query<{ facet_seniority: string; n: number }>(
    `SELECT facet_seniority, count(*)::int AS n FROM leads
      WHERE category_id = $1 AND country = 'USA' AND facet_size IN ('11-50', '51-200', '201-500')
      GROUP BY 1 ORDER BY 2 DESC`,
    [category],
  );
  const seniority: string[] = [];
  let total = 0;
  for (const row of rows) {
    if (total >= 1300) break;
    seniority.push(row.facet_seniority);
    total += row.n;
  }
  segment = { seniority, size: ["11-50", "51-200", "201-500"] };
  const admin = await db().admin.create({
    data: { email: "seg-admin@example.com", passwordHash: "x" },
    select: { id: true, passwordChangedAt: true },
  });
  token = await signAdminToken(admin);
});

afterAll(store.close);

async function inSegment(where = "true"): Promise<number> {
  const { rows } = await pool().query<{ n: number }>(
    `SELECT count(*)::int AS n FROM leads WHERE category_id = $1 AND country = 'USA'
       AND lead_sellable(quarantined_at, email_status, notice_status) AND ${SEGMENT_SQL} AND ${where}`,
    [category, segment.seniority, segment.size],
  );
  return rows[0].n;
}

async function endpointCount(): Promise<number> {
  const query = `location=USA&seniority=${segment.seniority.join(",")}&size=${segment.size.join(",")}`;
  const answer = await callJson<{ count: number }>(
    segmentRoute,
    `/api/categories/${category}/segment?${query}`,
    {
      params: { id: category },
    },
  );
  expect(answer.status).toBe(200);
  return answer.body.count;
}

async function createOrder(body: Record<string, unknown>) {
  return callJson<Created>(create, "/api/payment/create", {
    json: { categoryId: category, packageType: "starter", ...body },
    headers: fromAddress(nextAddress()),
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

/** The order's leads that are outside the segment. */
async function outsideSegment(key: string): Promise<number> {
  const { rows } = await pool().query<{ n: number }>(
    `SELECT count(*)::int AS n FROM orders o JOIN order_leads ol ON ol.order_id = o.id JOIN leads l ON l.id = ol.lead_id
      WHERE o.download_key = $1 AND NOT (l.facet_seniority = ANY($2) AND l.facet_size = ANY($3) AND l.country = 'USA')`,
    [key, segment.seniority, segment.size],
  );
  return rows[0].n;
}

describe("buying a segment", () => {
  it("refuses with 409 and no invoice when the segment cannot fill the package", async () => {
    const invoices = await db().order.count();
    const tooSmall = await createOrder({ packageType: "standard", segment });
    expect(tooSmall.status).toBe(409);
    expect(tooSmall.body.message).toContain("in this segment");
    const none = await createOrder({ segment: { region: ["london"] } });
    expect(none.status).toBe(409);
    expect(await db().order.count()).toBe(invoices);

    const bad = await createOrder({ segment: { seniority: ["wizard"] } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("Unknown seniority: wizard");
    const extra = await createOrder({ segment: { colour: ["red"] } });
    expect(extra.status).toBe(400);
  });

  it("takes at most 60 values across the facets", async () => {
    const invoices = await db().order.count();
    const forty = US_STATES.slice(0, 40);
    // 40 regions, 8 seniorities and 13 departments: 61 values, though no facet holds 61.
    const tooMany = await createOrder({
      segment: { region: forty, seniority: VOCABULARIES.seniority, department: VOCABULARIES.department },
    });
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain("Choose at most 60 filter values");
    expect(await db().order.count()).toBe(invoices);

    const sixty = {
      region: forty,
      seniority: VOCABULARIES.seniority,
      department: VOCABULARIES.department.slice(0, 12),
    };
    const created = await createOrder({ segment: sixty });
    expect(created.status, created.body.message).toBe(200);
    const order = await db().order.findUniqueOrThrow({ where: { downloadKey: created.body.paymentId } });
    expect(Object.values(order.segment as Segment).flat()).toHaveLength(60);
  });

  it("stores the segment, allocates, downloads and replaces only its leads, and shows it in Sales", async () => {
    expect(await endpointCount()).toBe(await inSegment());
    const buyer = "segment.buyer@example.com";
    const created = await createOrder({ segment: { ...segment, department: [] }, email: buyer });
    expect(created.status).toBe(200);
    const key = created.body.paymentId;
    const order = await db().order.findUniqueOrThrow({ where: { downloadKey: key } });
    // Stored normalised: values in vocabulary order, empty facets dropped.
    expect(order.segment).toEqual({
      seniority: SENIORITIES.filter((value) => segment.seniority.includes(value)),
      size: segment.size,
    });

    // The same browser asking for another segment gets another order, not the open one.
    const other = await createOrder({ segment: { size: ["11-50", "51-200", "201-500"] } });
    expect(other.body.paymentId).not.toBe(key);

    await pay(key);
    expect(await db().orderLead.count({ where: { order: { downloadKey: key } } })).toBe(1000);
    expect(await outsideSegment(key)).toBe(0);
    // A sale changes no count: sold leads stay sellable.
    expect(await endpointCount()).toBe(await inSegment());

    const response = await call(download, `/api/leads/download/${key}`, { params: { key } });
    expect(response.status).toBe(200);
    const lines = (await response.text()).trim().split("\n").slice(1);
    expect(lines).toHaveLength(1000);

    const summary = await callJson<{ segment: string }>(orderApi, `/api/orders/${key}`, { params: { key } });
    expect(summary.body.segment).toContain("Company size: 11-50, 51-200, 201-500");
    // The receipt names the segment under the category.
    const receipt = await smtp.waitFor((mail) =>
      [mail.to]
        .flat()
        .some((to) => to?.text === buyer && mail.subject?.startsWith("Your LeadMarket receipt")),
    );
    expect(receipt.text).toContain(
      `Category: Software & SaaS\nSegment: ${summary.body.segment}\nEmail status: Any status (valid, accept-all, unknown)\nPackage: Starter`,
    );

    // A replacement claim of 60 delivered leads: their rows are swapped for leads of the segment.
    const { rows: delivered } = await pool().query<{ email: string }>(
      `SELECT l.email FROM order_leads ol JOIN leads l ON l.id = ol.lead_id JOIN orders o ON o.id = ol.order_id
        WHERE o.download_key = $1 ORDER BY ol.position LIMIT 60`,
      [key],
    );
    const claimed = await callJson<{ replaced: number }>(claimRoute, `/api/orders/${key}/replacement`, {
      params: { key },
      json: { emails: delivered.map((row) => row.email) },
    });
    expect(claimed.status).toBe(201);
    expect(claimed.body.replaced).toBe(60);
    expect(await outsideSegment(key)).toBe(0);
    // The quarantined leads left the segment's count at once.
    expect(await endpointCount()).toBe(await inSegment());

    const sales = await callJson<{ segment: string; _id: string }[]>(salesList, "/api/admin/sales", {
      token,
    });
    expect(sales.body.find((sale) => sale._id === order.id)?.segment).toContain("Seniority:");
  });

  it("keeps the counts exact after imports and erasures", async () => {
    await insertLeads(pool(), category, makeLeads(700, { seed: 77, category: "Software & SaaS" }));
    expect(await endpointCount()).toBe(await inSegment());
    // 25 people of the segment ask to be erased and confirm: 15 of them sold, 10 just imported.
    const { rows: people } = await pool().query<{ email: string; sold: boolean }>(
      `WITH candidates AS (
         SELECT email, verified_at, EXISTS (SELECT FROM order_leads ol WHERE ol.lead_id = leads.id) AS sold
           FROM leads WHERE category_id = $1 AND country = 'USA'
            AND lead_sellable(quarantined_at, email_status, notice_status) AND ${SEGMENT_SQL})
       (SELECT email, sold FROM candidates WHERE sold ORDER BY email LIMIT 15)
       UNION ALL (SELECT email, sold FROM candidates WHERE NOT sold ORDER BY verified_at DESC LIMIT 10)`,
      [category, segment.seniority, segment.size],
    );
    expect(people.filter((person) => person.sold)).toHaveLength(15);
    const before = await inSegment();
    for (const { email } of people) {
      const request = await db().privacyRequest.create({
        data: { kind: "erasure", email, emailHash: emailHash(email), emailMasked: maskEmail(email) },
      });
      expect(await confirmPrivacyRequest(await signPrivacyToken(request.id, "erasure"))).toMatchObject({
        state: "completed",
      });
    }
    const emails = people.map((person) => person.email);
    expect(await db().lead.count({ where: { email: { in: emails } } })).toBe(0);
    expect(await inSegment()).toBe(before - 25);
    expect(await endpointCount()).toBe(before - 25);
    expect(await rollupMismatches(pool(), category)).toEqual([]);
  });
});
