// Legal pages, the API reference, the 404 page, robots.txt and the sitemap.
import { expect, test } from "@playwright/test";

const LEGAL = [
  {
    path: "/privacy-policy",
    title: "Privacy Policy",
    mentions: ["Right to erasure", "GDPR", "Right to data portability", "Right to object"],
  },
  {
    path: "/terms-of-service",
    title: "Terms of Service",
    mentions: ["binding arbitration", "laws of the State of California", "more than 5% of the leads"],
  },
  {
    path: "/cookie-policy",
    title: "Cookie Policy",
    mentions: ["Strictly necessary", "Analytics", "Preferences"],
  },
];

for (const legal of LEGAL) {
  test(`${legal.title}: dated May 22, 2023, with its contents and contact addresses`, async ({ page }) => {
    await page.goto(legal.path);
    await expect(page).toHaveTitle(`${legal.title} | LeadMarket`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(legal.title);
    await expect(page.getByText("Last updated: May 22, 2023")).toBeVisible();
    const article = page.locator("article");
    for (const text of legal.mentions) await expect(article).toContainText(text);
    const address = article.locator("address");
    await expect(address.getByRole("link")).toHaveAttribute("href", /^mailto:.+@leadmarket\.io$/);
    await expect(address).toContainText("San Francisco, CA 94104");
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
  });
}

test("the footer's API Documentation opens the API reference, rendered without a script of its own", async ({
  page,
  request,
}) => {
  await page.goto("/privacy-policy");
  await page.getByRole("contentinfo").getByRole("link", { name: "API Documentation" }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page).toHaveTitle("API Documentation | LeadMarket");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API Documentation");
  const create = page.locator("#postApiPaymentCreate");
  await expect(create.getByRole("heading", { level: 3 })).toHaveText("post/api/payment/create");
  await expect(create).toContainText("RateLimit-Remaining");
  await expect(page.locator("#getApiLeadsDownloadKey")).toContainText(
    "one of: csv, xlsx, hubspot, salesforce, json, ndjson",
  );
  // The reference as JSON, linked from the page.
  const document = await request.get("/api/openapi.json");
  expect(document.status()).toBe(200);
  expect((await document.json()).openapi).toBe("3.1.1");
});

test("the cookie policy lists every cookie duration", async ({ page }) => {
  await page.goto("/cookie-policy");
  const durations = page.locator("table tbody tr td:last-child");
  await expect(durations).toHaveText(["2 years", "24 hours", "1 minute", "Session", "1 year"]);
});

test("any other path shows the 404 page inside the site header and footer, at both sizes", async ({
  page,
}) => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 812 },
  ]) {
    await page.setViewportSize(viewport);
    for (const path of ["/no-such-page", "/admin/no-such-page", "/category"]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page).toHaveTitle(/404 Page Not Found/);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { level: 1 })).toHaveText("404 Page Not Found");
      await expect(main.getByText("Did you forget to add the page to the router?")).toBeVisible();
      // No separate "404" line above the title.
      await expect(main.getByText("404", { exact: true })).toHaveCount(0);
      await expect(page.getByRole("banner").getByRole("link", { name: "LeadMarket home" })).toBeVisible();
      await expect(page.getByRole("contentinfo")).toContainText(`© ${new Date().getFullYear()} LeadMarket`);
      const home = main.getByRole("link", { name: "Return to Home" });
      await expect(home).toBeInViewport();
      const box = (await home.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    }
  }
  await page.getByRole("main").getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("robots.txt keeps crawlers out of the admin area and points at the sitemap", async ({ request }) => {
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toContain("Disallow: /admin");
  expect(robots).toMatch(/Sitemap: http.+\/sitemap\.xml/);
});

test("the sitemap lists the home page, every category and the legal pages", async ({ request }) => {
  const categories: { _id: string }[] = await (await request.get("/api/categories")).json();
  const response = await request.get("/sitemap.xml");
  expect(response.headers()["content-type"]).toContain("xml");
  const xml = await response.text();
  const locations = [...xml.matchAll(/<loc>(.*?)<\/loc>/g)].map((match) => new URL(match[1]).pathname);
  expect(locations).toContain("/");
  for (const category of categories) expect(locations).toContain(`/category/${category._id}`);
  for (const path of ["/privacy-policy", "/terms-of-service", "/cookie-policy"])
    expect(locations).toContain(path);
});
