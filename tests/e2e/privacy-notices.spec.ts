// UK rows sold lawfully, end to end in Chromium on a test-mode store of its own with notices on:
// the admin imports UK leads, which stay off sale while their notices wait for the seller's
// identity; completing it in Settings sends the notices (to a real SMTP server on loopback) and
// puts the leads on sale; the admin uploads a TPS and a CTPS register; a buyer buys a UK starter
// and reads its due-diligence statement; a person opts out from their notice's link.
import { expect, test, type Page } from "@playwright/test";
import bcrypt from "bcryptjs";
import { Pool } from "pg";
import { startAppServer, type AppServer } from "../support/app-server";
import { signToken, type E2EAdmin } from "./admin-fixtures";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { startSmtpCatcher, type SmtpCatcher } from "../support/smtp";

const LEADS = 1010;

let server: AppServer;
let database: TestDatabase;
let smtp: SmtpCatcher;
let adminToken: string;
let categoryId: string;

test.beforeAll(async () => {
  database = await createTestDatabase("leadmarket_e2e_notices");
  const pool = new Pool({ connectionString: database.url, max: 2 });
  try {
    const { rows: admins } = await pool.query<E2EAdmin>(
      `INSERT INTO admins (email, password_hash) VALUES ('owner@notices.test', $1)
       RETURNING id, email, password_changed_at AS "passwordChangedAt"`,
      [await bcrypt.hash("notices-admin-password", 4)],
    );
    adminToken = await signToken(admins[0]);
    // Everything of the seller's identity but the ICO number: notices wait for it.
    await pool.query(
      `INSERT INTO settings (id, seller_legal_name, seller_address, seller_privacy_email)
       VALUES (1, 'LeadMarket Ltd', '1 Example Street, London', 'privacy@leadmarket.example')`,
    );
    const { rows } = await pool.query<{ id: string }>(
      "INSERT INTO categories (title) VALUES ('UK Finance') RETURNING id",
    );
    categoryId = rows[0].id;
  } finally {
    await pool.end();
  }
  smtp = await startSmtpCatcher();
  server = await startAppServer({
    env: {
      DATABASE_URL: database.url,
      // The e2e secret, so the admin fixtures' tokens sign in here too.
      APP_SECRET: process.env.E2E_APP_SECRET,
      PAYMENTS_TEST_MODE: "1",
      ALLOW_TEST_PAYMENTS_IN_PRODUCTION: "1",
      SMTP_URL: smtp.url,
      ORDER_CREATE_LIMIT: "100",
      DNS_SERVERS: "off",
      // The whole import's notices at once (the pace is the integration tests').
      PRIVACY_NOTICE_RATE: "0",
      PRIVACY_NOTICE_DOMAIN_RATE: "100000",
    },
    stdout: "ignore",
  });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  await database?.drop();
});

async function openAdmin(page: Page, tab: string): Promise<void> {
  await page.goto(`${server.url}/admin/login`);
  await page.evaluate((value) => window.localStorage.setItem("adminToken", value), adminToken);
  await page.goto(`${server.url}/admin/dashboard?tab=${tab}`);
}

/** The category's sellable UK leads, as the public API counts them. */
async function ukForSale(page: Page): Promise<number> {
  const categories = (await (await page.request.get(`${server.url}/api/categories`)).json()) as {
    _id: string;
    countByLocation: { UK?: number };
  }[];
  return categories.find((category) => category._id === categoryId)?.countByLocation.UK ?? 0;
}

const phone = (index: number) => `020 7946 ${String(index).padStart(4, "0")}`;

test("UK leads sell once their notices are sent; the statement and the opt-out link say so", async ({
  page,
}) => {
  test.setTimeout(240_000);

  // The admin imports UK leads: they wait for their notices, off sale.
  await openAdmin(page, "categories");
  const card = page.locator("[data-category-id]").filter({ hasText: "UK Finance" });
  await card.getByRole("button", { name: "Import Leads" }).click();
  const dialog = page.getByRole("dialog");
  const csv = ["First Name,Last Name,Email,Company,Phone,Country"];
  for (let index = 0; index < LEADS; index += 1) {
    csv.push(
      `Person,Number${index},person${index}@firm${index % 40}.co.uk,Firm ${index % 40},${phone(index)},UK`,
    );
  }
  await dialog.getByLabel("Source").fill("Company websites");
  await dialog
    .getByLabel("CSV file")
    .setInputFiles({ name: "uk.csv", mimeType: "text/csv", buffer: Buffer.from(csv.join("\n")) });
  await dialog.getByRole("button", { name: "Import" }).click();
  await expect(dialog.getByTestId("import-report")).toContainText(
    `Imported: ${LEADS.toLocaleString("en-US")}`,
  );
  await dialog.getByRole("button", { name: "Close", exact: true }).first().click();
  expect(await ukForSale(page)).toBe(0);
  await page.goto(`${server.url}/admin/dashboard?tab=dashboard`);
  await expect(
    page.getByText("Seller identity incomplete: add ICO registration number in Settings."),
  ).toBeVisible();
  await expect(page.getByText(`${LEADS.toLocaleString("en-US")} UK leads queued`)).toBeVisible();
  expect(smtp.messages).toHaveLength(0);

  // The ICO number completes the identity: the notices go out, and the leads go on sale.
  await page.goto(`${server.url}/admin/dashboard?tab=settings`);
  await page.getByLabel("ICO Registration Number").fill("ZA123456");
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.getByText("Your settings have been saved successfully").first()).toBeVisible();
  await expect.poll(() => ukForSale(page), { timeout: 120_000, intervals: [1000] }).toBe(LEADS);
  const notice = await smtp.waitFor((mail) => JSON.stringify(mail.to).includes("person7@firm7.co.uk"));
  expect(notice.subject).toBe("LeadMarket Ltd holds your business contact details");
  expect(notice.text).toContain("ZA123456");
  expect(notice.text).toContain("Where they came from: Company websites.");

  // The registers: one number on the TPS, another on the CTPS.
  for (const [register, number] of [
    ["tps", phone(1)],
    ["ctps", phone(2)],
  ] as const) {
    await page.getByLabel("Register", { exact: true }).selectOption(register);
    await page.getByLabel("File Date").fill(new Date().toISOString().slice(0, 10));
    await page
      .getByLabel("File (text, CSV or zip, one number per line)")
      .setInputFiles({ name: `${register}.txt`, mimeType: "text/plain", buffer: Buffer.from(`${number}\n`) });
    await page.getByRole("button", { name: "Upload Register" }).click();
    await expect(page.getByRole("status").filter({ hasText: "1 numbers loaded" }).first()).toBeVisible();
  }

  // A buyer buys a UK starter and reads the order's statement.
  await page.goto(`${server.url}/category/${categoryId}?package=starter&location=UK`);
  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Buy Now" }).click();
  const popup = await popupPromise;
  const download = popup.waitForEvent("download");
  await popup.getByRole("button", { name: /Pay \$10\.00/ }).click();
  await expect(popup.getByTestId("purchase-complete").getByText("Payment Complete!")).toBeVisible();
  const key = /^leads-([A-Za-z0-9_-]{43})\.csv$/.exec((await download).suggestedFilename())![1];
  await page.goto(`${server.url}/order/${key}/statement`);
  const statement = page.getByTestId("statement");
  await expect(statement).toContainText("ZA123456");
  await expect(statement.getByTestId("statement-notices")).toContainText(
    "We sent each of the 1,000 UK people in this order our Article 14 notice before their row was first sold",
  );

  // A person opts out from their notice's link: what we hold, one button, then nothing left.
  const link = /https?:\/\/\S+\/privacy\/notice\?token=\S+/.exec(notice.text!)![0];
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Your details at LeadMarket" })).toBeVisible();
  await expect(page.getByText("person7@firm7.co.uk")).toBeVisible();
  await page.getByRole("button", { name: "Opt out and erase my details" }).click();
  await expect(page.getByText("Your details are erased")).toBeVisible();
  await page.goto(link);
  await expect(page.getByText("You have already opted out")).toBeVisible();
  await expect.poll(() => ukForSale(page)).toBeLessThan(LEADS);
});
