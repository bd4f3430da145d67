// The built-in test payment page (PAYMENTS_TEST_MODE=1). The shared e2e app runs with test mode
// off, so this file starts a second server of the same build, on the same database, with it on.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { startAppServer, type AppServer } from "../support/app-server";

let server: AppServer;

test.beforeAll(async () => {
  server = await startAppServer({
    port: Number(process.env.E2E_PORT) + 2,
    env: {
      DATABASE_URL: process.env.E2E_DATABASE_URL,
      APP_SECRET: process.env.E2E_APP_SECRET,
      PAYMENTS_TEST_MODE: "1",
      ALLOW_TEST_PAYMENTS_IN_PRODUCTION: "1",
      SMTP_URL: "",
    },
    stdout: "ignore",
  });
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

  // Cancelling returns to the category without a payment.
  let popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Buy Now" }).click();
  let popup = await popupPromise;
  await expect(popup.getByRole("heading", { name: "Test Payment" })).toBeVisible();
  await expect(popup.getByText("Test mode")).toBeVisible();
  await expect(popup.getByText("$10.00", { exact: true })).toBeVisible();
  await popup.getByRole("button", { name: "Cancel" }).click();
  await popup.waitForURL(`${server.url}/category/${healthcare._id}?package=starter`);
  await popup.close();

  popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Reopen Payment" }).click();
  popup = await popupPromise;
  const invoiceUrl = popup.url();
  await expect(popup).toHaveTitle("Test Payment | LeadMarket");
  const downloadPromise = popup.waitForEvent("download");
  await popup.getByRole("button", { name: /Pay \$10\.00/ }).click();
  await popup.waitForURL(/NP_id=test_/);
  await expect(popup.getByText("Payment Complete!").first()).toBeVisible();
  const download = await downloadPromise;
  const npId = new URL(popup.url()).searchParams.get("NP_id")!;
  expect(download.suggestedFilename()).toBe(`leads-${npId}.csv`);
  const text = await readFile((await download.path())!, "utf8");
  expect(text.trimEnd().split("\r\n")).toHaveLength(1001);

  // Opened again, the paid invoice says so and offers no second payment.
  await popup.goto(invoiceUrl);
  await expect(popup.getByRole("status")).toHaveText("This invoice is already paid.");
  await expect(popup.getByRole("button", { name: /Pay / })).toHaveCount(0);
  await expect(popup.getByRole("button", { name: "Cancel" })).toHaveCount(0);
  await expect(popup.getByRole("button", { name: "Return to the store" })).toBeVisible();
});
