// "Exclude contacts I already have" in the browser (docs/product-rules.md, "Exclusion lists"): a
// list of 500 addresses, 120 of them leads of the category (the ones an order would get first):
// before payment the purchase card says only which packages what is left still fills, never how
// many the list names; a starter bought with it in test payment mode delivers none of them, and
// its order page says exactly how many were left out. The shared e2e
// app runs with test mode off, so this file starts a second server of the same build with it on.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { Pool } from "pg";
import { startTestModeServer, type AppServer } from "../support/app-server";

let server: AppServer;

test.beforeAll(async () => {
  server = await startTestModeServer();
});

test.afterAll(async () => {
  await server.stop();
});

/** 120 of the category's USA leads, from those an allocation takes first (unsold, most recent). */
async function leadsOf(categoryId: string): Promise<string[]> {
  const pool = new Pool({ connectionString: process.env.E2E_DATABASE_URL });
  try {
    const { rows } = await pool.query<{ email: string }>(
      `SELECT email FROM leads l WHERE category_id = $1 AND country = 'USA'
          AND lead_sellable(quarantined_at, email_status, notice_status)
          AND NOT EXISTS (SELECT 1 FROM lead_sales s WHERE s.category_id = l.category_id AND s.lead_id = l.id)
        ORDER BY verified_at DESC, id LIMIT 240`,
      [categoryId],
    );
    return rows.filter((_, index) => index % 2 === 0).map((row) => row.email);
  } finally {
    await pool.end();
  }
}

test("a 500-address list: packages still available before payment, its 120 leads left out after", async ({
  page,
}) => {
  const categories = (await (await fetch(`${server.url}/api/categories`)).json()) as {
    _id: string;
    title: string;
  }[];
  const category = categories.find((entry) => entry.title === "Education")!;
  const listed = await leadsOf(category._id);
  expect(listed).toHaveLength(120);
  const others = Array.from({ length: 380 }, (_, i) => `someone.${i}@not-a-lead.example`);
  const lines = [
    "Name,Email",
    ...[...listed, ...others].map((email, i) => `Contact ${i},${i % 3 ? email : email.toUpperCase()}`),
  ];

  await page.goto(`${server.url}/category/${category._id}?package=starter`);
  const card = page.getByTestId("purchase-card");
  await card.getByLabel("Exclude contacts I already have").setInputFiles({
    name: "my-contacts.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(lines.join("\n")),
  });
  await expect(card.getByTestId("exclusion-list")).toContainText("my-contacts.csv: 500 emails to exclude");
  const availability = card.getByTestId("exclusion-availability");
  await expect(availability).toContainText("Without your contacts: Starter available;");
  await expect(availability).toContainText("How many your list left out is shown with your receipt.");
  await expect(availability).not.toContainText("120");

  const popupPromise = page.waitForEvent("popup");
  await card.getByRole("button", { name: "Buy Now" }).click();
  const popup = await popupPromise;
  await expect(popup).toHaveTitle("Test Payment | LeadMarket");
  const downloadPromise = popup.waitForEvent("download");
  await popup.getByRole("button", { name: /Pay \$10\.00/ }).click();
  await expect(popup.getByText("Payment Complete!").first()).toBeVisible();
  const text = await readFile((await (await downloadPromise).path())!, "utf8");
  const delivered = (parse(text, { columns: true, bom: true }) as Record<string, string>[]).map(
    (record) => record.Email,
  );
  expect(delivered).toHaveLength(1000);
  const excluded = new Set(listed);
  expect(delivered.filter((email) => excluded.has(email))).toEqual([]);

  // The list stays with the tab: another package's card shows it too, and the order page says it.
  const key = await page.evaluate(() => sessionStorage.getItem("paymentId"));
  await page.goto(`${server.url}/order/${key}`);
  await expect(page.getByTestId("order-excluded")).toContainText("120 contacts from your list were left out");
  await page.goto(`${server.url}/category/${category._id}?package=standard`);
  await expect(page.getByTestId("exclusion-availability")).toContainText("Starter available");
});
