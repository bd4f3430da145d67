// The category detail page: server-rendered content, metadata and structured data, the sections,
// the sample table, the purchase card per package, the help card, the page without JavaScript, not-found.
import { expect, test, type Page } from "@playwright/test";

type Category = { _id: string; title: string; count: number };

async function marketing(page: Page): Promise<Category> {
  const all: Category[] = await (await page.request.get("/api/categories")).json();
  return all.find((category) => category.title === "Marketing")!;
}

test("the HTML holds the title, price, headings, metadata and Product/Offer data", async ({ page }) => {
  const category = await marketing(page);
  const response = await page.request.get(`/category/${category._id}?package=standard`);
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).toContain("Marketing Professionals - USA");
  expect(html).toContain("Standard Package");
  expect(html).toContain("$100");
  // The sections in order: the Lead Sample Preview comes before the FAQ.
  const headings = [...html.matchAll(/<h2[^>]*>([^<]+)<\/h2>/g)].map((match) => match[1]);
  const sections = [
    "About",
    "What&#x27;s Included",
    "Benefits",
    "How It Works",
    "Guarantee",
    "Lead Sample Preview",
    "FAQ",
  ];
  expect(headings.filter((heading) => sections.includes(heading))).toEqual(sections);
  const head = html.slice(0, html.indexOf("</head>"));
  expect(head).toContain("<title>Marketing Professionals - USA: Verified B2B Leads | LeadMarket</title>");
  expect(head).toMatch(/<meta name="description" content="Buy verified Marketing professional leads/);
  expect(head).toMatch(/<meta property="og:title" content="Marketing Professionals - USA/);
  expect(head).toContain(`/category/${category._id}"`);

  const blocks = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((match) =>
    JSON.parse(match[1]),
  );
  const product = blocks.flat().find((block) => block["@type"] === "Product");
  expect(product.name).toBe("Marketing Professionals - USA");
  expect(product.offers.map((offer: { price: string }) => offer.price)).toEqual([
    "10.00",
    "100.00",
    "200.00",
  ]);
  expect(product.offers.every((offer: { priceCurrency: string }) => offer.priceCurrency === "USD")).toBe(
    true,
  );
});

test("breadcrumb, hero and the page's sections", async ({ page }) => {
  const category = await marketing(page);
  await page.goto(`/category/${category._id}`);
  const crumbs = page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("listitem");
  await expect(crumbs.filter({ hasText: /\w/ })).toHaveText(["Home", "Categories", "Marketing"]);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Marketing Professionals - USA");
  const facts = page.getByRole("list", { name: "List facts" });
  for (const fact of ["United States", "100% Verified", "Updated Weekly"])
    await expect(facts).toContainText(fact);

  // The tooltip opens on hover (after 700 ms, or at once when a tip closed less than 300 ms ago)
  // and on keyboard focus, and Escape closes it.
  const verified = facts.getByRole("button", { name: "100% Verified" });
  const openDelay = () =>
    page.locator("[role=tooltip]").evaluate((tip) => getComputedStyle(tip).animationDelay);
  await expect(page.getByRole("tooltip")).toHaveCount(0);
  await verified.hover();
  await expect(page.getByRole("tooltip")).toContainText("verified within the last 30 days");
  await expect(verified).toHaveAccessibleDescription(/verified within the last 30 days/);
  expect(await openDelay()).toBe("0.7s");
  // Shown in full once the delay has passed; leaving it then starts the 300 ms window.
  await expect
    .poll(() => page.getByRole("tooltip").evaluate((tip) => getComputedStyle(tip).opacity))
    .toBe("1");
  await page.mouse.move(0, 0);
  await verified.hover();
  await expect.poll(openDelay).toBe("0s");
  await page.mouse.move(0, 0);
  await expect(page.getByRole("tooltip")).toHaveCount(0);
  await page.waitForTimeout(400);
  await verified.hover();
  await expect.poll(openDelay).toBe("0.7s");
  await page.mouse.move(0, 0);
  await expect(page.getByRole("tooltip")).toHaveCount(0);
  await verified.focus();
  await expect(page.getByRole("tooltip")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("tooltip")).toHaveCount(0);

  await expect(page.getByRole("heading", { level: 2, name: "About" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "What's Included" })).toBeVisible();
  const benefits = page.locator("section", { has: page.getByRole("heading", { name: "Benefits" }) });
  await expect(benefits.getByRole("listitem")).toHaveCount(4);
  const steps = page.locator("section", {
    has: page.getByRole("heading", { level: 2, name: "How It Works" }),
  });
  await expect(steps.getByRole("listitem")).toHaveCount(4);
  await expect(page.getByRole("heading", { name: "Guarantee" })).toBeVisible();
  await expect(page.getByText("If more than 5% of the leads you receive are invalid")).toBeVisible();

  const faq = page.locator("section", { has: page.getByRole("heading", { level: 2, name: "FAQ" }) });
  // Native <details> items, one open at a time.
  const items = faq.locator("details");
  await expect(items).toHaveCount(3);
  await items.nth(0).locator("summary").click();
  await expect(items.nth(0)).toHaveAttribute("open", "");
  await items.nth(1).locator("summary").click();
  await expect(items.nth(0)).not.toHaveAttribute("open");
  await expect(items.nth(1)).toHaveAttribute("open", "");
});

test("the lead sample preview shows 5 representative, masked rows", async ({ page }) => {
  const category = await marketing(page);
  await page.goto(`/category/${category._id}`);
  const sample = page.locator("section", { has: page.getByRole("heading", { name: "Lead Sample Preview" }) });
  await expect(sample.getByText("Representative data", { exact: true })).toBeVisible();
  await expect(sample.getByRole("columnheader")).toHaveText([
    "Name",
    "Title",
    "Company",
    "Location",
    "Email",
  ]);
  const rows = sample.getByRole("row");
  await expect(rows).toHaveCount(6);
  // Each real lead's email status as a badge (docs/product-rules.md, "Verification").
  const badges = sample.getByTestId("email-status");
  await expect(badges).toHaveCount(5);
  for (const badge of await badges.allTextContents())
    expect(["Valid", "Accept-all", "Unknown"]).toContain(badge);
  const text = await sample.locator("tbody").textContent();
  expect(text).not.toContain("@");
  // Names are first name + last initial.
  await expect(rows.nth(1).getByRole("cell").first()).toHaveText(/^\S+ [A-Z]\.$/);
});

test("the purchase card sticks while it fits and follows the package in the address", async ({ page }) => {
  const category = await marketing(page);
  await page.goto(`/category/${category._id}`);
  const card = page.getByTestId("purchase-card");
  // Taller than a 1280x800 window: not sticky, so its lower part (the purchase result) stays reachable.
  await expect(card.locator("..")).toHaveCSS("position", "static");
  await page.setViewportSize({ width: 1280, height: 2000 });
  await expect(card.locator("..")).toHaveCSS("position", "sticky");
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(card.locator("..")).toHaveCSS("position", "static");
  await expect(card.getByRole("heading", { level: 2 })).toHaveText("Starter Package");
  await expect(card.getByTestId("purchase-price")).toHaveText("$10");
  for (const text of ["Price per lead", "$0.01", "Lead count", "1,000", "CSV & Excel", "instant download"]) {
    await expect(card).toContainText(text);
  }
  await expect(card.getByRole("button", { name: /Buy Now/ })).toBeVisible();

  await card.getByRole("navigation", { name: "Packages" }).getByRole("link", { name: "Premium" }).click();
  await expect(page).toHaveURL(new RegExp(`package=premium$`));
  await expect(card.getByRole("heading", { level: 2 })).toHaveText("Premium Package");
  await expect(card.getByTestId("purchase-price")).toHaveText("$200");
  await expect(card).toContainText("20,000+");
  await expect(card).toContainText("Advanced Industry Insights");

  await page.goto(`/category/${category._id}?package=bogus`);
  await expect(card.getByRole("heading", { level: 2 })).toHaveText("Starter Package");

  const help = page.getByRole("complementary").filter({ hasText: "Need a different audience?" });
  await help.getByRole("link", { name: "Request Custom Leads" }).click();
  await expect(page).toHaveURL(/\/#custom-request$/);
  await expect(page.locator("#custom-request")).toBeInViewport();
});

// The hero is the page's largest paint: it comes first in the HTML. Nothing below it waits behind a
// loading state (React sends a large Suspense boundary after its fallback even when it is ready, as
// it is in a cached page, hidden until a script reveals it): the page is whole without JavaScript.
test("the hero comes first in the HTML, and the rest follows in the same document", async ({ page }) => {
  const category = await marketing(page);
  const html = await (await page.request.get(`/category/${category._id}`)).text();
  const hero = html.indexOf('id="category-title"');
  expect(hero).toBeGreaterThan(0);
  expect(html.indexOf("Lead Sample Preview")).toBeGreaterThan(hero);
  expect(html).not.toContain('aria-label="Loading category"');
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the purchase card and the lead sample are shown", async ({ page }) => {
    const category = await marketing(page);
    await page.goto(`/category/${category._id}`);
    await expect(page.getByTestId("purchase-card")).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Lead Sample Preview" })).toBeVisible();
  });
});

// A category page is served from the cache (docs/product-rules.md), so a navigation gets the whole
// page in one response: while that response is held, the home page stays on screen (never a blank
// page), and the category appears as soon as it arrives.
test("navigating to a category keeps the current page on screen until the category arrives", async ({
  page,
}) => {
  const category = await marketing(page);
  await page.goto("/");
  const buy = page
    .getByRole("list", { name: "Lead categories" })
    .getByRole("listitem")
    .filter({ hasText: "Marketing Professionals - USA" })
    .getByRole("link", { name: /Buy Now/ });
  await buy.scrollIntoViewIfNeeded();
  await buy.hover();
  await page.waitForLoadState("networkidle");
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/category/${category._id}**`, async (route) => {
    if (route.request().headers()["next-router-prefetch"]) return route.continue();
    await held;
    await route.continue();
  });
  await buy.click();
  await page.waitForTimeout(500);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Verified B2B Leads for the USA & UK");
  release();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Marketing Professionals - USA");
  await expect(page.getByRole("status", { name: "Loading category" })).toHaveCount(0);
});

test("an unknown category shows 'Category Not Found' with a way home", async ({ page }) => {
  for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
    const response = await page.goto(`/category/${id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Category Not Found");
    await expect(page.getByRole("banner")).toBeVisible();
  }
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Verified B2B Leads for the USA & UK");
});

test("the category page shows the image its home page card shows", async ({ page }) => {
  const all: Category[] = await (await page.request.get("/api/categories")).json();
  await page.goto("/");
  const cards = page.getByRole("list", { name: "Lead categories" }).getByRole("listitem");
  await expect(cards).toHaveCount(all.length);
  const cardImages = await cards
    .locator('img[src^="/categories/"]')
    .evaluateAll((images) => images.map((image) => image.getAttribute("src")));
  for (const index of [1, all.length - 1]) {
    await page.goto(`/category/${all[index]._id}`);
    await expect(page.locator('main img[src^="/categories/"]').first()).toHaveAttribute(
      "src",
      cardImages[index]!,
    );
  }
});
