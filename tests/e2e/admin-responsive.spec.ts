// The back-office as an admin uses it on a laptop (1280x800) and on a phone (375x812): the
// sidebar becomes a drawer on the phone, tables scroll inside their card with a cue, the Requests
// table keeps its actions in view on the laptop, and each request opens in a detail view.
import { closeE2eDb, e2eDb, expect, openDashboard, test } from "./admin-fixtures";
import type { Locator, Page } from "@playwright/test";

const RUN = `resp${Date.now().toString(36)}`;
const MESSAGE = `We need 2,000 CTOs at Series B SaaS companies in Texas and California. ${"Please include direct dials where you have them. ".repeat(4)}End of brief ${RUN}.`;
const FILES = [`target-account-list-for-the-second-half-of-the-year-${RUN}.xlsx`, `brief-${RUN}.pdf`];

test.beforeAll(async () => {
  const { rows } = await e2eDb().query(
    `INSERT INTO custom_requests (name, email, industry, role, platform, message)
     VALUES ($1, $2, 'saas', 'ceo', 'linkedin, facebook', $3) RETURNING id`,
    [`Morgan Responsive ${RUN}`, `morgan.responsive-${RUN}@northwind-industries.example.com`, MESSAGE],
  );
  await e2eDb().query(
    `INSERT INTO orders (category_id, lead_title, package_type, lead_count, amount, status,
       provider_payment_id, paid_at)
     SELECT id, title, 'standard', 10000, 110, 'finished', $1, now() FROM categories WHERE title = 'Marketing'`,
    [`np-${RUN}`],
  );
  for (const name of FILES) {
    await e2eDb().query(
      `INSERT INTO attachments (request_id, file_name, content_type, size, data) VALUES ($1, $2, 'application/pdf', 9, $3)`,
      [rows[0].id, name, Buffer.from("%PDF-1.4\n")],
    );
  }
});

test.afterAll(async () => {
  await closeE2eDb();
});

async function documentWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error("not rendered");
  return found;
}

const TABS = [
  ["dashboard", "Dashboard Overview"],
  ["sales", "Sales Transactions"],
  ["categories", "Lead Categories"],
  ["requests", "Custom Requests"],
  ["settings", "Settings"],
] as const;

/** No tab makes the page wider than the window once its data is in. */
async function expectEveryTabFits(page: Page, width: number) {
  const widths: Record<string, number> = {};
  for (const [tab, title] of TABS) {
    await page.goto(`/admin/dashboard?tab=${tab}`);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await page.waitForLoadState("networkidle");
    widths[tab] = await documentWidth(page);
  }
  expect(widths).toEqual(Object.fromEntries(TABS.map(([tab]) => [tab, width])));
}

test.describe("at 1280x800", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the Requests table fits its card with its actions, labels and a detail view", async ({
    page,
    adminToken,
  }) => {
    await openDashboard(page, adminToken, "requests");
    await expect(page.getByRole("complementary", { name: "Admin" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
    const row = page.getByRole("row").filter({ hasText: `Morgan Responsive ${RUN}` });
    await expect(row).toBeVisible();
    await expect(row).toContainText("SaaS");
    await expect(row).toContainText("LinkedIn, Facebook");
    await expect(row).toContainText("2 attachments");

    // The custom requests' table comes first; the privacy requests' follows in its own card.
    const container = page.locator("[data-slot=table-container]").first();
    expect(await container.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);
    await expect(page.locator("[data-slot=table-scroll-hint]")).toHaveCount(0);
    const frame = await box(container);
    for (const name of ["Details", "In Progress", "Complete"]) {
      const button = await box(row.getByRole("button", { name: new RegExp(`^${name}`) }));
      expect(button.x + button.width).toBeLessThanOrEqual(frame.x + frame.width);
    }
    expect(await documentWidth(page)).toBe(1280);

    await row.getByRole("button", { name: /^Details/ }).click();
    const details = page.getByRole("dialog");
    await expect(details.getByRole("heading")).toHaveText(`Request from Morgan Responsive ${RUN}`);
    await expect(details.getByTestId("request-message")).toHaveText(MESSAGE);
    await expect(details).toContainText("CEO / Founder");
    await expect(details).toContainText("SaaS");
    await expect(details).toContainText("LinkedIn, Facebook");
    await expect(details.getByRole("list", { name: "Attachments" }).getByRole("listitem")).toHaveCount(2);
    for (const name of FILES) await expect(details).toContainText(name);
    await expect(details).toContainText("Pending");

    await details.getByRole("button", { name: "In Progress" }).click();
    const toast = page.locator("[data-slot=toast]").filter({ hasText: "Status updated" }).first();
    await expect(toast).toContainText("Request status has been updated to In Progress");
    await expect(details.getByRole("button", { name: "In Progress" })).toBeDisabled();
    await expect(details).toContainText("In Progress");
    await details.getByRole("button", { name: "Close" }).click();
    await expect(details).toBeHidden();
    await expect(row).toContainText("In Progress");
    await expectEveryTabFits(page, 1280);
  });
});

test.describe("at 375x812", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the sidebar is a drawer and tables scroll inside their card with a cue", async ({
    page,
    adminToken,
  }) => {
    await openDashboard(page, adminToken);
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard Overview" })).toBeVisible();
    await expect(page.getByRole("complementary", { name: "Admin" })).toBeHidden();
    const main = await box(page.getByRole("main"));
    expect(main.x).toBe(0);
    expect(main.width).toBe(375);
    expect(await documentWidth(page)).toBe(375);

    const menu = page.getByRole("button", { name: "Open menu" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await menu.click();
    const drawer = page.getByRole("dialog", { name: "LeadMarket Admin" });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole("button", { name: "Logout" })).toBeVisible();
    // It slides in from the left: measured once the slide has ended.
    await expect.poll(async () => (await box(drawer)).x).toBe(0);
    expect((await box(drawer)).width).toBeLessThanOrEqual(375);
    await drawer.getByRole("button", { name: /^Requests/ }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Custom Requests" })).toBeVisible();

    const row = page.getByRole("row").filter({ hasText: `Morgan Responsive ${RUN}` });
    await expect(row).toBeVisible();
    const container = page.locator("[data-slot=table-container]").first();
    expect(await container.evaluate((node) => node.scrollWidth > node.clientWidth)).toBe(true);
    await expect(page.locator("[data-slot=table-scroll-hint]").first()).toHaveText(
      "Scroll sideways to see every column",
    );
    const frame = await box(container);
    expect(frame.x).toBeGreaterThanOrEqual(0);
    expect(frame.x + frame.width).toBeLessThanOrEqual(375);
    // The name column is readable, not cut to a couple of letters.
    expect((await box(page.locator("thead th").nth(1))).width).toBeGreaterThan(60);
    expect(await documentWidth(page)).toBe(375);

    await container.evaluate((node) => node.scrollTo({ left: node.scrollWidth }));
    await expect(container).toHaveAttribute("data-overflow", "true");
    const details = await box(row.getByRole("button", { name: /^Details/ }));
    expect(details.x + details.width).toBeLessThanOrEqual(375);
    await row.getByRole("button", { name: /^Details/ }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByTestId("request-message")).toHaveText(MESSAGE);
    const sheet = await box(dialog);
    expect(sheet.x).toBeGreaterThanOrEqual(0);
    expect(sheet.x + sheet.width).toBeLessThanOrEqual(375);
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();

    await menu.click();
    await page
      .getByRole("dialog")
      .getByRole("button", { name: /^Sales/ })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "Sales Transactions" })).toBeVisible();
    // The amount is shown whole, not cut to "$110.".
    const amount = page
      .getByRole("row")
      .filter({ hasText: `np-${RUN}` })
      .locator("td")
      .nth(5);
    await expect(amount).toHaveText("$110.00");
    expect(await amount.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);
    await expectEveryTabFits(page, 375);
  });
});
