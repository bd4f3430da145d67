// The buyer's whole purchase in Chromium against the NOWPayments stand-in started by the global
// setup: Buy Now -> hosted invoice (new tab) -> Pay -> return with NP_id -> 'Payment Complete!' ->
// the CSV downloads with the package's row count. Plus the card's refusals and error toasts.
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { expectToast } from "./toast";

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

test("a buyer pays through the provider and downloads their leads", async ({ page }) => {
  const marketing = await categoryByTitle("Marketing");
  await openCard(page, marketing, "starter");

  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Buy Now" }).click();
  const popup = await popupPromise;
  await expectToast(page, "Payment Initiated");
  await expect(page.getByRole("button", { name: "Check Status" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Reopen Payment" })).toBeVisible();
  await expect(page.getByTestId("payment-status")).toHaveText("pending");
  const invoiceId = await page.evaluate(() => sessionStorage.getItem("paymentId"));
  expect(invoiceId).toMatch(/^\d+$/);

  // Registered now: the first tab may learn of the payment from its own 10 s poll.
  const firstTabDownload = page.waitForEvent("download", { timeout: 45_000 });

  // The hosted invoice in the new tab; paying sends the buyer back with NP_id.
  await expect(popup.getByRole("heading", { name: `Invoice ${invoiceId}` })).toBeVisible();
  const downloadPromise = popup.waitForEvent("download");
  await popup.getByRole("button", { name: "Pay now" }).click();
  await popup.waitForURL(/NP_id=\d+/);
  const npId = new URL(popup.url()).searchParams.get("NP_id")!;
  await expect(popup.getByText("Payment Complete!").first()).toBeVisible();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe(`leads-${npId}.csv`);
  const rows = await rowsOf(download);
  expect(rows).toHaveLength(1001);
  expect(rows[0]).toBe("First Name,Last Name,Title,Company,Email,Phone,City,State,Country");
  expect(await popup.evaluate(() => sessionStorage.getItem("paymentId"))).toBe(npId);

  // Excel is offered too once paid.
  const excelPromise = popup.waitForEvent("download");
  await popup.getByRole("link", { name: "Download Excel" }).click();
  expect((await excelPromise).suggestedFilename()).toBe(`leads-${npId}.xlsx`);

  // The first tab learns of the payment (its poll, or a manual check) and downloads the same file.
  const checkStatus = page.getByRole("button", { name: "Check Status" });
  // The poll may complete the payment meanwhile and remove the button: a short, optional click.
  if (await checkStatus.isVisible()) await checkStatus.click({ timeout: 2_000 }).catch(() => undefined);
  await expect(page.getByTestId("purchase-complete")).toBeVisible();
  const again = await firstTabDownload;
  expect(again.suggestedFilename()).toBe(`leads-${invoiceId}.csv`);
  expect(await rowsOf(again)).toEqual(rows);

  // The admin heard about the sale.
  await expect
    .poll(async () => {
      const mails = (await (await fetch(process.env.E2E_MAILBOX_URL!)).json()) as { text: string }[];
      return mails.some((mail) => mail.text.includes(`Payment ID: ${npId}`));
    })
    .toBe(true);
});

test("downloads are refused before payment and the test page does not exist", async ({ request }) => {
  const unpaid = await request.get("/api/leads/download/123456");
  expect(unpaid.status()).toBe(404);
  const page = await request.get("/test-payment/test_0123456789abcdef");
  expect(page.status()).toBe(404);
});

test("a package larger than the category cannot be bought", async ({ page }) => {
  const software = await categoryByTitle("Software & SaaS");
  await page.goto(`/category/${software._id}?package=premium`);
  await expect(page.getByText(/Not available: Software & SaaS has 12,000 leads/)).toBeVisible();
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
