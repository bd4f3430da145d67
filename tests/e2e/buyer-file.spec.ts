// The buyer's file, end to end in Chromium on a test-mode store: choose "Valid only" beside the
// segment filters, buy a starter, download the HubSpot import from the purchase's menu (HubSpot's
// own headers, every row valid), then get an invoice on the order page and read the PDF back, and
// open the order's due-diligence statement.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { Pool } from "pg";
import { createCategoryWithLeads } from "../../prisma/demo-data";
import { startTestModeServer, type AppServer } from "../support/app-server";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { pdfText } from "../support/pdf";

let server: AppServer;
let database: TestDatabase;
let categoryId: string;

// A store of its own: the seller's identity it sets for the invoice stays out of the shared
// store's Settings, which other specs read and save meanwhile.
test.beforeAll(async () => {
  database = await createTestDatabase("leadmarket_e2e_buyer_file");
  const pool = new Pool({ connectionString: database.url, max: 2 });
  try {
    categoryId = await createCategoryWithLeads(pool, { title: "Marketing" }, 3000, 41);
    // Two in three found valid (the rest stay unknown), so "Valid only" fills a starter.
    await pool.query("UPDATE leads SET email_status = 'valid' WHERE category_id = $1 AND id % 3 <> 0", [
      categoryId,
    ]);
    await pool.query(
      "INSERT INTO settings (id, seller_legal_name, seller_address) VALUES (1, 'LeadMarket Ltd', '1 Example Street, London')",
    );
  } finally {
    await pool.end();
  }
  server = await startTestModeServer(database.url);
});

test.afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

test("valid only: buy, take the HubSpot file and an invoice", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${server.url}/category/${categoryId}?package=starter`);
  const filters = page.getByTestId("segment-filters");
  await filters.getByTestId("email-quality").selectOption("valid");
  await filters.getByRole("button", { name: "Show matching leads" }).click();
  await expect(page).toHaveURL(/emailQuality=valid/);
  await expect(page.getByTestId("segment-availability")).toContainText("Starter available");

  const popupPromise = page.waitForEvent("popup");
  const created = page.waitForRequest("**/api/payment/create");
  await page.getByRole("button", { name: "Buy Now" }).click();
  expect((await created).postDataJSON()).toMatchObject({ emailQuality: "valid" });
  const popup = await popupPromise;
  const firstDownload = popup.waitForEvent("download");
  await popup.getByRole("button", { name: /Pay \$10\.00/ }).click();
  const complete = popup.getByTestId("purchase-complete");
  await expect(complete.getByText("Payment Complete!")).toBeVisible();
  await firstDownload;

  // The HubSpot import from the purchase's one menu: HubSpot's own headers, every row valid.
  const menu = complete.getByTestId("download-menu");
  await menu.getByText("Download leads").click();
  const hubspot = popup.waitForEvent("download");
  await menu.getByRole("link", { name: "HubSpot import (CSV)" }).click();
  const file = await hubspot;
  expect(file.suggestedFilename()).toMatch(/^leads-[A-Za-z0-9_-]{43}-hubspot\.csv$/);
  const records = parse(await readFile((await file.path())!, "utf8"), { columns: true }) as Record<
    string,
    string
  >[];
  expect(records).toHaveLength(1000);
  expect(Object.keys(records[0])).toContain("Job Title");
  expect(Object.keys(records[0])).toContain("Company Name");
  expect(new Set(records.map((record) => record["Email Status"]))).toEqual(new Set(["valid"]));

  // An invoice from the order page: the company's details, then the PDF with its number.
  const key = /^leads-([A-Za-z0-9_-]{43})-hubspot\.csv$/.exec(file.suggestedFilename())![1];
  await page.goto(`${server.url}/order/${key}`);
  const invoice = page.locator("#invoice");
  await invoice.getByLabel("Company name").fill("Acme Widgets GmbH");
  await invoice.getByLabel("Address", { exact: true }).fill("Hauptstrasse 1, 10115 Berlin");
  await invoice.getByLabel("Country").click();
  await page.getByRole("option", { name: "Germany" }).click();
  await invoice.getByRole("button", { name: "Get an invoice" }).click();
  const issued = invoice.getByTestId("invoice-issued");
  await expect(issued).toContainText("for Acme Widgets GmbH, Germany");
  const number = /Invoice (\d+)/.exec((await issued.textContent())!)![1];
  const pdf = page.waitForEvent("download");
  await issued.getByRole("link", { name: "Download invoice (PDF)" }).click();
  const document = await pdf;
  expect(document.suggestedFilename()).toBe(`invoice-${number}.pdf`);
  const text = await pdfText(new Uint8Array(await readFile((await document.path())!)));
  for (const expected of ["LeadMarket Ltd", "Acme Widgets GmbH", "Marketing", "1,000", "$10.00"]) {
    expect(text).toContain(expected);
  }
  expect(text).toContain(number);

  // The order's due-diligence statement, linked from the order page.
  await page.getByRole("link", { name: "Due-diligence statement" }).click();
  await expect(page).toHaveURL(new RegExp(`/order/${key}/statement$`));
  await expect(page.getByRole("heading", { name: "Due-diligence statement", level: 1 })).toBeVisible();
  const statement = page.getByTestId("statement");
  await expect(statement).toContainText("LeadMarket Ltd");
  await expect(statement).toContainText("This order has no UK rows");
  const sources = statement.getByTestId("statement-sources").locator("tbody tr");
  expect(await sources.count()).toBeGreaterThan(0);
  await expect(statement.getByTestId("statement-opt-outs")).toContainText(
    "No one in this order has opted out",
  );
});
