// Segments on the category page (docs/product-rules.md, "Segments"): the filters under the hero
// narrow the list with counts, server-rendered from the address (also without JavaScript), the
// purchase card follows the segment, the segment preview shows its leads masked, and a starter
// bought in test payment mode delivers only leads of the segment, at desktop and phone widths.
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { startTestModeServer, type AppServer } from "../support/app-server";

let server: AppServer;
let categoryId: string;

test.beforeAll(async () => {
  server = await startTestModeServer();
  const categories = (await (await fetch(`${server.url}/api/categories`)).json()) as {
    _id: string;
    title: string;
  }[];
  categoryId = categories.find((category) => category.title === "Software & SaaS")!._id;
});

test.afterAll(async () => {
  await server.stop();
});

const matchCount = async (page: Page) =>
  Number((await page.getByTestId("segment-count").locator("strong").textContent())!.replace(/,/g, ""));

async function filterAndBuy(page: Page, state: string) {
  await page.goto(`${server.url}/category/${categoryId}?package=starter`);
  const whole = await matchCount(page);
  expect(whole).toBeGreaterThan(20_000);

  const filters = page.getByTestId("segment-filters");
  await filters.locator('details[data-facet="region"] summary').click();
  await filters.getByRole("checkbox", { name: new RegExp(`^${state}\\b`) }).check();
  await filters.getByRole("button", { name: "Show matching leads" }).click();
  await expect(page).toHaveURL(new RegExp(`region=${state}`));
  const narrowed = await matchCount(page);
  expect(narrowed).toBeLessThan(whole);
  expect(narrowed).toBeGreaterThanOrEqual(1000);
  await expect(page.getByTestId("segment-availability")).toContainText(
    `${narrowed.toLocaleString("en-US")} leads match; Starter available; Standard needs 10,000`,
  );
  // Real leads of the segment, masked: all in the state, no email address anywhere.
  const preview = page.getByTestId("segment-preview");
  await expect(preview.locator("tbody tr")).toHaveCount(10);
  for (const cell of await preview.locator("tbody tr td:nth-child(4)").allTextContents()) {
    expect(cell).toMatch(new RegExp(`, ${state}$`));
  }
  expect(await preview.textContent()).not.toContain("@");
  await expect(page.getByText("Lead Sample Preview")).toBeVisible();

  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Buy Now" }).click();
  const popup = await popupPromise;
  await expect(popup).toHaveTitle("Test Payment | LeadMarket");
  const downloadPromise = popup.waitForEvent("download");
  await popup.getByRole("button", { name: /Pay \$10\.00/ }).click();
  await expect(popup.getByText("Payment Complete!").first()).toBeVisible();
  const text = await readFile((await (await downloadPromise).path())!, "utf8");
  const [header, ...rows] = text.trimEnd().split("\r\n");
  expect(rows).toHaveLength(1000);
  const stateColumn = header.split(",").indexOf("State");
  expect(stateColumn).toBeGreaterThan(-1);
  // The starter columns hold no quoted commas in the demo data, so a split reads them.
  expect(rows.filter((row) => row.split(",")[stateColumn] !== state)).toEqual([]);
}

test.describe("at 1280 px", () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  test("filter to a state, see the count change and buy a starter of only its leads", async ({ page }) => {
    await filterAndBuy(page, "CA");
  });
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  test("the same on a phone, without horizontal scrolling", async ({ page }) => {
    await filterAndBuy(page, "TX");
    await page.goto(`${server.url}/category/${categoryId}?package=starter&region=TX`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the filters are a plain form and the page renders its own segment", async ({ page }) => {
    await page.goto(`${server.url}/category/${categoryId}?package=starter`);
    const whole = await matchCount(page);
    const filters = page.getByTestId("segment-filters");
    await filters.locator('details[data-facet="seniority"] summary').click();
    await filters.getByRole("checkbox", { name: /^Manager\b/ }).check();
    await filters.getByRole("button", { name: "Show matching leads" }).click();
    await expect(page).toHaveURL(/seniority=manager/);
    const managers = await matchCount(page);
    expect(managers).toBeLessThan(whole);
    expect(managers).toBeGreaterThan(0);
    await expect(page.getByTestId("segment-preview").locator("tbody tr")).toHaveCount(10);
    // The unfiltered page is still its cached self.
    await page.goto(`${server.url}/category/${categoryId}?package=starter`);
    expect(await matchCount(page)).toBe(whole);
    await expect(page.getByTestId("segment-preview")).toHaveCount(0);
  });
});
