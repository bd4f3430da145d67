// A paid order's due-diligence statement (docs/product-rules.md, "UK compliance") against
// PostgreSQL: the seller from Settings, the sources with their shares, the collection,
// verification and screening dates, the phone statuses and the notices sent of the rows the file
// delivers, and the opt-outs since the purchase; 404 for an unpaid or unknown order.
import { afterAll, describe, expect, it } from "vitest";
import { paidOrder } from "../support/paid-order";
import { startTestStore } from "../support/store";

const store = await startTestStore({
  name: "leadmarket_statement",
  apiKey: "np-statement-key",
  ipnSecret: "ipn-statement",
  env: { ORDER_CREATE_LIMIT: "0", DNS_SERVERS: "off" },
});
const { standin } = store;

const { db, pool } = await import("@/lib/db");
const { orderStatement } = await import("@/lib/orders/statement");
const { confirmPrivacyRequest, signPrivacyToken } = await import("@/lib/privacy/requests");
const { emailHash, maskEmail } = await import("@/lib/mail/address");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

afterAll(store.close);

const caller = { clientIp: "10.12.0.1" };

describe("the due-diligence statement", () => {
  it("answers the checklist for the rows the order's file delivers", async () => {
    await db().settings.upsert({
      where: { id: 1 },
      create: { id: 1, sellerLegalName: "LeadMarket Ltd", sellerIcoNumber: "ZA123456" },
      update: { sellerLegalName: "LeadMarket Ltd", sellerIcoNumber: "ZA123456" },
    });
    const category = await createCategoryWithLeads(
      pool(),
      { title: "Statement Leads" },
      { usa: 100, uk: 1200 },
      91,
    );
    const key = await paidOrder(standin, { categoryId: category, location: "UK" });
    const { rows } = await pool().query<{ id: string; email: string }>(
      `SELECT l.id::text, l.email FROM orders o JOIN order_leads ol ON ol.order_id = o.id
         JOIN leads l ON l.id = ol.lead_id WHERE o.download_key = $1 ORDER BY ol.position`,
      [key],
    );
    const ids = rows.map((row) => row.id);
    // Three sources, and one screening of each kind: 600 clear, 300 on the TPS, 50 on the CTPS
    // (last week's registers), 50 screened 40 days ago, the rest never screened.
    await pool().query(
      `UPDATE leads SET source = CASE WHEN id = ANY($1::bigint[]) THEN 'Company websites'
         WHEN id = ANY($2::bigint[]) THEN 'Partner: Acme Data Ltd' ELSE 'Public professional profiles' END,
         collected_at = CASE WHEN id = ANY($1::bigint[]) THEN timestamptz '2026-01-15Z' ELSE timestamptz '2026-06-01Z' END
       WHERE id = ANY($3::bigint[])`,
      [ids.slice(0, 500), ids.slice(500, 750), ids],
    );
    const screen = (slice: string[], status: string, days: number) =>
      pool().query(
        `INSERT INTO lead_phone_screens (lead_id, status, screened_at)
         SELECT unnest($1::bigint[]), $2::"PhoneStatus", current_date - $3::int
         ON CONFLICT (lead_id) DO UPDATE SET status = EXCLUDED.status, screened_at = EXCLUDED.screened_at`,
        [slice, status, days],
      );
    await screen(ids.slice(0, 600), "clear", 7);
    await screen(ids.slice(600, 900), "tps", 7);
    await screen(ids.slice(900, 950), "ctps", 7);
    await screen(ids.slice(950, 1000), "clear", 40);
    // The demo's UK people count as notified; 2 of them have our notices on record (sent on two
    // days), and 10 were sold while notices were off.
    await pool().query(
      `INSERT INTO privacy_notices (lead_id, email_domain, queued_at, sent_at)
       SELECT id, 'example.test', sent, sent
         FROM unnest($1::bigint[], ARRAY[timestamptz '2026-11-02Z', timestamptz '2026-11-05Z']) AS n(id, sent)`,
      [ids.slice(0, 2)],
    );
    await pool().query("UPDATE leads SET notice_status = 'not_required' WHERE id = ANY($1::bigint[])", [
      ids.slice(10, 20),
    ]);
    // One person erased after the purchase: out of the file, counted as an opt-out.
    const erased = rows[999].email;
    const request = await db().privacyRequest.create({
      data: { kind: "erasure", email: erased, emailHash: emailHash(erased), emailMasked: maskEmail(erased) },
    });
    await confirmPrivacyRequest(await signPrivacyToken(request.id, "erasure"));

    const statement = await orderStatement(key, caller);
    expect(statement.seller).toMatchObject({
      sellerLegalName: "LeadMarket Ltd",
      sellerIcoNumber: "ZA123456",
    });
    expect(statement.optOuts).toBe(1);
    const { figures } = statement;
    expect(figures.leads).toBe(999);
    expect(figures.ukLeads).toBe(999);
    expect(figures.sources).toEqual([
      { source: "Company websites", leads: 500 },
      { source: "Partner: Acme Data Ltd", leads: 250 },
      { source: "Public professional profiles", leads: 249 },
    ]);
    expect(figures.collected).toEqual({ oldest: "2026-01-15", newest: "2026-06-01" });
    expect(figures.verified).not.toBeNull();
    const day = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1000).toISOString().slice(0, 10);
    expect(figures.screened).toEqual({ oldest: day(40), newest: day(7) });
    expect(figures.phones).toEqual({ clear: 600, tps: 300, ctps: 50, unscreened: 49, other: 0 });
    expect(figures.notified).toBe(989);
    expect(figures.noticesSent).toEqual({ oldest: "2026-11-02", newest: "2026-11-05" });

    // 30 statements of one order in 10 minutes; the 31st is refused.
    for (let count = 1; count < 30; count++) await orderStatement(key, caller);
    await expect(orderStatement(key, caller)).rejects.toMatchObject({ status: 429 });
  });

  it("answers 404 for an unknown key", async () => {
    await expect(orderStatement("C".repeat(43), caller)).rejects.toMatchObject({ status: 404 });
  });
});
