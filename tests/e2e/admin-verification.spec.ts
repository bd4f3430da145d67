// The admin's side of verification in Chromium against the production build, with a server of its
// own (its own database, a DNS server on loopback and the ZeroBounce stand-in, so the key stored
// here reaches no other spec): the provider key saved in Settings and its credits shown; a
// category's due leads re-checked now, with the progress on its card; flagged leads reviewed per
// claim, one claim's kept on sale and another's deleted, every buyer's file keeping its rows; rows held
// under a claim's 20% cap replaced as far as the category goes, the rest declined.
import { expect, test, type Page } from "@playwright/test";
import { SignJWT } from "jose";
import { Pool } from "pg";
import { createCategoryWithLeads } from "../../prisma/demo-data";
import { startAppServer, type AppServer } from "../support/app-server";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { startDnsServer, type LoopbackDnsServer } from "../support/dns-server";
import { startZeroBounceStandin, type ZeroBounceStandin } from "../support/zerobounce-standin";
import { expectToast } from "./toast";

const APP_SECRET = "verification-e2e-secret-0123456789-0123456789";

let database: TestDatabase;
let pool: Pool;
let dns: LoopbackDnsServer;
let zerobounce: ZeroBounceStandin;
let server: AppServer;
let token: string;
let reviewCategory: string;
let heldCategory: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  database = await createTestDatabase("leadmarket_e2e_verification");
  pool = new Pool({ connectionString: database.url, max: 2 });
  dns = await startDnsServer({ zone: { "ok.test": { mx: [{ exchange: "mx.ok.test", priority: 10 }] } } });
  zerobounce = await startZeroBounceStandin("zb-e2e-key");
  reviewCategory = await createCategoryWithLeads(pool, { title: "Review Leads" }, 1100, 81);
  const recheck = await createCategoryWithLeads(pool, { title: "Recheck Leads" }, 300, 82);
  heldCategory = await createCategoryWithLeads(pool, { title: "Held Leads" }, 1500, 83);
  await pool.query(`UPDATE leads SET email = 'p' || id || '@ok.test' WHERE category_id IN ($1, $2, $3)`, [
    reviewCategory,
    recheck,
    heldCategory,
  ]);
  await pool.query(`UPDATE leads SET verified_at = now() - interval '40 days' WHERE category_id = $1`, [
    recheck,
  ]);
  // Only the re-check category has leads due (verified over 27 days ago): the server's re-check
  // worker never asks the provider about the others, so it cannot take the claims' provider
  // failures or their pace (it did under load, before a claim below).
  await pool.query(
    `UPDATE leads SET verified_at = now() - (id % 600) * interval '1 hour' WHERE category_id IN ($1, $2)`,
    [reviewCategory, heldCategory],
  );
  const { rows } = await pool.query<{ id: string; password_changed_at: Date }>(
    "INSERT INTO admins (email, password_hash) VALUES ('verif@example.com', 'x') RETURNING id, password_changed_at",
  );
  token = await new SignJWT({ pwv: rows[0].password_changed_at.getTime() })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(rows[0].id)
    .setIssuer("leadmarket")
    .setAudience("leadmarket-admin")
    .setIssuedAt()
    .setExpirationTime("2h")
    .sign(new TextEncoder().encode(APP_SECRET));
  server = await startAppServer({
    env: {
      DATABASE_URL: database.url,
      APP_SECRET,
      SMTP_URL: "",
      PAYMENTS_TEST_MODE: "1",
      ALLOW_TEST_PAYMENTS_IN_PRODUCTION: "1",
      DNS_SERVERS: dns.address,
      EMAIL_VERIFIER_API_URL: zerobounce.url,
      EMAIL_VERIFIER_API_KEY: "",
      EMAIL_VERIFY_RATE: "0",
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await pool?.end();
  await dns?.close();
  await zerobounce?.close();
  await database?.drop();
});

async function openTab(page: Page, tab: string): Promise<void> {
  await page.goto(`${server.url}/admin/login`);
  await page.evaluate((value) => window.localStorage.setItem("adminToken", value), token);
  await page.goto(`${server.url}/admin/dashboard?tab=${tab}`);
}

/** A paid starter order of the category holding its 1,000 most recently verified leads. */
async function paidOrder(category = reviewCategory): Promise<{ id: string; key: string; emails: string[] }> {
  const { rows } = await pool.query<{ id: string; download_key: string }>(
    `INSERT INTO orders (category_id, lead_title, package_type, lead_count, amount, status, paid_at, download_expires_at)
     SELECT id, title, 'starter', 1000, 10, 'finished', now(), now() + interval '30 days' FROM categories WHERE id = $1
     RETURNING id, download_key`,
    [category],
  );
  await pool.query(
    `INSERT INTO order_leads (order_id, position, lead_id)
     SELECT $1, row_number() OVER (ORDER BY verified_at DESC, id), id
       FROM (SELECT id, verified_at FROM leads WHERE category_id = $2 AND quarantined_at IS NULL
              ORDER BY verified_at DESC, id LIMIT 1000) chosen`,
    [rows[0].id, category],
  );
  const leads = await pool.query<{ email: string }>(
    `SELECT l.email FROM order_leads ol JOIN leads l ON l.id = ol.lead_id WHERE ol.order_id = $1 ORDER BY ol.position`,
    [rows[0].id],
  );
  return { id: rows[0].id, key: rows[0].download_key, emails: leads.rows.map((row) => row.email) };
}

test("the verification provider's key is saved masked and its credits are shown", async ({ page }) => {
  await openTab(page, "settings");
  const card = page
    .locator("[data-slot=card]")
    .filter({ has: page.getByRole("heading", { name: "Email Verification" }) });
  await expect(card.getByRole("definition").first()).toHaveText("No provider configured");
  await card.getByRole("button", { name: "Update ZeroBounce Key" }).click();
  await card.getByLabel("New ZeroBounce Key").fill(zerobounce.apiKey);
  await card.getByRole("button", { name: "Save ZeroBounce Key" }).click();
  await expectToast(page, "Settings updated");
  await expect(card.getByLabel("ZeroBounce API Key")).toHaveValue("••••••••-key");
  await expect(card.getByRole("definition").first()).toHaveText("1,000,000");
  expect(await page.content()).not.toContain(zerobounce.apiKey);
});

test("Re-check now runs the category's leads through the checks and shows it on the card", async ({
  page,
}) => {
  await openTab(page, "categories");
  const card = page
    .locator("[data-category-id]")
    .filter({ has: page.getByRole("heading", { name: "Recheck Leads" }) });
  const rechecks = card.getByTestId("rechecks");
  await expect(rechecks).toContainText("300 due for a re-check");
  page.once("dialog", (dialog) => void dialog.accept());
  await rechecks.getByRole("button", { name: "Re-check now" }).click();
  await expectToast(page, "Re-check queued", "Recheck Leads");
  // Polled until the workers are done: every lead checked with the stored key's provider.
  await expect(rechecks).toContainText("Last re-check: 300 leads, finished", { timeout: 30_000 });
  await expect(rechecks).toContainText("0 due for a re-check");
  expect(zerobounce.calls.filter((call) => call.startsWith("validatebatch")).length).toBeGreaterThan(0);
});

test("flagged leads are reviewed per claim: one claim's kept on sale, another's deleted, no file loses rows", async ({
  page,
}) => {
  const orders = [await paidOrder(), await paidOrder(), await paidOrder(), await paidOrder()];
  const x = orders[0].emails.slice(100, 160);
  const y = orders[0].emails.slice(200, 260);
  // The provider cannot tell: the buyers' word counts, and two orders' reports flag the leads.
  for (const email of [...x, ...y]) zerobounce.results.set(email, { status: "unknown", sub_status: "" });
  const claims: [number, string[]][] = [
    [0, x],
    [1, x],
    [2, y],
    [3, y],
  ];
  for (const [index, emails] of claims) {
    const answer = await page.request.post(`${server.url}/api/orders/${orders[index].key}/replacement`, {
      data: { emails },
    });
    expect(answer.status()).toBe(201);
  }

  await openTab(page, "categories");
  const card = page
    .locator("[data-category-id]")
    .filter({ has: page.getByRole("heading", { name: "Review Leads" }) });
  await expect(card.getByTestId("quarantine")).toContainText("120 flagged");
  await card.getByRole("button", { name: "Review by claim" }).click();
  const dialog = page.getByRole("dialog", { name: "Claims review: Review Leads" });
  const claim = (index: number) => dialog.getByRole("region", { name: `Claim on order ${orders[index].id}` });
  await expect(dialog.getByTestId("quarantine-claim")).toHaveCount(4);
  await expect(claim(1)).toContainText("60 of its reported leads flagged");
  await expect(claim(1).getByText("Flagged", { exact: true })).toHaveCount(60);
  await expect(claim(1).getByText("Unconfirmed", { exact: true })).toHaveCount(60);

  await claim(1).getByRole("button", { name: "Keep on sale" }).click();
  await expectToast(page, "Claim's flagged leads kept on sale");
  // The first order's claim reported the same leads: both leave the review.
  await expect(dialog.getByTestId("quarantine-claim")).toHaveCount(2);

  page.once("dialog", (confirm) => void confirm.accept());
  await claim(3).getByRole("button", { name: "Delete claim's leads" }).click();
  await expectToast(page, "Claim's leads deleted");
  await expect(dialog).toContainText("No leads to review");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText("No leads to review");

  const { rows } = await pool.query<{ rows: number; invalid: number }>(
    `SELECT count(*)::int AS rows, count(*) FILTER (WHERE l.email_status = 'invalid')::int AS invalid
       FROM order_leads ol JOIN leads l ON l.id = ol.lead_id WHERE ol.order_id = ANY($1::uuid[])
      GROUP BY ol.order_id ORDER BY ol.order_id`,
    [orders.map((order) => order.id)],
  );
  expect(rows.map((row) => row.rows)).toEqual([1000, 1000, 1000, 1000]);
  // The deleted claim's leads stay in the files that hold them, marked invalid.
  expect(rows.reduce((sum, row) => sum + row.invalid, 0)).toBeGreaterThan(0);
});

test("rows held under a claim's 20% cap are replaced as far as the category goes, the rest declined", async ({
  page,
}) => {
  const order = await paidOrder(heldCategory);
  // The provider fails: without its word one claim replaces 200 of the 1,000 rows, 800 are held.
  // No earlier verdict of its to reuse, and its pace idle, so that the claim's first batch meets
  // the failure.
  await pool.query(
    `UPDATE leads SET provider_checked_at = NULL WHERE id IN (SELECT lead_id FROM order_leads WHERE order_id = $1)`,
    [order.id],
  );
  await pool.query("DELETE FROM paces WHERE name = 'provider-batches'");
  zerobounce.failNext(500);
  const answer = await page.request.post(`${server.url}/api/orders/${order.key}/replacement`, {
    data: { emails: order.emails },
  });
  expect(await answer.json()).toMatchObject({ replaced: 200, heldForReview: 800 });

  await openTab(page, "categories");
  const card = page
    .locator("[data-category-id]")
    .filter({ has: page.getByRole("heading", { name: "Held Leads" }) });
  await expect(card.getByTestId("quarantine")).toContainText("800 held for review");
  await card.getByRole("button", { name: "Review by claim" }).click();
  const dialog = page.getByRole("dialog", { name: "Claims review: Held Leads" });
  const claim = dialog.getByRole("region", { name: `Claim on order ${order.id}` });
  await expect(claim).toContainText("800 of its rows held for review");

  // 1,500 leads: 1,000 reported, 200 given at the claim, 300 left to replace with.
  await claim.getByRole("button", { name: "Replace held leads" }).click();
  await expectToast(
    page,
    "Held leads replaced",
    `Order ${order.id}: 300 replaced, 500 still held (the category ran short)`,
  );
  await expect(claim).toContainText("500 of its rows held for review");

  page.once("dialog", (confirm) => void confirm.accept());
  await claim.getByRole("button", { name: "Decline held leads" }).click();
  await expectToast(page, "Held leads declined", `Order ${order.id}`);
  await expect(dialog).toContainText("No leads to review");

  // The buyer's order page tells what became of the claim; the file keeps its 1,000 rows.
  await page.goto(`${server.url}/order/${order.key}`);
  await expect(page.getByTestId("replacement-claim")).toContainText("500 leads replaced");
  await expect(page.getByTestId("declined-after-review")).toHaveText(
    "500 reported leads were reviewed by our team and not replaced.",
  );
  const { rows } = await pool.query<{ rows: number; changed: number }>(
    `SELECT count(*)::int AS rows, count(*) FILTER (WHERE l.email <> ALL($2::text[]))::int AS changed
       FROM order_leads ol JOIN leads l ON l.id = ol.lead_id WHERE ol.order_id = $1`,
    [order.id, order.emails],
  );
  expect(rows[0]).toEqual({ rows: 1000, changed: 500 });
});
