// Every public page fits its viewport: nothing makes the document wider than the window, on a
// desktop (1280x800) or a phone (375x812).
import { expect, test, type Page } from "@playwright/test";

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 375, height: 812 },
];

async function publicPaths(page: Page): Promise<string[]> {
  const categories: { _id: string }[] = await (await page.request.get("/api/categories")).json();
  return [
    "/",
    `/category/${categories[0]._id}`,
    `/category/${categories[0]._id}?package=premium`,
    `/category/${categories.at(-1)!._id}?package=premium`,
    "/category/00000000-0000-4000-8000-000000000000",
    "/privacy-policy",
    "/terms-of-service",
    "/cookie-policy",
    "/no-such-page",
    "/admin/login",
  ];
}

/** The document's width after every lazily shown section has been scrolled into view. */
async function documentWidth(page: Page): Promise<{ scrollWidth: number; viewport: number }> {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    window.scrollTo(0, 0);
  });
  return page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("no public page scrolls sideways", async ({ page }) => {
      const widths: Record<string, number> = {};
      for (const path of await publicPaths(page)) {
        await page.goto(path);
        await page.waitForLoadState("networkidle");
        const { scrollWidth, viewport: width } = await documentWidth(page);
        expect(width).toBe(viewport.width);
        widths[path] = scrollWidth;
      }
      const expected = Object.fromEntries(Object.keys(widths).map((path) => [path, viewport.width]));
      expect(widths).toEqual(expected);
    });
  });
}
