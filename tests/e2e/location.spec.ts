// Location and freshness in the browser (docs/product-rules.md): the USA / UK choice on the Lead
// Categories section, the category page's ?location=, the freshness line, and empty categories.
import { expect, test, type Page } from "@playwright/test";
import { closeE2eDb, e2eDb } from "./admin-fixtures";

type Category = {
  _id: string;
  title: string;
  countByLocation: { USA: number; UK: number };
  verifiedRecentlyPercentByLocation: { USA: number; UK: number };
  updatedAt: string;
};

const number = new Intl.NumberFormat("en-US");
const FRESHNESS = /^\d{1,3}% verified in the last 30 days · Updated [A-Z][a-z]{2} \d{1,2}, \d{4}$/;

async function categories(page: Page): Promise<Category[]> {
  return (await page.request.get("/api/categories")).json();
}

test.afterAll(closeE2eDb);

test("the USA / UK choice changes card titles, counts and Buy Now", async ({ page }) => {
  const all = await categories(page);
  const marketing = all.find((category) => category.title === "Marketing")!;
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  const location = page.getByRole("group", { name: "Location" });
  await expect(location.getByRole("button", { name: "USA" })).toHaveAttribute("aria-pressed", "true");
  const cards = page.getByRole("list", { name: "Lead categories" }).getByRole("listitem");
  const card = cards.filter({ hasText: "Marketing Professionals - USA" });
  await expect(card).toContainText(`${number.format(marketing.countByLocation.USA)} leads available`);
  await expect(card.getByText(/verified in the last 30 days/)).toHaveText(FRESHNESS);
  await expect(card.getByText(/verified in the last 30 days/)).toContainText(
    `${marketing.verifiedRecentlyPercentByLocation.USA}% verified`,
  );

  await location.getByRole("button", { name: "UK" }).click();
  await expect(location.getByRole("button", { name: "UK" })).toHaveAttribute("aria-pressed", "true");
  const offered = all.filter((category) => category.countByLocation.UK > 0);
  await expect(cards.locator("h3")).toHaveText(
    offered.map((category) => `${category.title} Professionals - UK`),
  );
  const ukCard = cards.filter({ hasText: "Marketing Professionals - UK" });
  await expect(ukCard).toContainText(`${number.format(marketing.countByLocation.UK)} leads available`);
  const buy = ukCard.getByRole("link", { name: /Buy Now/ });
  await expect(buy).toHaveAttribute("href", `/category/${marketing._id}?package=starter&location=UK`);
  await buy.click();
  await expect(page).toHaveURL(new RegExp(`/category/${marketing._id}\\?package=starter&location=UK$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Marketing Professionals - UK");
  const facts = page.getByRole("list", { name: "List facts" });
  await expect(facts).toContainText("United Kingdom");
  await expect(facts).toContainText(`${number.format(marketing.countByLocation.UK)} leads available`);
});

test("the category page follows ?location=UK: country, packages, samples and structured data", async ({
  page,
}) => {
  const software = (await categories(page)).find((category) => category.title === "Software & SaaS")!;
  const response = await page.request.get(`/category/${software._id}?location=UK&package=starter`);
  const html = await response.text();
  const product = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)]
    .flatMap((match) => JSON.parse(match[1]))
    .find((block) => block["@type"] === "Product");
  expect(product.name).toBe("Software & SaaS Professionals - UK");
  expect(product.dateModified).toBe(software.updatedAt);
  // 12,000 UK leads: starter and standard in stock, premium not.
  expect(
    product.offers.map((offer: { availability: string }) => offer.availability.split("/").at(-1)),
  ).toEqual(["InStock", "InStock", "OutOfStock"]);

  await page.goto(`/category/${software._id}?location=UK`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Software & SaaS Professionals - UK");
  await expect(page.getByRole("list", { name: "List facts" })).toContainText("United Kingdom");
  await expect(page.getByTestId("freshness")).toHaveText(FRESHNESS);
  await expect(page.getByTestId("status-mix")).toHaveText(
    /^Email status: \d{1,3}% valid, \d{1,3}% accept-all, \d{1,3}% unknown$/,
  );
  await expect(page.getByTestId("purchase-card")).toContainText("12,000");
  const places = await page
    .locator('section[aria-labelledby="sample-title"] tbody tr td:nth-child(4)')
    .allTextContents();
  expect(places).toHaveLength(5);
  for (const place of places) expect(place).toMatch(/, (England|Scotland|Wales|Northern Ireland)$/);

  await page.goto(`/category/${software._id}`);
  await expect(page.getByRole("list", { name: "List facts" })).toContainText("United States");
});

test("a category without leads is not public", async ({ page }) => {
  const { rows } = await e2eDb().query<{ id: string }>(
    "INSERT INTO categories (title) VALUES ('Location Empty E2E') RETURNING id",
  );
  try {
    const response = await page.goto(`/category/${rows[0].id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Category Not Found");
    expect((await categories(page)).some((category) => category._id === rows[0].id)).toBe(false);
  } finally {
    await e2eDb().query("DELETE FROM categories WHERE id = $1", [rows[0].id]);
  }
});
