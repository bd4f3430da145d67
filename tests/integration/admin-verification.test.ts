// The admin's side of verification (docs/product-rules.md, "Verification" and "Replacement
// claims"), against PostgreSQL, the NOWPayments stand-in, a DNS server on loopback and the
// ZeroBounce stand-in: the provider key stored in Settings (sealed, shown masked, never returned)
// and used by the claim checks; the provider's credits and the last error; flagged leads reviewed,
// kept on sale and deleted per claim without any buyer's file losing a row.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromAddress } from "../support/client";
import { startDnsServer } from "../support/dns-server";
import { call, callJson } from "../support/routes";
import { startTestStore } from "../support/store";
import { startZeroBounceStandin } from "../support/zerobounce-standin";
import { paidOrder } from "../support/paid-order";

const dns = await startDnsServer({ zone: { "ok.test": { mx: [{ exchange: "mx.ok.test", priority: 10 }] } } });
const zerobounce = await startZeroBounceStandin("zb-stored-key");
// No EMAIL_VERIFIER_API_KEY: the provider is configured by the key the admin stores.
const store = await startTestStore({
  name: "leadmarket_admin_verification",
  apiKey: "np-adm-verif",
  ipnSecret: "ipn-adm-verif",
  env: { ORDER_CREATE_LIMIT: "0", DNS_SERVERS: dns.address, EMAIL_VERIFIER_API_URL: zerobounce.url },
});
delete process.env.EMAIL_VERIFIER_API_KEY;
const { standin } = store;

const { POST: claimRoute } = await import("@/app/api/orders/[key]/replacement/route");
const { GET: download } = await import("@/app/api/leads/download/[key]/route");
const settingsRoute = await import("@/app/api/admin/settings/route");
const { GET: verificationRoute } = await import("@/app/api/admin/settings/verification/route");
const { GET: claimsRoute } = await import("@/app/api/admin/categories/[id]/quarantine/claims/route");
const { DELETE: deleteClaimRoute } =
  await import("@/app/api/admin/categories/[id]/quarantine/claims/[claimId]/route");
const { POST: releaseClaimRoute } =
  await import("@/app/api/admin/categories/[id]/quarantine/claims/[claimId]/release/route");
const { db, pool } = await import("@/lib/db");
const { signAdminToken } = await import("@/lib/auth/session");
const { recordVerifierError } = await import("@/lib/verification/provider-budget");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

let token: string;
let addresses = 0;
const nextAddress = () => `10.9.${Math.floor(++addresses / 250)}.${addresses % 250}`;

beforeAll(async () => {
  const admin = await db().admin.create({
    data: { email: "verif-admin@example.com", passwordHash: "x" },
    select: { id: true, passwordChangedAt: true },
  });
  token = await signAdminToken(admin);
});

afterAll(async () => {
  await store.close();
  await dns.close();
  await zerobounce.close();
});

const buy = (categoryId: string, email: string) => paidOrder(standin, { categoryId, email });

async function orderEmails(key: string): Promise<string[]> {
  const { rows } = await pool().query<{ email: string }>(
    `SELECT l.email FROM orders o JOIN order_leads ol ON ol.order_id = o.id JOIN leads l ON l.id = ol.lead_id
      WHERE o.download_key = $1 ORDER BY ol.position`,
    [key],
  );
  return rows.map((row) => row.email);
}

async function csvOf(key: string): Promise<string[]> {
  const response = await call(download, `/api/leads/download/${key}`, {
    params: { key },
    headers: fromAddress(nextAddress()),
  });
  expect(response.status).toBe(200);
  return (await response.text()).trim().split("\n").slice(1);
}

const claim = (key: string, emails: string[]) =>
  callJson<Record<string, unknown>>(claimRoute, `/api/orders/${key}/replacement`, {
    params: { key },
    headers: fromAddress(nextAddress()),
    json: { emails },
  });

describe("the verification provider in Settings", () => {
  it("stores the key sealed, shows it masked and never returns it; 401 and 400 as for the payment key", async () => {
    const before = await callJson(settingsRoute.GET, "/x", { token });
    expect(before.body).toMatchObject({ emailVerifierApiKey: "", emailVerifierApiKeySource: "none" });
    expect((await callJson(verificationRoute, "/x", { token })).body).toMatchObject({
      configured: false,
      credits: null,
      creditsError: null,
    });

    expect(
      (await call(settingsRoute.PATCH, "/x", { method: "PATCH", json: { emailVerifierApiKey: "k" } })).status,
    ).toBe(401);
    expect((await call(verificationRoute, "/x")).status).toBe(401);
    const blank = await callJson(settingsRoute.PATCH, "/x", {
      token,
      method: "PATCH",
      json: { emailVerifierApiKey: "   " },
    });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toMatchObject({ emailVerifierApiKey: "API key must not be empty" });
    expect(
      (await call(settingsRoute.PATCH, "/x", { token, method: "PATCH", json: { emailVerifierApiKey: 42 } }))
        .status,
    ).toBe(400);

    const saved = await callJson<Record<string, unknown>>(settingsRoute.PATCH, "/x", {
      token,
      method: "PATCH",
      json: { emailVerifierApiKey: zerobounce.apiKey },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      emailVerifierApiKey: "••••••••-key",
      emailVerifierApiKeySource: "settings",
    });
    const read = await call(settingsRoute.GET, "/x", { token });
    expect(await read.text()).not.toContain(zerobounce.apiKey);
    const row = await db().settings.findUniqueOrThrow({ where: { id: 1 } });
    expect(row.emailVerifierApiKeyEnc).toMatch(/^v1\./);
    expect(row.emailVerifierApiKeyEnc).not.toContain(zerobounce.apiKey);
  });

  it("shows the provider's credits, this month's use and the last error", async () => {
    zerobounce.credits = 4321;
    const status = await callJson(verificationRoute, "/x", { token });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      configured: true,
      source: "settings",
      credits: 4321,
      creditsError: null,
      lastError: null,
    });
    expect(JSON.stringify(status.body)).not.toContain(zerobounce.apiKey);
    expect(zerobounce.calls).toContain("getcredits:0");

    const at = new Date("2026-11-20T10:00:00Z");
    await recordVerifierError("Invalid API key or your account ran out of credits", at);
    zerobounce.failNext(500);
    expect((await callJson(verificationRoute, "/x", { token })).body).toMatchObject({
      credits: null,
      creditsError: "Stand-in failure 500",
      lastError: "Invalid API key or your account ran out of credits",
      lastErrorAt: at.toISOString(),
    });
  });
});

describe("flagged leads reviewed per claim", () => {
  it("lists claims with their verdicts, keeps one claim's flagged leads on sale and deletes another's; no buyer's file loses rows", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Reviewed Claims" }, 1100, 61);
    await pool().query(`UPDATE leads SET email = 'p' || id || '@ok.test' WHERE category_id = $1`, [category]);
    // Four buyers of overlapping leads; D never claims.
    const keys = { a: "", b: "", c: "", d: "" };
    for (const name of ["a", "b", "c", "d"] as const)
      keys[name] = await buy(category, `buyer-${name}@example.com`);
    const inAll = new Set(await orderEmails(keys.a));
    for (const key of [keys.b, keys.c, keys.d]) {
      const emails = new Set(await orderEmails(key));
      for (const email of inAll) if (!emails.has(email)) inAll.delete(email);
    }
    const shared = [...inAll].sort();
    expect(shared.length).toBeGreaterThanOrEqual(130);
    const x = shared.slice(0, 60);
    const y = shared.slice(60, 120);
    const gone = shared[120];
    // The provider cannot tell: the buyers' word stands (unconfirmed); one address is found invalid.
    for (const email of [...x, ...y]) zerobounce.results.set(email, { status: "unknown", sub_status: "" });
    zerobounce.results.set(gone, { status: "invalid", sub_status: "mailbox_not_found" });
    zerobounce.calls.length = 0;

    expect((await claim(keys.a, [...x, ...y, gone])).status).toBe(201);
    // The claim check used the key stored in Settings.
    expect(zerobounce.calls).toEqual(["validatebatch:121"]);
    expect((await claim(keys.b, x)).status).toBe(201);
    expect((await claim(keys.c, y)).status).toBe(201);
    // Reported by two orders each: flagged for the review, and still on sale (decisions 10.1).
    const flagged = await db().lead.count({ where: { categoryId: category, flaggedAt: { not: null } } });
    expect(flagged).toBe(120);
    expect(await db().lead.count({ where: { categoryId: category, quarantinedAt: { not: null } } })).toBe(0);
    const countBefore = (await db().category.findUniqueOrThrow({ where: { id: category } })).count;

    // The review: newest claim first, each with its flagged leads and their verdicts.
    expect((await call(claimsRoute, "/x", { params: { id: category } })).status).toBe(401);
    expect((await call(claimsRoute, "/x", { token, params: { id: "nope" } })).status).toBe(400);
    expect((await call(claimsRoute, "/x?pageSize=0", { token, params: { id: category } })).status).toBe(400);
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await call(claimsRoute, "/x", { token, params: { id: unknown } })).status).toBe(404);
    type Listed = {
      claimId: string;
      buyerEmail: string;
      flagged: number;
      invalidConfirmed: number;
      leads: { email: string; verdict: string; flagged: boolean; reportedByOrders: number }[];
    };
    const list = await callJson<Listed[]>(claimsRoute, "/x", { token, params: { id: category } });
    expect(list.status).toBe(200);
    expect(list.headers.get("x-total-count")).toBe("3");
    expect(list.body.map((entry) => entry.buyerEmail)).toEqual([
      "b***@e***.com",
      "b***@e***.com",
      "b***@e***.com",
    ]);
    expect(list.body.map((entry) => entry.flagged)).toEqual([60, 60, 120]);
    const [claimC, claimB, claimA] = list.body;
    expect(claimA.invalidConfirmed).toBe(1);
    expect(claimA.leads).toHaveLength(100);
    expect(claimB.leads.map((lead) => lead.email).sort()).toEqual(x);
    expect(claimC.leads.map((lead) => lead.email).sort()).toEqual(y);
    expect(
      new Set(claimB.leads.map((lead) => `${lead.verdict}:${lead.flagged}:${lead.reportedByOrders}`)),
    ).toEqual(new Set(["unconfirmed:true:2"]));
    const second = await callJson<Listed[]>(claimsRoute, "/x?page=2&pageSize=2", {
      token,
      params: { id: category },
    });
    expect(second.body.map((entry) => entry.claimId)).toEqual([claimA.claimId]);
    expect(second.headers.get("x-total-count")).toBe("3");

    // Kept on sale per claim: only B's leads (x) lose their flag; the count never moved.
    const release = (id: string, claimId: string, auth = token) =>
      callJson(releaseClaimRoute, "/x", { token: auth, method: "POST", params: { id, claimId } });
    expect(
      (
        await call(releaseClaimRoute, "/x", {
          method: "POST",
          params: { id: category, claimId: claimB.claimId },
        })
      ).status,
    ).toBe(401);
    expect((await release(category, "abc")).status).toBe(400);
    expect((await release(category, "0")).status).toBe(400);
    const other = await createCategoryWithLeads(pool(), { title: "Other Claims" }, 10, 62);
    expect((await release(other, claimB.claimId)).status).toBe(404);
    expect((await release(category, "999999")).status).toBe(404);
    const released = await release(category, claimB.claimId);
    expect(released.body).toEqual({ success: true, released: 60 });
    expect((await db().category.findUniqueOrThrow({ where: { id: category } })).count).toBe(countBefore);
    const afterRelease = await callJson<Listed[]>(claimsRoute, "/x", { token, params: { id: category } });
    expect(afterRelease.body.map((entry) => [entry.claimId, entry.flagged])).toEqual([
      [claimC.claimId, 60],
      [claimA.claimId, 60],
    ]);

    // Delete per claim: C's leads (y) leave the shelf; those in buyers' files (all of them are in
    // D's, and A's keeps the ones its claim could not replace) stay there, marked invalid.
    const files: Record<string, string[]> = {};
    for (const [name, key] of Object.entries(keys)) files[name] = await csvOf(key);
    const deleted = await callJson(deleteClaimRoute, "/x", {
      token,
      method: "DELETE",
      params: { id: category, claimId: claimC.claimId },
    });
    expect(deleted.body).toEqual({ success: true, deleted: 60 });
    expect((await db().category.findUniqueOrThrow({ where: { id: category } })).count).toBe(countBefore - 60);
    expect(await db().lead.count({ where: { categoryId: category, flaggedAt: { not: null } } })).toBe(0);
    const isY = (line: string) => y.some((email) => line.includes(`,${email},`));
    for (const [name, key] of Object.entries(keys)) {
      const file = await csvOf(key);
      expect(file, `order ${name}`).toHaveLength(1000);
      // Every row stays where it was; only y's rows changed, to invalid.
      const changed = file.filter((line, index) => line !== files[name][index]);
      expect(changed, `order ${name}`).toEqual(
        files[name].filter(isY).map((line) => line.replace(/,(valid|accept-all|unknown),/, ",invalid,")),
      );
      expect(changed.every((line) => line.includes(",invalid,"))).toBe(true);
      if (name === "d") expect(changed).toHaveLength(60);
    }
    expect(
      (await call(claimsRoute, "/x", { token, params: { id: category } })).headers.get("x-total-count"),
    ).toBe("0");
  }, 60_000);
});
