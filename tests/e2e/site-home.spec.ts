// The home page: server-rendered content and metadata, section order, the package selector and
// category cards, hash scrolling, testimonials slider, FAQ accordion and the closing banner.
import { gzipSync } from "node:zlib";
import { expect, test, type Page } from "@playwright/test";

type Category = { _id: string; title: string; count: number };

async function categories(page: Page): Promise<Category[]> {
  return (await page.request.get("/api/categories")).json();
}

async function ready(page: Page, path = "/") {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
}

test("the HTML already holds the categories, prices, headings and metadata", async ({ page }) => {
  const all = await categories(page);
  const html = await (await page.request.get("/")).text();
  const escape = (text: string) => text.replace(/&/g, "&amp;");
  for (const category of all) expect(html).toContain(escape(`${category.title} Professionals - USA`));
  for (const price of ["$10", "$100", "$200"]) expect(html).toContain(price);
  for (const heading of [
    "How It Works",
    "Lead Categories",
    "Frequently asked questions",
    "What our customers say",
  ]) {
    expect(html).toContain(heading);
  }
  expect(html).toContain("Ready to Supercharge Your B2B Lead Generation?");
  expect(html).toMatch(/<title>LeadMarket \| Verified B2B Leads for USA &amp; UK<\/title>/);
  expect(html).toMatch(/<meta name="description" content="[^"]{50,}"/);
  expect(html).toMatch(/<meta property="og:title" content="LeadMarket/);
  expect(html).toMatch(/<meta property="og:image" content="http[^"]+\/og-image\.jpg"/);
  expect(html).toMatch(/<link rel="canonical" href="http:\/\/[^"/]+\/?"/);
  expect(html).toContain('"@type":"FAQPage"');
});

test("the browser reuses the server's categories instead of fetching them again", async ({ page }) => {
  const calls: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/categories") calls.push(request.url());
  });
  await ready(page);
  await expect(
    page.getByRole("list", { name: "Lead categories" }).getByRole("listitem").first(),
  ).toBeVisible();
  expect(calls).toEqual([]);
});

test("the first load stays within 150 KB of gzipped JavaScript and carries no code it does not use", async ({
  page,
}) => {
  const scripts: Promise<Buffer>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") scripts.push(response.body());
  });
  await ready(page);
  await page.waitForTimeout(3000);
  const bodies = await Promise.all(scripts);
  const gzipped = bodies.reduce((total, body) => total + gzipSync(body).length, 0);
  expect(gzipped / 1024).toBeLessThanOrEqual(150);
  const code = bodies.join("\n");
  expect(code).not.toContain("No QueryClient set"); // React Query
  expect(code).not.toContain("Notifications ({hotkey})"); // the toast UI, loaded with the first toast
  expect(code).not.toContain("mask-image-linear-from-pos"); // tailwind-merge's class table
});

test("sections come in the designed order with the product's anchors", async ({ page }) => {
  await ready(page);
  const ids = await page
    .locator("main section[id], main [id='packages']")
    .evaluateAll((nodes) => nodes.map((node) => node.id));
  expect(ids).toEqual(["how-it-works", "lead-categories", "packages", "custom-request"]);
  const headings = await page.locator("main h2").allTextContents();
  const order = [
    "Trusted by innovative companies",
    "From target market to lead list in four steps",
    "Choose a package, then your audience",
    "Data you can build a pipeline on",
    "Need a list we don't have yet?",
    "What our customers say",
    "Frequently asked questions",
    "Ready to Supercharge Your B2B Lead Generation?",
  ];
  expect(headings.filter((text) => order.includes(text))).toEqual(order);
});

test("hero, how it works, trusted-by strip and banner carry the product's texts and links", async ({
  page,
}) => {
  await ready(page);
  const hero = page.locator("section", { has: page.getByRole("heading", { level: 1 }) });
  await expect(hero.getByRole("heading", { level: 1 })).toHaveText("Verified B2B Leads for the USA & UK");
  await expect(hero.getByRole("link", { name: "Explore Packages" })).toHaveAttribute("href", "#packages");
  await expect(hero.getByRole("link", { name: "Request Custom Leads" })).toHaveAttribute(
    "href",
    "#custom-request",
  );
  await expect(hero.getByRole("list", { name: "Data quality" }).getByRole("listitem")).toHaveText([
    "GDPR Compliant",
    "Verified Data",
    "Weekly Updates",
  ]);

  const steps = page.locator("#how-it-works ol > li h3");
  await expect(steps).toHaveText([
    "Choose platform",
    "Choose industry and role",
    "Get a validated lead list",
    "Download or receive it in your inbox",
  ]);
  await expect(page.locator("#how-it-works")).toContainText("Facebook, LinkedIn, Instagram or Slack");

  await expect(page.getByRole("heading", { name: "Trusted by innovative companies" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Our customers" }).getByRole("img")).toHaveCount(6);

  const banner = page.locator("section", { has: page.getByRole("heading", { name: /Supercharge/ }) });
  await expect(banner.getByRole("link", { name: "Explore Packages" })).toHaveAttribute("href", "#packages");
  await expect(banner.getByRole("link", { name: "Request Custom Leads" })).toHaveAttribute(
    "href",
    "#custom-request",
  );
  await expect(banner.getByRole("link", { name: "Get our free lead generation guide" })).toHaveAttribute(
    "href",
    "#",
  );
  await banner.getByRole("link", { name: "Explore Packages" }).click();
  await expect(page.locator("#packages")).toBeInViewport();
});

test("the package selector toggles, badges premium and Buy Now remembers the choice", async ({ page }) => {
  const marketing = (await categories(page)).find((category) => category.title === "Marketing")!;
  await ready(page);
  const packages = page.locator("#packages");
  const button = (name: string) => packages.locator(`[data-package="${name}"]`).getByRole("button");
  for (const id of ["starter", "standard", "premium"]) await expect(button(id)).toHaveText("Select");

  await button("standard").click();
  await expect(button("standard")).toHaveText("Selected");
  await expect(button("standard")).toHaveAttribute("aria-pressed", "true");
  await expect(button("starter")).toHaveText("Select");
  await expect(button("premium")).toHaveText("Select");
  await button("standard").click();
  for (const id of ["starter", "standard", "premium"]) await expect(button(id)).toHaveText("Select");

  const cards = page.getByRole("list", { name: "Lead categories" }).getByRole("listitem");
  const count = await cards.count();
  await expect(page.getByText("PREMIUM", { exact: true })).toHaveCount(0);
  await button("premium").click();
  await expect(page.getByText("PREMIUM", { exact: true })).toHaveCount(count);
  await button("standard").click();
  await expect(page.getByText("PREMIUM", { exact: true })).toHaveCount(0);

  const card = cards.filter({ hasText: "Marketing Professionals - USA" });
  await expect(card).toContainText("$100");
  await card.getByRole("link", { name: /Buy Now/ }).click();
  await expect(page).toHaveURL(new RegExp(`/category/${marketing._id}\\?package=standard$`));
  const stored = await page.evaluate(() => ({
    category: sessionStorage.getItem("currentCategory"),
    pkg: sessionStorage.getItem("selectedPackage"),
  }));
  expect(stored.pkg).toBe("standard");
  expect(JSON.parse(stored.category!)).toMatchObject({
    _id: marketing._id,
    title: "Marketing",
    count: marketing.count,
  });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Marketing Professionals - USA");
});

test("category cards are titled per spec and their images cycle through a list of 8", async ({ page }) => {
  const all = await categories(page);
  await ready(page);
  const cards = page.getByRole("list", { name: "Lead categories" }).getByRole("listitem");
  await expect(cards.locator("h3")).toHaveText(
    all.map((category) => `${category.title} Professionals - USA`),
  );
  const sources = await cards
    .locator("img")
    .evaluateAll((images) => images.map((img) => img.getAttribute("src")));
  expect(new Set(sources).size).toBe(Math.min(8, all.length));
  if (all.length > 8) expect(sources[8]).toBe(sources[0]);
  // Without a selection, Buy Now takes the default package.
  await expect(cards.first().getByRole("link", { name: /Buy Now/ })).toHaveAttribute(
    "href",
    `/category/${all[0]._id}?package=starter`,
  );
});

test("an address with a hash scrolls smoothly to that section after load", async ({ page }) => {
  await page.goto("/#how-it-works");
  await expect(page.locator("#how-it-works")).toBeInViewport();
  const top = await page.locator("#how-it-works").evaluate((node) => node.getBoundingClientRect().top);
  expect(Math.abs(top)).toBeLessThan(100);
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
});

test("the testimonials slider: three slides, dots that scroll and follow the scroll position", async ({
  page,
}) => {
  await ready(page);
  const slider = page.getByRole("region", { name: "Customer testimonials" });
  const slides = slider.locator('[aria-roledescription="slide"]');
  await expect(slides).toHaveCount(3);
  await expect(slides.getByTestId("rating")).toHaveText(["5.0", "4.8", "5.0"]);
  for (let index = 0; index < 3; index += 1) {
    await expect(slides.nth(index).locator("blockquote")).not.toBeEmpty();
    await expect(slides.nth(index).locator("figcaption p")).toHaveCount(2);
  }
  const dots = page.getByRole("group", { name: "Choose a testimonial" }).getByRole("button");
  await expect(dots).toHaveCount(3);
  await expect(dots.nth(0)).toHaveAttribute("aria-current", "true");

  await slider.scrollIntoViewIfNeeded();
  await dots.nth(1).click();
  await expect(dots.nth(1)).toHaveAttribute("aria-current", "true");
  await expect(dots.nth(0)).not.toHaveAttribute("aria-current", "true");
  await expect.poll(() => slider.evaluate((node) => Math.round(node.scrollLeft / node.clientWidth))).toBe(1);

  // Scrolling the track itself (swipe, keyboard) moves the active dot too.
  await slider.evaluate((node) => node.scrollTo({ left: node.clientWidth * 2, behavior: "instant" }));
  await expect(dots.nth(2)).toHaveAttribute("aria-current", "true");
  await page.getByRole("button", { name: "Previous testimonial" }).click();
  await expect(dots.nth(1)).toHaveAttribute("aria-current", "true");

  // 4.8 fills four stars and 80% of the fifth.
  await expect(slides.nth(1).getByTestId("star").last()).toHaveAttribute("data-fill", "0.8");
  // The customer logos appear once on the page: in the trusted-by strip.
  await expect(page.getByRole("img", { name: "Northwind" })).toHaveCount(1);
});

test("the FAQ accordion keeps one item open and lets it collapse, by mouse and keyboard", async ({
  page,
}) => {
  await ready(page);
  const faq = page.locator("section", {
    has: page.getByRole("heading", { name: "Frequently asked questions" }),
  });
  // Native <details> items: the question is the <summary>, the item's `open` attribute its state.
  const item = (question: string) => faq.locator("details", { has: page.getByText(question) });
  const first = item("How accurate are your leads?");
  const second = item("How do I receive my leads?");
  await first.locator("summary").click();
  await expect(first).toHaveAttribute("open", "");
  await expect(faq.getByText("most leads were verified within the last 30 days")).toBeVisible();
  await second.locator("summary").click();
  await expect(second).toHaveAttribute("open", "");
  await expect(first).not.toHaveAttribute("open");
  await second.locator("summary").click();
  await expect(second).not.toHaveAttribute("open");
  await expect(faq.getByText("most leads were verified within the last 30 days")).toBeHidden();

  await first.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(first).toHaveAttribute("open", "");
  await page.keyboard.press("Space");
  await expect(first).not.toHaveAttribute("open");
  await expect(faq.getByRole("link", { name: "Contact our support team" })).toHaveAttribute(
    "href",
    "#custom-request",
  );
});

test("the custom request section hosts the custom request form", async ({ page }) => {
  await page.goto("/#custom-request");
  const section = page.locator("section#custom-request");
  await expect(section.getByRole("heading", { level: 2 })).toHaveText("Need a list we don't have yet?");
  // Its code loads when the section comes near: on a loaded machine later than the default 10 s.
  await expect(section.getByRole("form", { name: "Custom lead request" })).toBeVisible({ timeout: 30_000 });
  await expect(section).toBeInViewport();
});
