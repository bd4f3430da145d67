// Segments on the category page (docs/product-rules.md, "Segments"): the filters under the hero
// narrow the list with counts, server-rendered from the address (also without JavaScript), the
// purchase card follows the segment (and the email quality chosen beside it), the segment preview shows its leads masked, and a starter
// bought in test payment mode delivers only leads of the segment, at desktop and phone widths.
// Counts and segment pages come from each instance's memory and change on the next request after
// a change to the catalogue.
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { createCategoryWithLeads } from "../../prisma/demo-data";
import { startTestModeServer, type AppServer } from "../support/app-server";
import { closeE2eDb, e2eDb } from "./admin-fixtures";

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
  await closeE2eDb();
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
  // Each with its email's status, as the lead sample shows it.
  await expect(preview.getByTestId("email-status")).toHaveCount(10);
  await expect(page.getByText("Lead Sample Preview")).toBeVisible();

  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Buy Now" }).click();
  const popup = await popupPromise;
  await expect(popup).toHaveTitle("Test Payment | LeadMarket");
  const downloadPromise = popup.waitForEvent("download");
  await popup.getByRole("button", { name: /Pay \$10\.00/ }).click();
  // Payment, then the return's status check and the download: on a loaded machine over 10 s.
  await expect(popup.getByText("Payment Complete!").first()).toBeVisible({ timeout: 30_000 });
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
    // Its own page: titled with its filters and canonical at its own address, so it can be indexed.
    await expect(page).toHaveTitle(/\(Seniority: Manager\)/);
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toMatch(
      new RegExp(`^https?://[^/]+/category/${categoryId}\\?seniority=manager$`),
    );
    // Shown without script: nothing of the page waits for a streamed boundary to be revealed.
    await expect(page.getByTestId("segment-preview")).toBeVisible();
    await expect(page.getByTestId("segment-preview").locator("tbody tr")).toHaveCount(10);
    await expect(page.getByTestId("segment-availability")).toBeVisible();
    await expect(page.getByTestId("segment-availability")).toContainText(
      `${managers.toLocaleString("en-US")} leads match`,
    );
    // The email quality is part of the same form: "Valid only" narrows the segment again.
    await filters.getByTestId("email-quality").selectOption("valid");
    await filters.getByRole("button", { name: "Show matching leads" }).click();
    await expect(page).toHaveURL(/seniority=manager.*emailQuality=valid/);
    const valid = await matchCount(page);
    expect(valid).toBeGreaterThan(0);
    expect(valid).toBeLessThanOrEqual(managers);
    await expect(page).toHaveTitle(/\(Seniority: Manager; Valid only\)/);
    await expect(page.getByTestId("email-quality")).toHaveValue("valid");
    await expect(page.getByTestId("segment-availability")).toContainText(
      `${valid.toLocaleString("en-US")} leads match`,
    );
    // The unfiltered page is still its cached self.
    await page.goto(`${server.url}/category/${categoryId}?package=starter`);
    expect(await matchCount(page)).toBe(whole);
    await expect(page.getByTestId("segment-preview")).toHaveCount(0);
  });
});

test("segment counts and pages come from memory and show a change on the next request", async () => {
  const db = e2eDb();
  const id = await createCategoryWithLeads(db, { title: `Segment Cache ${Date.now()}` }, 1500, 31);
  try {
    const exact = async () =>
      (
        await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM leads WHERE category_id = $1 AND country = 'USA'
             AND lead_sellable(quarantined_at, email_status, notice_status) AND facet_region IN ('CA', 'TX')
             AND facet_seniority = 'manager'`,
          [id],
        )
      ).rows[0].n;
    const api = async () => {
      const response = await fetch(
        `${server.url}/api/categories/${id}/segment?region=TX,CA&seniority=manager`,
      );
      expect(response.status).toBe(200);
      return ((await response.json()) as { count: number }).count;
    };
    const page = async (query: string) => {
      const response = await fetch(`${server.url}/category/${id}?${query}`);
      expect(response.status).toBe(200);
      const count = /data-testid="segment-count"[^>]*><strong>([\d,]+)</.exec(await response.text())?.[1];
      return { count: Number(count?.replace(/,/g, "")), cache: response.headers.get("x-nextjs-cache") };
    };
    const before = await exact();
    expect(before).toBeGreaterThan(3);
    expect(await api()).toBe(before);
    expect(await api()).toBe(before);
    expect((await page("package=starter&region=CA,TX&seniority=manager")).count).toBe(before);
    // The same segment written another way, never asked before: the first one's cached page.
    // Another spec's change to the catalogue may intervene between the two: then ask again, with
    // another way of writing it.
    let tries = 0;
    const written = () => `seniority=manager&region=TX${"&region=CA".repeat(++tries)}`;
    await expect
      .poll(async () => {
        await page("package=starter&region=CA,TX&seniority=manager");
        return page(written());
      })
      .toEqual({ count: before, cache: "HIT" });

    // Three of its leads found invalid (as a re-check writes it): the next answers count without them.
    await db.query(
      `UPDATE leads SET email_status = 'invalid' WHERE id IN (
         SELECT id FROM leads WHERE category_id = $1 AND facet_region IN ('CA', 'TX')
           AND facet_seniority = 'manager' AND lead_sellable(quarantined_at, email_status, notice_status) LIMIT 3)`,
      [id],
    );
    expect(await exact()).toBe(before - 3);
    expect(await api()).toBe(before - 3);
    expect((await page("region=CA,TX&seniority=manager")).count).toBe(before - 3);
  } finally {
    await db.query("DELETE FROM categories WHERE id = $1", [id]);
  }
});
