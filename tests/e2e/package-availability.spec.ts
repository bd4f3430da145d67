// A package larger than a category's lead count in the chosen country is not offered: the home
// page's card and the category page show a disabled "Not available in this category" instead of
// Buy Now. Every demo category fills every package in the USA, so the short one is a UK list.
import { expect, test, type Locator, type Page } from "@playwright/test";

type Category = { _id: string; title: string; count: number; countByLocation: { USA: number; UK: number } };

async function categoryByTitle(page: Page, title: string): Promise<Category> {
  const all: Category[] = await (await page.request.get("/api/categories")).json();
  return all.find((category) => category.title === title)!;
}

/** The element lies wholly inside its container, horizontally. */
async function expectInside(element: Locator, container: Locator) {
  const inner = (await element.boundingBox())!;
  const outer = (await container.boundingBox())!;
  expect(inner.x).toBeGreaterThanOrEqual(outer.x);
  expect(inner.x + inner.width).toBeLessThanOrEqual(outer.x + outer.width);
  // Its own text is not cut either.
  expect(await element.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
]) {
  test(`at ${viewport.width}x${viewport.height} unbuyable packages are disabled on the cards and the category page`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    const software = await categoryByTitle(page, "Software & SaaS");
    expect(software.countByLocation.UK).toBeLessThan(20_000);
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    await page.locator('#packages [data-package="premium"]').getByRole("button").click();
    await page.getByRole("group", { name: "Location" }).getByRole("button", { name: "UK" }).click();

    const cards = page.getByRole("list", { name: "Lead categories" }).getByRole("listitem");
    const short = cards.filter({ hasText: "Software & SaaS Professionals - UK" });
    const unavailable = short.getByRole("button", { name: "Not available in this category" });
    await expect(unavailable).toBeDisabled();
    await expect(short.getByRole("link", { name: /Buy Now/ })).toHaveCount(0);
    await unavailable.scrollIntoViewIfNeeded();
    await expectInside(unavailable, short);

    const large = cards.filter({ hasText: "Marketing Professionals - UK" });
    await expect(large.getByRole("link", { name: /Buy Now/ })).toHaveAttribute(
      "href",
      /package=premium&location=UK$/,
    );

    // With a package the category can fill, the card sells again.
    await page.locator('#packages [data-package="standard"]').getByRole("button").click();
    await expect(short.getByRole("link", { name: /Buy Now/ })).toHaveAttribute(
      "href",
      /package=standard&location=UK$/,
    );

    await page.goto(`/category/${software._id}?package=premium&location=UK`);
    const card = page.getByTestId("purchase-card");
    const button = card.getByRole("button", { name: "Not available in this category" });
    await expect(button).toBeDisabled();
    await expectInside(button, card);
    await page.goto(`/category/${software._id}?package=standard&location=UK`);
    await expect(card.getByRole("button", { name: "Buy Now" })).toBeEnabled();
  });
}
