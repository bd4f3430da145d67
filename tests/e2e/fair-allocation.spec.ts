// Fair allocation in the browser (docs/product-rules.md, "Fair allocation"): two starter orders of
// one buyer email in one category, each paid on the built-in test payment page, share no row. The
// shared e2e app runs with test mode off, so this file starts a second server of the same build, on
// the same database, with it on.
import { readFile } from "node:fs/promises";
import { expect, test, type Browser } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { startTestModeServer, type AppServer } from "../support/app-server";

let server: AppServer;
const BUYER = `fair-${Date.now()}@example.com`;

test.beforeAll(async () => {
  server = await startTestModeServer();
});

test.afterAll(async () => {
  await server.stop();
});

/** Buys the category's starter package with the buyer's email; answers the delivered emails. */
async function buyStarter(browser: Browser, categoryId: string): Promise<string[]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/category/${categoryId}?package=starter`);
  await page.getByLabel("Email me my download link").fill(BUYER);
  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Buy Now" }).click();
  const popup = await popupPromise;
  await expect(popup).toHaveTitle("Test Payment | LeadMarket");
  const downloadPromise = popup.waitForEvent("download");
  await popup.getByRole("button", { name: /Pay \$10\.00/ }).click();
  await expect(popup.getByText("Payment Complete!").first()).toBeVisible();
  const text = await readFile((await (await downloadPromise).path())!, "utf8");
  await context.close();
  const records = parse(text, { columns: true, bom: true }) as Record<string, string>[];
  return records.map((record) => record.Email);
}

test("two orders of one email in one category share no row", async ({ browser }) => {
  const categories = (await (await fetch(`${server.url}/api/categories`)).json()) as {
    _id: string;
    title: string;
  }[];
  const category = categories.find((entry) => entry.title === "Healthcare")!;
  const first = await buyStarter(browser, category._id);
  const second = await buyStarter(browser, category._id);
  expect(first).toHaveLength(1000);
  expect(second).toHaveLength(1000);
  const bought = new Set(first);
  expect(second.filter((email) => bought.has(email))).toEqual([]);
});
