// Opt-outs reach earlier buyers (docs/product-rules.md, "UK compliance") against PostgreSQL: a
// person the order delivered and who is erased after its purchase is counted on the order and
// listed by `GET /api/orders/{key}/opt-outs` as the SHA-256 of their normalised email; one erased
// before the purchase, or never in the order, is not; one a heal swapped out of the file after the
// buyer had it is.
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { fromAddress } from "../support/client";
import { paidOrder } from "../support/paid-order";
import { callJson } from "../support/routes";
import { startTestStore } from "../support/store";

const store = await startTestStore({
  name: "leadmarket_opt_outs",
  apiKey: "np-opt-outs-key",
  ipnSecret: "ipn-opt-outs",
  env: { ORDER_CREATE_LIMIT: "0", DNS_SERVERS: "off" },
});
const { standin } = store;

const { GET: orderApi } = await import("@/app/api/orders/[key]/route");
const { GET: optOutsApi } = await import("@/app/api/orders/[key]/opt-outs/route");
const { db, pool } = await import("@/lib/db");
const { confirmPrivacyRequest, signPrivacyToken } = await import("@/lib/privacy/requests");
const { emailHash, maskEmail, normalizeEmail } = await import("@/lib/mail/address");
const { healOrders } = await import("@/lib/orders/heal");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

afterAll(store.close);

let addresses = 0;
const nextAddress = () => fromAddress(`10.11.${Math.floor(++addresses / 250)}.${addresses % 250}`);

/** An erasure request as the privacy form stores it (normalised), then confirmed by its link. */
async function erase(typed: string): Promise<void> {
  const email = normalizeEmail(typed);
  const request = await db().privacyRequest.create({
    data: { kind: "erasure", email, emailHash: emailHash(email), emailMasked: maskEmail(email) },
  });
  await confirmPrivacyRequest(await signPrivacyToken(request.id, "erasure"));
}

const delivered = async (key: string) =>
  (
    await pool().query<{ email: string }>(
      `SELECT l.email FROM orders o JOIN order_leads ol ON ol.order_id = o.id JOIN leads l ON l.id = ol.lead_id
        WHERE o.download_key = $1 ORDER BY ol.position`,
      [key],
    )
  ).rows.map((row) => row.email);

type OptOuts = { count: number; optOuts: { sha256: string; at: string }[] };

const sha256 = (email: string): string =>
  createHash("sha256").update(email.trim().toLowerCase(), "utf8").digest("hex");

async function optOutsOf(key: string): Promise<OptOuts> {
  const answer = await callJson<OptOuts>(optOutsApi, `/api/orders/${key}/opt-outs`, {
    params: { key },
    headers: nextAddress(),
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

describe("opt-outs since the purchase", () => {
  it("lists the order's people erased after it, as hashes of their normalised emails", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Opt-out Leads" }, 2500, 81);
    // Erased before the purchase: never delivered, never listed.
    const { rows: before } = await pool().query<{ email: string }>(
      "SELECT email FROM leads WHERE category_id = $1 ORDER BY id DESC LIMIT 1",
      [category],
    );
    await erase(before[0].email);
    const key = await paidOrder(standin, { categoryId: category });
    const rows = await delivered(key);
    expect(rows).toHaveLength(1000);
    expect(rows).not.toContain(before[0].email);

    // Erased after it: one in the order (asked in another case and with spaces, as a person
    // types it), one not in it.
    const inOrder = rows[10];
    await erase(`  ${inOrder.toUpperCase()} `);
    const { rows: outside } = await pool().query<{ email: string }>(
      "SELECT email FROM leads WHERE category_id = $1 AND NOT (email = ANY($2::text[])) LIMIT 1",
      [category, rows],
    );
    await erase(outside[0].email);

    const summary = await callJson<{ optOuts: number; leadCount: number }>(orderApi, `/api/orders/${key}`, {
      params: { key },
      headers: nextAddress(),
    });
    expect(summary.status).toBe(200);
    expect(summary.body.optOuts).toBe(1);
    expect(await delivered(key)).toHaveLength(999);

    const answer = await callJson<OptOuts>(optOutsApi, `/api/orders/${key}/opt-outs`, {
      params: { key },
      headers: nextAddress(),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const expected = sha256(inOrder);
    expect(answer.body.count).toBe(1);
    expect(answer.body.optOuts).toEqual([{ sha256: expected, at: expect.any(String) }]);
    expect(Date.parse(answer.body.optOuts[0].at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("lists a person whom a heal swapped out of the file after the buyer had it", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Healed Opt-out Leads" }, 2500, 82);
    const key = await paidOrder(standin, { categoryId: category });
    const [healed] = await delivered(key);
    await pool().query("UPDATE leads SET email_status = 'invalid' WHERE email = $1 AND category_id = $2", [
      healed,
      category,
    ]);
    expect(await healOrders()).toBe(1);
    expect(await delivered(key)).not.toContain(healed);

    await erase(healed);
    const answer = await optOutsOf(key);
    expect(answer.count).toBe(1);
    expect(answer.optOuts[0].sha256).toBe(sha256(healed));
  });

  it("answers 404 for an unknown, malformed or unpaid order's key", async () => {
    const unknown = "A".repeat(43);
    expect(
      (
        await callJson(optOutsApi, `/api/orders/${unknown}/opt-outs`, {
          params: { key: unknown },
          headers: nextAddress(),
        })
      ).status,
    ).toBe(404);
    const { rows } = await pool().query<{ id: string }>("SELECT id FROM categories LIMIT 1");
    const { rows: unpaid } = await pool().query<{ download_key: string }>(
      `INSERT INTO orders (category_id, lead_title, package_type, lead_count, location, amount, status, download_key)
       VALUES ($1, 'Unpaid', 'starter', 1000, 'USA', 10, 'waiting', $2) RETURNING download_key`,
      [rows[0].id, "B".repeat(43)],
    );
    const key = unpaid[0].download_key;
    expect(
      (await callJson(optOutsApi, `/api/orders/${key}/opt-outs`, { params: { key }, headers: nextAddress() }))
        .status,
    ).toBe(404);
    expect(
      (await callJson(optOutsApi, "/api/orders/x/opt-outs", { params: { key: "x" }, headers: nextAddress() }))
        .status,
    ).toBe(404);
  });
});
