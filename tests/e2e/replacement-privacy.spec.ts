// The buyer's replacement claim on the order page and a person's erasure request, in Chromium
// against the production build: a refused claim (5% or less) with its message, an accepted one from
// a CSV upload and the claim shown after reload, flagged for the admin (still on sale) once a second order's buyer reports the same leads; /privacy/requests -> confirmation mail -> confirm
// page -> erased, and the admin's masked list.
import { closeE2eDb, e2eDb, expect, openDashboard, test } from "./admin-fixtures";
import { mailTo } from "./mailbox";

/** A paid starter order of a demo category no other browser test reads, with its 1,000 leads. */
async function paidOrder(categoryTitle: string): Promise<{ key: string; emails: string[] }> {
  const db = e2eDb();
  const { rows } = await db.query<{ id: string; download_key: string }>(
    `INSERT INTO orders (category_id, lead_title, package_type, lead_count, amount, status, paid_at, download_expires_at)
     SELECT id, title, 'starter', 1000, 10, 'finished', now(), now() + interval '30 days'
       FROM categories WHERE title = $1
     RETURNING id, download_key`,
    [categoryTitle],
  );
  const order = rows[0];
  await db.query(
    `INSERT INTO order_leads (order_id, position, lead_id)
     SELECT $1, row_number() OVER (ORDER BY verified_at DESC, id), id
       FROM (SELECT l.id, l.verified_at FROM leads l JOIN categories c ON c.id = l.category_id
              WHERE c.title = $2 AND l.quarantined_at IS NULL ORDER BY verified_at DESC, l.id LIMIT 1000) chosen`,
    [order.id, categoryTitle],
  );
  const leads = await db.query<{ email: string }>(
    `SELECT l.email FROM order_leads ol JOIN leads l ON l.id = ol.lead_id WHERE ol.order_id = $1 ORDER BY ol.position`,
    [order.id],
  );
  return { key: order.download_key, emails: leads.rows.map((row) => row.email) };
}

test.afterAll(closeE2eDb);

test("a buyer is refused at 5% with the counted number, claims from a CSV and sees the claim; the admin releases", async ({
  page,
  adminToken,
}) => {
  const { key, emails } = await paidOrder("Legal");
  await page.goto(`/order/${key}`);
  const claim = page.getByRole("form", { name: "Replacement claim" });
  await expect(claim).toContainText("more than 50 of the 1,000 leads");

  // Nothing found in the text: the browser says so without asking the server.
  await claim.getByLabel("Invalid email addresses").fill("no addresses here");
  await claim.getByRole("button", { name: "Claim replacement" }).click();
  await expect(claim.getByRole("alert")).toHaveText(
    "No email addresses found. Paste the invalid addresses first.",
  );

  // 50 of 1,000 is exactly 5%: refused, with the threshold and the counted number.
  await claim
    .getByLabel("Invalid email addresses")
    .fill([...emails.slice(0, 50), "stranger@nowhere.example"].join("\n"));
  await claim.getByRole("button", { name: "Claim replacement" }).click();
  await expect(claim.getByRole("alert")).toContainText("more than 5%");
  await expect(claim.getByRole("alert")).toContainText(
    "50 of the reported addresses were delivered in this order; 1 was not",
  );

  // 60 from an uploaded CSV: accepted.
  await claim.getByLabel("Invalid email addresses").fill("");
  const csv = ["Email,Reason", ...emails.slice(100, 160).map((email) => `${email},bounced`)].join("\n");
  await claim.getByLabel(/upload a CSV file/).setInputFiles({
    name: "bounces.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(csv),
  });
  await claim.getByRole("button", { name: "Claim replacement" }).click();
  await expect(page.getByRole("status")).toContainText("Claim accepted: 60 leads replaced.");

  await page.reload();
  await expect(page.getByTestId("replacement-claim")).toContainText("60 leads replaced");
  await expect(page.getByRole("form", { name: "Replacement claim" })).toHaveCount(0);

  // One buyer's word leaves them on sale; a buyer of another order of the same leads reports them
  // too: now they are flagged for the admin, still on sale (docs/product-rules.md, "Replacement claims").
  const second = await paidOrder("Legal");
  const reported = emails.slice(100, 160);
  expect(second.emails.filter((email) => reported.includes(email))).toHaveLength(60);
  const secondClaim = await page.request.post(`/api/orders/${second.key}/replacement`, {
    data: { emails: reported },
  });
  expect(secondClaim.status()).toBe(201);

  // The admin sees them flagged in the Categories tab and keeps them on sale (the count never moved).
  const countOf = async () =>
    (await e2eDb().query<{ count: number }>("SELECT count FROM categories WHERE title = 'Legal'")).rows[0]
      .count;
  const before = await countOf();
  await openDashboard(page, adminToken, "categories");
  const card = page
    .locator("[data-category-id]")
    .filter({ has: page.getByRole("heading", { name: "Legal" }) });
  await expect(card.getByTestId("quarantine")).toContainText("60 flagged");
  await card.getByRole("button", { name: "Keep on sale" }).click();
  await expect(card).toContainText("No leads to review");
  expect(await countOf()).toBe(before);
  await page.getByRole("button", { name: "Dashboard" }).click();
  await expect(page.getByText("Replacement Rate")).toBeVisible();
  await expect(page.getByText("Invalid Found")).toBeVisible();
});

test("a person asks for erasure, confirms from the mail, and is gone; the admin sees a masked request", async ({
  page,
  adminToken,
}) => {
  const { rows } = await e2eDb().query<{ email: string }>(
    `SELECT l.email FROM leads l JOIN categories c ON c.id = l.category_id
      WHERE c.title = 'Construction' ORDER BY l.id DESC LIMIT 1`,
  );
  const email = rows[0].email;

  await page.goto("/privacy-policy");
  await expect(page.getByRole("link", { name: "privacy requests page" })).toHaveAttribute(
    "href",
    "/privacy/requests",
  );
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Requests" }).click();
  await expect(page).toHaveURL(/\/privacy\/requests$/);
  await expect(page.getByRole("heading", { level: 1, name: "Privacy requests" })).toBeVisible();
  const form = page.getByRole("form", { name: "Privacy request" });
  await form.getByLabel("Your email address").fill("not-an-email@");
  await form.getByLabel("Erase my data").check();
  await form.getByRole("button", { name: "Send confirmation link" }).click();
  // The browser's own check stops an invalid address before any request.
  await expect(form).toBeVisible();
  await form.getByLabel("Your email address").fill(email.toUpperCase());
  await form.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(page.getByRole("status")).toContainText("Check your inbox");

  const mail = await mailTo(email, "Confirm your erasure request");
  const link = /http:\/\/\S+\/privacy\/requests\/confirm\?token=\S+/.exec(mail.text)![0];
  expect((await e2eDb().query("SELECT 1 FROM leads WHERE email = $1", [email])).rowCount).toBe(1);

  await page.goto(link.replace(/^http:\/\/[^/]+/, ""));
  await expect(page.getByText("This cannot be undone.")).toBeVisible();
  await page.getByRole("button", { name: "Erase my data" }).click();
  await expect(page.getByRole("status")).toContainText("Your data has been erased.");
  expect((await e2eDb().query("SELECT 1 FROM leads WHERE email = $1", [email])).rowCount).toBe(0);

  // The same link again: already done.
  await page.reload();
  await page.getByRole("button", { name: "Erase my data" }).click();
  await expect(page.getByRole("status")).toContainText("already confirmed");

  await openDashboard(page, adminToken, "requests");
  const privacy = page
    .getByRole("heading", { name: "Privacy Requests" })
    .locator("xpath=ancestor::*[@data-slot='card'][1]");
  const masked = `${email[0]}***@${email.split("@")[1][0]}***`;
  await expect(privacy.getByRole("row").filter({ hasText: masked }).first()).toContainText("Erasure");
  await expect(privacy.getByRole("row").filter({ hasText: masked }).first()).toContainText("Completed");
  await expect(page.getByText(email)).toHaveCount(0);
});
