// The buyer's whole purchase in Chromium against the NOWPayments stand-in started by the global
// setup: Buy Now with an email -> hosted invoice (new tab) -> Pay -> return with the order key and
// NP_id -> 'Payment Complete!' in view -> one CSV download -> receipt -> order page -> Find my
// orders. Plus cancelled invoices, the card's refusals and error toasts.
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { expectToast } from "./toast";
import { mailTo } from "./mailbox";

type Category = { _id: string; title: string; count: number };

async function categoryByTitle(title: string): Promise<Category> {
  const response = await fetch(`${process.env.E2E_BASE_URL}/api/categories`);
  const categories = (await response.json()) as Category[];
  return categories.find((category) => category.title === title)!;
}

function standinControl(path: string): Promise<Response> {
  const origin = process.env.E2E_NOWPAYMENTS_URL!.replace(/\/v1$/, "");
  return fetch(`${origin}${path}`, { method: "POST" });
}

async function rowsOf(download: import("@playwright/test").Download): Promise<string[]> {
  const text = await readFile((await download.path())!, "utf8");
  return text
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
}

async function openCard(page: Page, category: Category, pkg: string) {
  await page.goto(`/category/${category._id}?package=${pkg}`);
  await expect(page.getByRole("button", { name: "Buy Now" })).toBeEnabled();
}

/** Buys a starter package under Playwright's clock and closes the invoice tab: polling waits to run. */
async function startPollingWithFakeClock(page: Page) {
  const marketing = await categoryByTitle("Marketing");
  await page.clock.install();
  await openCard(page, marketing, "starter");
  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Buy Now" }).click();
  await (await popupPromise).close();
  await expect(page.getByRole("button", { name: "Check Status" })).toBeVisible();
}

// The buyer's whole way, at a laptop's and a phone's size: buy with an email, pay on the provider's
// page, see the result without scrolling, get exactly one download, then come back from the
// receipt in a fresh browser and again through Find my orders.
for (const viewport of [
  { name: "laptop", width: 1280, height: 800 },
  { name: "phone", width: 375, height: 812 },
]) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("a buyer pays, downloads once, and gets the leads again from the receipt and Find my orders", async ({
      page,
      browser,
    }) => {
      test.setTimeout(120_000);
      const email = `buyer-${viewport.name}-${Date.now()}@example.com`;
      const marketing = await categoryByTitle("Marketing");
      const downloads: import("@playwright/test").Download[] = [];
      page.on("download", (download) => downloads.push(download));
      await openCard(page, marketing, "starter");
      await page.getByLabel("Email me my download link").fill(email);

      const popupPromise = page.waitForEvent("popup");
      const created = page.waitForRequest("**/api/payment/create");
      await page.getByRole("button", { name: "Buy Now" }).click();
      const popup = await popupPromise;
      popup.on("download", (download) => downloads.push(download));
      // The browser sends only what the server reads: never a price, count or title.
      expect((await created).postDataJSON()).toEqual({
        categoryId: marketing._id,
        packageType: "starter",
        location: "USA",
        email,
      });
      await expectToast(page, "Payment Initiated");
      await expect(page.getByRole("button", { name: "Check Status" })).toBeVisible();
      const key = await page.evaluate(() => sessionStorage.getItem("paymentId"));
      expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);

      // The provider's hosted invoice; paying returns with our key and its NP_id.
      await expect(popup.getByRole("heading", { name: /^Invoice \d{10}$/ })).toBeVisible();
      await popup.getByRole("button", { name: "Pay now" }).click();
      const complete = popup.getByTestId("purchase-complete");
      await expect(complete.getByText("Payment Complete!")).toBeInViewport();
      // Every format in one menu, its links plain downloads.
      const menu = complete.getByTestId("download-menu");
      await expect(menu.getByText("Download leads")).toBeInViewport();
      await menu.getByText("Download leads").click();
      const formats = menu.getByRole("list", { name: "Download formats" }).getByRole("link");
      await expect(formats).toHaveText([
        "CSV",
        "Excel (.xlsx)",
        "HubSpot import (CSV)",
        "Salesforce import (CSV)",
        "JSON",
        "NDJSON (one lead a line)",
      ]);
      await expect(menu.getByRole("link", { name: "HubSpot import (CSV)" })).toHaveAttribute(
        "download",
        `leads-${key}-hubspot.csv`,
      );
      // The key left the address bar once read.
      expect(new URL(popup.url()).searchParams.has("order")).toBe(false);
      await expect.poll(() => downloads.length).toBe(1);

      // The tab that opened the invoice learns of it too (its poll, or a manual check), and does
      // not download again.
      const checkStatus = page.getByRole("button", { name: "Check Status" });
      if (await checkStatus.isVisible()) await checkStatus.click({ timeout: 2_000 }).catch(() => undefined);
      await expect(page.getByTestId("purchase-complete").getByText("Payment Complete!")).toBeInViewport();
      // Coming back to the return address does not download again either.
      await popup.goto(`/category/${marketing._id}?package=starter&order=${key}`);
      await expect(popup.getByTestId("purchase-complete")).toBeVisible();
      await popup.waitForTimeout(1_000);
      expect(downloads).toHaveLength(1);
      expect(downloads[0].suggestedFilename()).toBe(`leads-${key}.csv`);
      const rows = await rowsOf(downloads[0]);
      expect(rows).toHaveLength(1001);
      expect(rows[0]).toBe(
        "First Name,Last Name,Title,Company,Email,Email Status,Phone,Phone Status,Phone Screened At,City,State,Country,Source,Collected At",
      );

      // The receipt, opened in a browser that has never seen the purchase.
      const receipt = await mailTo(email, "Your LeadMarket receipt: Marketing - Starter package");
      const orderUrl = /http:\/\/\S+\/order\/[A-Za-z0-9_-]{43}/.exec(receipt.text)![0];
      expect(orderUrl.endsWith(`/order/${key}`)).toBe(true);
      const fresh = await browser.newContext({
        viewport: { width: viewport.width, height: viewport.height },
      });
      const other = await fresh.newPage();
      const response = await other.goto(new URL(orderUrl).pathname);
      expect(response!.headers()["referrer-policy"]).toBe("no-referrer");
      expect(response!.headers()["cache-control"]).toContain("no-store");
      await expect(other.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
      await expect(other.getByRole("heading", { name: "Your order" })).toBeVisible();
      await expect(other.getByTestId("order-status")).toHaveText("Paid");
      await expect(other.getByTestId("order-details")).toContainText("1,000");
      const again = other.waitForEvent("download");
      await other.getByText("Download leads").click();
      await other.getByRole("link", { name: "CSV", exact: true }).click();
      expect(await rowsOf(await again)).toEqual(rows);
      // The HubSpot file: HubSpot's own headers over the same rows, without a byte-order mark.
      const hubspot = other.waitForEvent("download");
      await other.getByRole("link", { name: "HubSpot import (CSV)" }).click();
      const hubspotFile = await hubspot;
      expect(hubspotFile.suggestedFilename()).toBe(`leads-${key}-hubspot.csv`);
      const hubspotRows = (await readFile((await hubspotFile.path())!, "utf8")).trimEnd().split("\r\n");
      expect(hubspotRows[0]).toBe(
        "First Name,Last Name,Job Title,Company Name,Email,Email Status,Phone Number,Phone Status,Phone Screened At,City,State/Region,Country/Region,Source,Collected At",
      );
      expect(hubspotRows.slice(1)).toEqual(rows.slice(1));

      // Find my orders: a sign-in link by mail, then a fresh download link.
      await other.goto("/orders");
      await other.getByLabel("Email you bought with").fill(email);
      await other.getByRole("button", { name: "Email me a sign-in link" }).click();
      await expect(other.getByRole("status")).toContainText("a sign-in link is on its way");
      const signIn = await mailTo(email, "Your LeadMarket orders");
      const signInUrl = new URL(/http:\/\/\S+\/orders\?token=\S+/.exec(signIn.text)![0]);
      await other.goto(`${signInUrl.pathname}${signInUrl.search}`);
      const listed = other.getByRole("list", { name: "Your orders" }).getByTestId("order-details");
      await expect(listed).toHaveCount(1);
      const third = other.waitForEvent("download");
      await listed.getByText("Download leads").click();
      await listed.getByRole("link", { name: "CSV", exact: true }).click();
      const last = await third;
      expect(last.suggestedFilename()).toBe(`leads-${key}.csv`);
      expect(await rowsOf(last)).toEqual(rows);
      await fresh.close();
    });
  });
}

test("downloads are refused before payment and the test page does not exist", async ({ request }) => {
  const unpaid = await request.get("/api/leads/download/123456");
  expect(unpaid.status()).toBe(404);
  const page = await request.get("/test-payment/test_0123456789abcdef");
  expect(page.status()).toBe(404);
});

test("a package larger than the category cannot be bought", async ({ page }) => {
  // Every demo category fills premium in the USA; Software & SaaS has 12,000 UK leads.
  const software = await categoryByTitle("Software & SaaS");
  await page.goto(`/category/${software._id}?package=premium&location=UK`);
  await expect(
    page.getByText(/Not available: Software & SaaS has 12,000 leads in the United Kingdom/),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Not available in this category" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Buy Now" })).toHaveCount(0);
});

test("a provider failure shows the Payment Error toast", async ({ page }) => {
  const marketing = await categoryByTitle("Marketing");
  await openCard(page, marketing, "standard");
  // Only the standard package's invoice fails: tests in other workers buy other packages.
  await standinControl("/__control/fail-invoices?mode=500&count=1&price=100");
  await page.getByRole("button", { name: "Buy Now" }).click();
  await expectToast(page, "Payment Error", "There was a problem initiating your payment. Please try again.");
  await expect(page.getByRole("button", { name: "Buy Now" })).toBeEnabled();
  expect(await page.evaluate(() => sessionStorage.getItem("paymentId"))).toBeNull();
});

test("each package's card keeps to its own payment", async ({ page }) => {
  await startPollingWithFakeClock(page);
  const packages = page.getByRole("navigation", { name: "Packages" });
  await packages.getByRole("link", { name: "Standard" }).click();
  await expect(page.getByRole("heading", { name: /Standard/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Buy Now" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Check Status" })).toHaveCount(0);
  // Back on the package that was bought, the session's payment is picked up again.
  await packages.getByRole("link", { name: "Starter" }).click();
  await expect(page.getByRole("button", { name: "Check Status" })).toBeVisible();
});

test("polling gives up after 30 attempts with the Verification Timeout toast", async ({ page }) => {
  test.setTimeout(120_000);
  await startPollingWithFakeClock(page);
  let checks = 0;
  page.on("response", (response) => {
    if (response.url().includes("/api/payment/status/")) checks += 1;
  });
  // Each poll schedules the next one only after its answer is handled, so the clock moves on
  // 10 s at a time and, when no check follows (the timer was not scheduled yet), simply again.
  // The clock stands still once the 30th answer is in, so the toast's own timer cannot close it.
  while (checks < 30) {
    const before = checks;
    await page.clock.runFor(10_000);
    await expect
      .poll(() => checks, { timeout: 2_000 })
      .toBeGreaterThan(before)
      .catch(() => undefined);
  }
  await expectToast(
    page,
    "Verification Timeout",
    "We couldn't verify your payment automatically. Please click 'Check Payment Status' to verify manually.",
  );
  expect(checks).toBe(30);
  await page.clock.runFor(60_000);
  expect(checks).toBe(30);
});

test("a failed check during polling is reported once and polling goes on", async ({ page }) => {
  await startPollingWithFakeClock(page);
  // The first two status checks fail (the provider briefly unreachable); later ones get through.
  let checks = 0;
  await page.route("**/api/payment/status/**", async (route) => {
    checks += 1;
    if (checks <= 2) {
      await route.fulfill({
        status: 502,
        json: { success: false, message: "The payment provider could not be reached." },
      });
    } else {
      await route.continue();
    }
  });
  await page.clock.runFor(10_000);
  await expect.poll(() => checks).toBe(1);
  await expectToast(page, "Verification Failed", "We couldn't verify your payment. Please try again later.");
  const failedToast = page.locator('[data-slot="toast-title"]', { hasText: "Verification Failed" });
  await page.clock.runFor(5_000);
  await expect(failedToast).toHaveCount(0);
  // A check schedules the next one only once its answer is handled, which can land just after the
  // clock moved; then the next check is a full interval later (as in the timeout test above).
  const runClockUntilCheck = async (count: number, first: number) => {
    for (let step = first, tries = 0; checks < count && tries < 3; step = 10_000, tries++) {
      await page.clock.runFor(step);
      await expect
        .poll(() => checks, { timeout: 1_000 })
        .toBe(count)
        .catch(() => undefined);
    }
  };
  await runClockUntilCheck(2, 5_000);
  await expect.poll(() => checks).toBe(2);
  await runClockUntilCheck(3, 10_000);
  await expect.poll(() => checks).toBe(3);
  // The second failure was not reported again, and the card is still waiting for the payment.
  await expect(failedToast).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Check Status" })).toBeVisible();
});
