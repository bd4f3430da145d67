// The built-in test payment page (PAYMENTS_TEST_MODE=1). The shared e2e app runs with test mode
// off, so this file starts a second server of the same build, on the same database, with it on.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { startTestModeServer, type AppServer } from "../support/app-server";

let server: AppServer;

test.beforeAll(async () => {
  server = await startTestModeServer();
});

test.afterAll(async () => {
  await server.stop();
});

test("the test payment page pays like the provider and the leads download", async ({ page }) => {
  const categories = (await (await fetch(`${server.url}/api/categories`)).json()) as {
    _id: string;
    title: string;
  }[];
  const healthcare = categories.find((category) => category.title === "Healthcare")!;
  await page.goto(`${server.url}/category/${healthcare._id}?package=starter`);

  // Cancelling returns to the category, which marks the checkout cancelled.
  let popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Buy Now" }).click();
  let popup = await popupPromise;
  await expect(popup.getByRole("heading", { name: "Test Payment" })).toBeVisible();
  await expect(popup.getByText("Test mode")).toBeVisible();
  await expect(popup.getByText("$10.00", { exact: true })).toBeVisible();
  await popup.getByRole("button", { name: "Cancel" }).click();
  // The return tab says so, and so does the tab that opened the invoice, which stops checking.
  await expect(popup.getByText("Payment cancelled")).toBeVisible();
  await popup.close();
  // The opening tab learns of it from its next poll, or at once from a manual check.
  const checkStatus = page.getByRole("button", { name: "Check Status" });
  if (await checkStatus.isVisible()) await checkStatus.click({ timeout: 2_000 }).catch(() => undefined);
  await expect(page.getByText("Payment cancelled")).toBeVisible();
  await expect(page.getByText("Checking your payment automatically…")).toHaveCount(0);

  await page.getByRole("button", { name: "Start a new payment" }).click();
  popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Buy Now" }).click();
  popup = await popupPromise;
  // The popup opens blank and is sent to the invoice once it exists: read its address after that.
  await expect(popup).toHaveTitle("Test Payment | LeadMarket");
  const invoiceUrl = popup.url();
  const downloadPromise = popup.waitForEvent("download");
  await popup.getByRole("button", { name: /Pay \$10\.00/ }).click();
  await expect(popup.getByText("Payment Complete!").first()).toBeVisible();
  const download = await downloadPromise;
  const key = await popup.evaluate(() => sessionStorage.getItem("paymentId"));
  expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(download.suggestedFilename()).toBe(`leads-${key}.csv`);
  const text = await readFile((await download.path())!, "utf8");
  expect(text.trimEnd().split("\r\n")).toHaveLength(1001);

  // Opened again, the paid invoice says so and offers no second payment.
  await popup.goto(invoiceUrl);
  await expect(popup.getByRole("status")).toHaveText("This invoice is already paid.");
  await expect(popup.getByRole("button", { name: /Pay / })).toHaveCount(0);
  await expect(popup.getByRole("button", { name: "Cancel" })).toHaveCount(0);
  await expect(popup.getByRole("button", { name: "Return to the store" })).toBeVisible();
});
