// The public header and footer: anchors, sticky + translucent header, the mobile menu, footer
// lists, copyright year, legal links and the newsletter form (validation, toasts, no network).
import { expect, test, type Page } from "@playwright/test";

const ANCHORS = ["#how-it-works", "#lead-categories", "#packages", "#custom-request"];

async function ready(page: Page, path = "/") {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
}

test("the header is sticky, links the home page's anchors and turns translucent after 50px", async ({
  page,
}) => {
  await ready(page);
  const header = page.getByRole("banner");
  await expect(header).toHaveCSS("position", "sticky");
  await expect(header.getByRole("link", { name: "LeadMarket home" })).toHaveAttribute("href", "/");
  const nav = header.getByRole("navigation", { name: "Main" });
  const hrefs = await nav.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
  expect(hrefs).toEqual(ANCHORS);
  await expect(header.getByRole("link", { name: "Request Custom Leads" })).toHaveAttribute(
    "href",
    "#custom-request",
  );

  await expect(header).toHaveAttribute("data-scrolled", "false");
  await page.evaluate(() => window.scrollTo(0, 40));
  await expect(header).toHaveAttribute("data-scrolled", "false");
  await page.evaluate(() => window.scrollTo(0, 51));
  await expect(header).toHaveAttribute("data-scrolled", "true");
  await expect(header).toHaveClass(/backdrop-blur/);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(header).toHaveAttribute("data-scrolled", "false");
});

test("a header link scrolls to its section; off the home page the links lead back home", async ({ page }) => {
  await ready(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Lead Categories" }).click();
  await expect(page).toHaveURL(/#lead-categories$/);
  await expect(page.locator("#lead-categories")).toBeInViewport();

  await ready(page, "/privacy-policy");
  const link = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "How It Works" });
  await expect(link).toHaveAttribute("href", "/#how-it-works");
  await link.click();
  await expect(page).toHaveURL(/\/#how-it-works$/);
  await expect(page.locator("#how-it-works")).toBeInViewport();
});

test.describe("below 768px", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the toggle menu shows the links and closes on a link click, on Escape and on widening", async ({
    page,
  }) => {
    await ready(page);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    const toggle = page.getByRole("button", { name: "Open menu" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");

    await toggle.click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu).toBeVisible();
    await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
    const hrefs = await menu
      .getByRole("link")
      .evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(hrefs).toEqual([...ANCHORS, "#custom-request"]);

    await menu.getByRole("link", { name: "Packages" }).click();
    await expect(menu).toBeHidden();
    await expect(page).toHaveURL(/#packages$/);
    await expect(page.locator("#packages")).toBeInViewport();

    // Keyboard: the toggle opens with Enter and Escape closes the menu.
    await page.getByRole("button", { name: "Open menu" }).focus();
    await page.keyboard.press("Enter");
    await expect(menu).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();

    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(menu).toBeVisible();
    await page.setViewportSize({ width: 800, height: 740 });
    await expect(menu).toBeHidden();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    // CSS hides the menu at once; the page hears of the wider window at its next rendering update.
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    await page.setViewportSize({ width: 375, height: 740 });
    await expect(page.getByRole("button", { name: "Open menu" })).toHaveAttribute("aria-expanded", "false");
  });
});

test("the footer has its lists, this year's copyright and the legal links", async ({ page }) => {
  await ready(page);
  const footer = page.getByRole("contentinfo");
  const resources = footer.getByRole("navigation", { name: "Resources" }).getByRole("link");
  await expect(resources).toHaveText([
    "Blog",
    "Lead Generation Guide",
    "Case Studies",
    "FAQ",
    "API Documentation",
  ]);
  await expect(resources.last()).toHaveAttribute("href", "/docs/api");
  const quick = footer.getByRole("navigation", { name: "Quick Links" }).getByRole("link");
  await expect(quick).toHaveCount(5);
  await expect(quick.last()).toHaveText("Find my orders");
  await expect(quick.last()).toHaveAttribute("href", "/orders");
  await expect(footer.getByRole("list", { name: "Social media" }).getByRole("link")).toHaveCount(4);
  await expect(footer).toContainText(`© ${new Date().getFullYear()} LeadMarket. All rights reserved.`);

  const legal = footer.getByRole("navigation", { name: "Legal" });
  await expect(legal.getByRole("link")).toHaveText([
    "Privacy Policy",
    "Terms of Service",
    "Cookie Policy",
    "Privacy Requests",
    "Contact Us",
  ]);
  await expect(legal.getByRole("link", { name: "Privacy Requests" })).toHaveAttribute(
    "href",
    "/privacy/requests",
  );
  await legal.getByRole("link", { name: "Terms of Service" }).click();
  await expect(page).toHaveURL(/\/terms-of-service$/);
  await expect(page.getByRole("heading", { level: 1, name: "Terms of Service" })).toBeVisible();
});

test("the newsletter validates the address, confirms with a toast and makes no call", async ({ page }) => {
  await ready(page);
  const form = page.getByRole("form", { name: "Newsletter" });
  const input = form.getByLabel("Email address");
  await expect(input).toHaveAttribute("type", "email");
  await expect(input).toHaveAttribute("required", "");

  const requests: string[] = [];
  // Any call the form could make (page prefetches of linked routes are not the form's).
  page.on("request", (request) => {
    if (request.method() !== "GET" || new URL(request.url()).pathname.startsWith("/api/")) {
      requests.push(`${request.method()} ${request.url()}`);
    }
  });

  // The browser's own check comes first; without it (noValidate), ours answers with the product's toast.
  await form.evaluate((element) => ((element as HTMLFormElement).noValidate = true));
  await input.fill("not-an-email");
  await form.getByRole("button", { name: "Subscribe" }).click();
  const toast = page.locator('[data-slot="toast"]');
  await expect(toast).toHaveCount(1);
  await expect(toast).toHaveAttribute("data-variant", "destructive");
  await expect(toast).toContainText("Invalid Email");
  await expect(toast).toContainText("Please enter a valid email address");

  await input.fill("buyer@company.com");
  await form.getByRole("button", { name: "Subscribe" }).click();
  // One toast at a time: the success replaces the error.
  await expect(page.locator('[data-slot="toast"][data-state="open"]')).toHaveCount(1);
  const success = page.locator('[data-slot="toast"][data-state="open"]');
  await expect(success).toContainText("Success!");
  await expect(success).toContainText("You've been subscribed to our newsletter");
  await expect(input).toHaveValue("");
  expect(requests).toEqual([]);

  // Toasts close by themselves after their 5000 ms.
  await expect(page.locator('[data-slot="toast"][data-state="open"]')).toHaveCount(0, { timeout: 9000 });
});

test("landmarks and a skip link make the page keyboard friendly", async ({ page }) => {
  await ready(page);
  await expect(page.getByRole("banner")).toHaveCount(1);
  await expect(page.getByRole("main")).toHaveCount(1);
  await expect(page.getByRole("contentinfo")).toHaveCount(1);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await expect(skip).toHaveAttribute("href", "#main");
});
