// When the server cannot read the database, the pages still render and the browser takes over:
// the home page fetches the categories itself (skeletons, empty state, error toast) and the
// category page shows the product's error toast. Runs a second copy of the production build whose
// database is unreachable; the browser's calls to /api/categories are answered by the test.
import { expect, test, type Page, type Route } from "@playwright/test";
import { startAppServer, type AppServer } from "../support/app-server";

let server: AppServer;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startAppServer({
    env: {
      // Nothing listens on port 9: every database call fails at once.
      DATABASE_URL: "postgres://nobody@127.0.0.1:9/unreachable",
      APP_SECRET: process.env.E2E_APP_SECRET ?? "fallback-secret-0123456789-0123456789",
    },
    stdout: "ignore",
    // /api/health answers 503 without a database; a static route shows the server is up.
    readyPath: "/robots.txt",
  });
});

test.afterAll(async () => {
  await server.stop();
});

const CATEGORIES = [
  {
    _id: "6f1c2d7e-0000-4000-8000-000000000001",
    title: "Aviation",
    description: "Airline leaders.",
    count: 4000,
    countByLocation: { USA: 4000, UK: 0 },
    verifiedRecentlyPercent: 91,
    verifiedRecentlyPercentByLocation: { USA: 91, UK: 0 },
    updatedAt: "2024-01-05T00:00:00.000Z",
    createdAt: "2024-01-01T00:00:00.000Z",
  },
  {
    _id: "6f1c2d7e-0000-4000-8000-000000000002",
    title: "Logistics",
    description: "Fleet managers.",
    count: 12000,
    countByLocation: { USA: 11000, UK: 1000 },
    verifiedRecentlyPercent: 88,
    verifiedRecentlyPercentByLocation: { USA: 88, UK: 90 },
    updatedAt: "2024-01-06T00:00:00.000Z",
    createdAt: "2024-01-02T00:00:00.000Z",
  },
];

/** Answers the browser's GET /api/categories, holding it until `release` is called. */
async function answerCategories(page: Page, answer: (route: Route) => Promise<void>) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  await page.route(`${server.url}/api/categories`, async (route) => {
    calls += 1;
    await held;
    await answer(route);
  });
  return { release, calls: () => calls };
}

test("the home page shows 6 skeleton cards, then the categories fetched by the browser (once)", async ({
  page,
}) => {
  const api = await answerCategories(page, (route) => route.fulfill({ json: CATEGORIES }));
  await page.goto(server.url);
  await expect(page.getByTestId("category-skeleton")).toHaveCount(6);
  await expect(page.getByRole("list", { name: "Loading categories" })).toHaveAttribute("aria-busy", "true");
  api.release();
  const cards = page.getByRole("list", { name: "Lead categories" }).getByRole("listitem");
  await expect(cards.locator("h3")).toHaveText([
    "Aviation Professionals - USA",
    "Logistics Professionals - USA",
  ]);
  await expect(page.getByTestId("category-skeleton")).toHaveCount(0);
  expect(api.calls()).toBe(1);
});

test("an empty list shows 'No Lead Categories Found' and Refresh reloads the page", async ({ page }) => {
  const api = await answerCategories(page, (route) => route.fulfill({ json: [] }));
  api.release();
  await page.goto(server.url);
  await expect(page.getByRole("heading", { name: "No Lead Categories Found" })).toBeVisible();
  await expect(page.getByText("We couldn't find any lead categories in our database.")).toBeVisible();
  await page.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));
  await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Refresh" }).click()]);
  expect(
    await page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload),
  ).toBeUndefined();
  // The reloaded page asks for the categories again.
  await expect.poll(() => api.calls()).toBe(2);
  await expect(page.getByRole("heading", { name: "No Lead Categories Found" })).toBeVisible();
});

test("a failed fetch shows the destructive 'Error' toast", async ({ page }) => {
  const api = await answerCategories(page, (route) =>
    route.fulfill({ status: 500, json: { success: false, message: "Internal error" } }),
  );
  api.release();
  await page.goto(server.url);
  const toast = page.locator('[data-slot="toast"]');
  await expect(toast).toHaveCount(1);
  await expect(toast).toHaveAttribute("data-variant", "destructive");
  await expect(toast).toContainText("Error");
  await expect(toast).toContainText("Failed to load industry categories. Please try again.");
  await expect(page.getByRole("heading", { name: "No Lead Categories Found" })).toBeVisible();
});

test("the category page reports a failed load with the product's toast and can retry", async ({ page }) => {
  await page.goto(`${server.url}/category/${CATEGORIES[0]._id}`);
  const toast = page.locator('[data-slot="toast"]');
  await expect(toast).toHaveAttribute("data-variant", "destructive");
  await expect(toast).toContainText("Failed to load category details. Please try again.");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("We couldn't load this category");
  await expect(page.getByRole("button", { name: "Try again" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
});
