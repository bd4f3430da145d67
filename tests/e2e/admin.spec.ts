// The admin back-office in a browser: sign-in, the guard, every tab, status changes, imports and
// settings, with the product's texts. Most tests plant a signed token instead of typing the form.
import type { Page } from "@playwright/test";
import {
  closeE2eDb,
  createAdmin,
  E2E_ADMIN_EMAIL,
  E2E_ADMIN_PASSWORD,
  e2eDb,
  expect,
  openDashboard,
  signToken,
  test,
  watchCsp,
} from "./admin-fixtures";

const RUN = Date.now().toString(36);
let marketingId: string;

test.beforeAll(async () => {
  const { rows } = await e2eDb().query("SELECT id FROM categories WHERE title = 'Marketing'");
  marketingId = rows[0].id;
  const day = 24 * 3600 * 1000;
  const now = Date.now();
  const orders: [string, number, string, Date | null, Date][] = [
    [`np-${RUN}-paid`, 100, "finished", new Date(now - 60_000), new Date(now - 60_000)],
    [`np-${RUN}-old`, 10, "finished", new Date(now - 3 * day), new Date(now - 3 * day)],
    [`inv-${RUN}-waiting`, 200, "waiting", null, new Date(now - 120_000)],
  ];
  for (const [paymentId, amount, status, paidAt, createdAt] of orders) {
    await e2eDb().query(
      `INSERT INTO orders (category_id, lead_title, package_type, lead_count, amount, status,
         provider_payment_id, paid_at, created_at)
       VALUES ($1, 'Marketing', $2, $3, $4, $5, $6, $7, $8)`,
      [
        marketingId,
        amount === 10 ? "starter" : amount === 100 ? "standard" : "premium",
        amount * 100,
        amount,
        status,
        paymentId,
        paidAt,
        createdAt,
      ],
    );
  }
  // Ten pending requests so the bell caps at 9+, one of them with a hostile name and a file.
  for (let i = 0; i < 10; i++) {
    const { rows: created } = await e2eDb().query(
      `INSERT INTO custom_requests (name, email, industry, role, platform, message)
       VALUES ($1, $2, 'saas', 'ceo', 'LinkedIn, Slack', $3) RETURNING id`,
      [
        i === 0 ? `<img src=x onerror=alert(1)> ${RUN}` : `Requester ${i} ${RUN}`,
        `req${i}-${RUN}@example.com`,
        i === 0 ? "<b>bold?</b> Need 500 CTOs" : "",
      ],
    );
    if (i === 0) {
      await e2eDb().query(
        `INSERT INTO attachments (request_id, file_name, content_type, size, data)
         VALUES ($1, 'brief.csv', 'text/csv', 11, $2)`,
        [created[0].id, Buffer.from("a,b\n1,2\n3,4")],
      );
    }
  }
});

test.afterAll(async () => {
  await closeE2eDb();
});

const toast = (page: Page, title: string) =>
  page.locator("[data-slot=toast]").filter({ hasText: title }).first();

test("the dashboard without a token sends the visitor to the login page", async ({ page }) => {
  await page.goto("/admin/dashboard");
  await expect(toast(page, "Authentication required")).toContainText(
    "Please login to access the admin dashboard",
  );
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test("login through the form, then logout", async ({ page }) => {
  const csp = watchCsp(page);
  await page.goto("/admin/login");
  await page.getByLabel("Email").fill(E2E_ADMIN_EMAIL);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(toast(page, "Login failed")).toContainText("Invalid credentials");

  await page.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);
  await expect(toast(page, "Login successful")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard Overview" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("adminToken"))).toMatch(/^ey/);

  await page.getByRole("button", { name: "Logout" }).click();
  await expect(toast(page, "Logged out")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login$/);
  expect(await page.evaluate(() => localStorage.getItem("adminToken"))).toBeNull();
  expect(csp).toEqual([]);
});

test("dashboard tab: cards, insights, chart, recent lists, badges and auto-refresh", async ({
  page,
  adminToken,
}) => {
  const csp = watchCsp(page);
  await page.clock.install();
  let statsCalls = 0;
  page.on("request", (request) => {
    if (request.url().endsWith("/api/admin/stats")) statsCalls += 1;
  });
  await openDashboard(page, adminToken);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard Overview" })).toBeVisible();
  for (const title of ["Total Revenue", "Total Sales", "Leads Sold", "Custom Requests"]) {
    await expect(page.getByRole("heading", { name: title, exact: true })).toBeVisible();
  }
  await expect(page.getByText(/% from last week/)).toBeVisible();
  await expect(page.getByText(/\d+ confirmed, \d+ pending/)).toBeVisible();
  await expect(page.getByText(/Avg\. \$[\d.]+ per lead/)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Avg. Request Response" })).toBeVisible();
  await expect(page.locator(".recharts-surface").first()).toBeVisible();
  await expect(page.getByText(/^\$100\.00$/).first()).toBeVisible();

  const nav = page.getByRole("complementary", { name: "Admin" });
  await expect(nav.getByRole("button", { name: /Requests/ }).locator("[data-slot=badge]")).toHaveText(
    /^\d+$/,
  );
  await expect(page.getByTestId("notification-badge")).toHaveText("9+");

  // Auto-refresh is on by default: the figures are fetched again without any click.
  const before = statsCalls;
  await page.clock.fastForward(31_000);
  await expect.poll(() => statsCalls).toBeGreaterThan(before);

  await page.getByRole("button", { name: "View all sales" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sales Transactions" })).toBeVisible();
  await page.goto("/admin/dashboard?tab=unknown");
  await expect(page.getByRole("heading", { level: 1, name: "Select a tab to view data" })).toBeVisible();
  expect(csp).toEqual([]);
});

test("sales tab: table, date sorting and CSV export", async ({ page, adminToken }) => {
  await openDashboard(page, adminToken, "sales");
  await expect(page.getByRole("heading", { level: 1, name: "Sales Transactions" })).toBeVisible();
  const headers = page.locator("thead th");
  const columns = ["Date", "Payment ID", "Category", "Package", "Lead Count", "Amount", "Status"];
  for (const [index, name] of columns.entries()) await expect(headers.nth(index)).toContainText(name);
  const paid = page.getByRole("row").filter({ hasText: `np-${RUN}-paid` });
  await expect(paid).toContainText("Standard");
  await expect(paid).toContainText("10,000");
  await expect(paid).toContainText("$100.00");
  await expect(paid).toContainText("Confirmed");
  await expect(page.getByRole("row").filter({ hasText: `inv-${RUN}-waiting` })).toContainText("Waiting");

  await page.getByRole("button", { name: /^Date/ }).click();
  await expect(page.locator("thead th").first()).toHaveAttribute("aria-sort", "ascending");

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export Data" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^sales-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await (
    await file.createReadStream()
  )
    .toArray()
    .then((chunks) => Buffer.concat(chunks).toString());
  expect(text).toContain(`np-${RUN}-paid`);
});

test("requests tab: text-only rendering, status changes, attachments and export", async ({
  page,
  adminToken,
}) => {
  let dialogs = 0;
  page.on("dialog", (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });
  await openDashboard(page, adminToken, "requests");
  await expect(page.getByRole("heading", { level: 1, name: "Custom Requests" })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: `<img src=x onerror=alert(1)> ${RUN}` });
  await expect(row).toBeVisible();
  await expect(row).toContainText("<b>bold?</b> Need 500 CTOs");
  await expect(page.locator("img[src=x]")).toHaveCount(0);
  await expect(row.getByRole("link", { name: `req0-${RUN}@example.com` })).toHaveAttribute(
    "href",
    `mailto:req0-${RUN}@example.com`,
  );
  await expect(row).toContainText("Pending");

  await row.getByRole("button", { name: "In Progress" }).click();
  await expect(toast(page, "Status updated")).toContainText("Request status has been updated to In Progress");
  await expect(row.getByRole("button", { name: "In Progress" })).toBeDisabled();
  await expect(row.getByRole("button", { name: "Complete" })).toBeEnabled();
  await row.getByRole("button", { name: "Complete" }).click();
  await expect(toast(page, "Status updated")).toContainText("Request status has been updated to Completed");
  await expect(row.getByRole("button", { name: "Complete" })).toBeDisabled();
  await expect(row).toContainText("Completed");

  // A failing server answer gives the product's failure toast.
  const other = page.getByRole("row").filter({ hasText: `Requester 1 ${RUN}` });
  await page.route("**/api/admin/requests/*", (route) =>
    route.request().method() === "PATCH"
      ? route.fulfill({ status: 500, body: '{"success":false,"message":"x"}' })
      : route.continue(),
  );
  await other.getByRole("button", { name: "Complete" }).click();
  await expect(toast(page, "Update failed")).toContainText("Failed to update request status");
  await page.unroute("**/api/admin/requests/*");

  await expect(row).toContainText("1 attachment");
  await row.getByRole("button", { name: /^Details/ }).click();
  const details = page.getByRole("dialog");
  const attachment = page.waitForEvent("download");
  await details.getByRole("button", { name: "Download brief.csv" }).click();
  expect((await attachment).suggestedFilename()).toBe("brief.csv");
  await details.getByRole("button", { name: "Close" }).click();
  await expect(details).toBeHidden();

  const exported = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  expect((await exported).suggestedFilename()).toMatch(/^custom-requests-.*\.csv$/);
  expect(dialogs).toBe(0);

  // With a completed request the insight card shows the product's figure.
  await page.getByRole("button", { name: "Dashboard", exact: true }).click();
  const insight = page.locator("[data-slot=card]").filter({ hasText: "Avg. Request Response" });
  await expect(insight).toContainText("48 hours");
});

test("categories tab: add with validation, edit, import with report, view link", async ({
  page,
  adminToken,
}) => {
  await openDashboard(page, adminToken, "categories");
  await expect(page.getByRole("heading", { level: 1, name: "Lead Categories" })).toBeVisible();
  const marketing = page.locator(`[data-category-id="${marketingId}"]`);
  await expect(marketing).toContainText("46,000");
  // The demo's status mix (docs/product-rules.md, "Verification").
  await expect(marketing.getByTestId("status-mix")).toHaveText(
    "Email status: 85% valid, 10% accept-all, 5% unknown",
  );
  await expect(marketing.getByRole("link", { name: "View" })).toHaveAttribute(
    "href",
    `/category/${marketingId}`,
  );
  await expect(marketing.getByRole("link", { name: "View" })).toHaveAttribute("target", "_blank");

  await page.getByRole("button", { name: "Add Category" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Create Category" }).click();
  await expect(dialog.getByText("Title is required")).toBeVisible();
  await dialog.getByLabel("Title").fill(`Robotics ${RUN}`);
  await dialog.getByLabel("Description").fill("Robotics engineers");
  await dialog.getByRole("button", { name: "Create Category" }).click();
  await expect(dialog).toBeHidden();
  const card = page.locator("[data-category-id]").filter({ hasText: `Robotics ${RUN}` });
  await expect(card).toContainText("0");

  await card.getByRole("button", { name: "Edit" }).click();
  await expect(dialog.getByLabel("Title")).toHaveValue(`Robotics ${RUN}`);
  await dialog.getByLabel("Title").fill(`Robotics Pros ${RUN}`);
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(dialog).toBeHidden();
  const renamed = page.locator("[data-category-id]").filter({ hasText: `Robotics Pros ${RUN}` });
  await expect(renamed).toBeVisible();

  await renamed.getByRole("button", { name: "Import Leads" }).click();
  const csv = [
    "First Name,Last Name,Email Address,Company,Country",
    "Ada,Lovelace,ada@robots.com,Engines,UK",
    "Bad,Row,not-an-email,X,USA",
    "Alan,Turing,alan@robots.com,Bletchley,United Kingdom",
    "Ada,Again,ADA@robots.com,Engines,UK",
    "Grace,Hopper,grace@robots.com,Navy,",
  ].join("\n");
  await dialog.getByLabel("Source").fill("Company websites");
  await dialog
    .getByLabel("CSV file")
    .setInputFiles({ name: "robots.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await dialog.getByRole("button", { name: "Import" }).click();
  const report = dialog.getByTestId("import-report");
  await expect(report).toContainText("Imported: 3");
  await expect(report).toContainText("Duplicates skipped: 1");
  await expect(report).toContainText("Invalid rows: 1 (invalid email syntax 1)");
  await expect(report).toContainText('Line 3: Invalid email "not-an-email"');
  await dialog.getByRole("button", { name: "Close", exact: true }).first().click();
  await expect(renamed).toContainText("3");
});

test("settings tab: account and system settings flows with the product's texts", async ({ page }) => {
  const email = `second-${RUN}@example.com`;
  const admin = await createAdmin(email, "initial-pass");
  await openDashboard(page, await signToken(admin), "settings");
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expect(page.getByLabel("Admin Email")).toHaveValue(email);
  await expect(page.getByText("Used for admin login")).toBeVisible();
  await expect(page.getByText("Address to receive system notifications")).toBeVisible();

  // Copy is refused with a notice; the update panel is never prefilled.
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(toast(page, "Security Notice")).toContainText(
    "For security reasons, copying the API key is disabled",
  );
  await page.getByRole("button", { name: "Update API Key" }).click();
  await expect(page.getByLabel("New API Key")).toHaveValue("");
  await expect(page.getByLabel("New API Key")).toHaveAttribute("type", "password");
  await expect(page.getByRole("button", { name: "Save API Key" })).toBeDisabled();
  await page.getByLabel("New API Key").fill("typed-but-cancelled");
  await expect(page.getByRole("button", { name: "Save API Key" })).toBeEnabled();
  await page.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "Update API Key" }).click();
  await expect(page.getByLabel("New API Key")).toHaveValue("");
  await page.getByRole("button", { name: "Cancel" }).click();

  // Save Settings sends only what changed, and nothing at all without a change.
  const patches: unknown[] = [];
  page.on("request", (request) => {
    if (request.method() === "PATCH" && request.url().endsWith("/api/admin/settings")) {
      patches.push(request.postDataJSON());
    }
  });
  await page.getByRole("button", { name: "Save Settings" }).click();
  await page.waitForTimeout(300);
  expect(patches).toEqual([]);
  const renamed = `renamed-${RUN}@example.com`;
  await page.getByLabel("Admin Email").fill(renamed);
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(toast(page, "Settings updated")).toContainText("Your settings have been saved successfully");
  expect(patches).toEqual([{ email: renamed }]);
  await page.getByLabel("Auto-refresh dashboard data").click();
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect.poll(() => patches.length).toBe(2);
  expect(patches[1]).toEqual({ autoRefreshDashboard: false });
  await expect(page.getByLabel("Auto-refresh dashboard data")).not.toBeChecked();
  await page.getByLabel("Auto-refresh dashboard data").click();
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect.poll(() => patches.length).toBe(3);
  expect(patches[2]).toEqual({ autoRefreshDashboard: true });

  // Password panel: the product's validation and outcomes.
  const openPanel = () => page.getByRole("button", { name: "Change Password" }).click();
  await openPanel();
  await page.getByLabel("Current Password").fill("initial-pass");
  await page.getByLabel("New Password", { exact: true }).fill("abcdefg");
  await page.getByLabel("Confirm New Password").fill("abcdefh");
  await page.getByRole("button", { name: "Save Password" }).click();
  await expect(toast(page, "Passwords don't match")).toContainText(
    "New password and confirmation must match",
  );
  await page.getByLabel("New Password", { exact: true }).fill("abc");
  await page.getByLabel("Confirm New Password").fill("abc");
  await page.getByRole("button", { name: "Save Password" }).click();
  await expect(toast(page, "Password too short")).toContainText(
    "New password must be at least 6 characters long",
  );
  // The handler's schema runs in the panel first: its messages show beside their fields and
  // nothing is sent.
  const panel = page.getByRole("form", { name: "Change password" });
  await expect(panel.getByText("New password must be at least 6 characters long")).toBeVisible();
  await expect(page.getByLabel("New Password", { exact: true })).toHaveAttribute("aria-invalid", "true");
  const passwordPosts: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/admin/change-password")) passwordPosts.push(request.url());
  });
  await page.getByLabel("Current Password").fill("   ");
  await page.getByLabel("New Password", { exact: true }).fill("brand-new-pass");
  await page.getByLabel("Confirm New Password").fill("brand-new-pass");
  await page.getByRole("button", { name: "Save Password" }).click();
  await expect(toast(page, "Password change failed")).toContainText("Current password is required");
  await expect(panel.getByText("Current password is required")).toBeVisible();
  await expect(panel.getByText("New password must be at least 6 characters long")).toHaveCount(0);
  expect(passwordPosts).toEqual([]);
  await page.getByLabel("Current Password").fill("not-my-password");
  await page.getByRole("button", { name: "Save Password" }).click();
  await expect(toast(page, "Password change failed")).toContainText(
    "Failed to update your password. Please check your current password.",
  );
  // The server's field error shows beside its field.
  await expect(panel.getByText("Current password is incorrect")).toBeVisible();
  await expect(page.getByLabel("Current Password")).toHaveAttribute("aria-invalid", "true");
  expect(passwordPosts).toHaveLength(1);
  await page.getByLabel("Current Password").fill("initial-pass");
  const oldToken = await page.evaluate(() => localStorage.getItem("adminToken"));
  await page.getByRole("button", { name: "Save Password" }).click();
  await expect(toast(page, "Password changed")).toContainText("Your password has been updated successfully");
  await expect(page.getByLabel("Current Password")).toBeHidden();
  const newToken = await page.evaluate(() => localStorage.getItem("adminToken"));
  expect(newToken).not.toBe(oldToken);
  // The old token is void, the new one keeps the admin signed in.
  const oldAnswer = await page.request.get("/api/admin/settings", {
    headers: { authorization: `Bearer ${oldToken}` },
  });
  expect(oldAnswer.status()).toBe(401);
  await page.reload();
  await expect(page.getByLabel("Admin Email")).toHaveValue(renamed);
});

test("settings tab: an edit made while a save is in flight is kept, and saved next", async ({ page }) => {
  const admin = await createAdmin(`inflight-${RUN}@example.com`, "initial-pass");
  await openDashboard(page, await signToken(admin), "settings");
  const autoRefresh = page.getByLabel("Auto-refresh dashboard data");
  await expect(autoRefresh).toBeChecked();

  // Hold the first save's answer until the admin has changed the field again.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const patches: unknown[] = [];
  await page.route("**/api/admin/settings", async (route) => {
    if (route.request().method() !== "PATCH") return route.continue();
    patches.push(route.request().postDataJSON());
    if (patches.length === 1) await held;
    await route.continue();
  });
  await autoRefresh.click();
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect.poll(() => patches.length).toBe(1);
  await autoRefresh.click();
  release();
  await expect(toast(page, "Settings updated")).toBeVisible();
  await expect(autoRefresh).toBeChecked();
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect.poll(() => patches.length).toBe(2);
  expect(patches).toEqual([{ autoRefreshDashboard: false }, { autoRefreshDashboard: true }]);
});

test("security headers are sent and the public site runs under the CSP", async ({ page }) => {
  const csp = watchCsp(page);
  const response = await page.goto("/");
  const headers = response!.headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).toContain("script-src 'self' 'unsafe-inline'");
  expect(headers["content-security-policy"]).not.toContain("unsafe-eval");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["strict-transport-security"]).toContain("max-age=");
  await expect(page.getByText("Marketing Professionals - USA").first()).toBeVisible();
  await page.goto(`/category/${marketingId}`);
  await page.waitForLoadState("networkidle");
  expect(csp).toEqual([]);
});
