import { expect, test } from "@playwright/test";

test("the home page is server-rendered with the demo categories", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByText("Marketing Professionals - USA").first()).toBeVisible();
});
