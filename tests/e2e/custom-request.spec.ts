// The custom lead request form in the home page's #custom-request section, against the real
// server, database and SMTP catcher.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectToast } from "./toast";
import { Pool } from "pg";

// This file's own client address, so the per-address hourly limit never meets other specs.
test.use({ extraHTTPHeaders: { "x-forwarded-for": `192.0.2.${10 + Math.floor(Math.random() * 200)}` } });

let pool: Pool | undefined;
const database = () => (pool ??= new Pool({ connectionString: process.env.E2E_DATABASE_URL, max: 2 }));
test.afterAll(async () => {
  await pool?.end();
  pool = undefined;
});

type Mail = { to: string[]; subject: string; text: string; attachments: string[] };
async function mails(): Promise<Mail[]> {
  return (await fetch(process.env.E2E_MAILBOX_URL!)).json() as Promise<Mail[]>;
}

type Sample = { name: string; type: string; text: string };
const PDF: Sample = { name: "brief.pdf", type: "application/pdf", text: "%PDF-1.4\n%%EOF\n" };
const CSV: Sample = { name: "contacts.csv", type: "text/csv", text: "name,email\nAda,ada@example.com\n" };
const TXT: Sample = { name: "notes.txt", type: "text/plain", text: "plain text" };
const PNG: Sample = { name: "logo.png", type: "image/png", text: "\u0089PNG" };

const unique = (label: string) =>
  `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function openForm(page: Page): Promise<Locator> {
  await page.goto("/#custom-request");
  const form = page.locator("#custom-request").getByRole("form", { name: "Custom lead request" });
  // Its code loads when the section comes near (components/site/home/lazy-custom-request-form.tsx):
  // on a loaded machine that takes longer than the default 10 s.
  await expect(form).toBeVisible({ timeout: 30_000 });
  // Interacting before hydration would submit the form natively.
  await page.waitForLoadState("networkidle");
  return form;
}

/** Drags files over the drop area and drops them, with a DataTransfer built in the page. */
async function drop(area: Locator, files: Sample[], events = ["dragenter", "dragover", "drop"]) {
  await area.evaluate(
    (element, { files, events }) => {
      const transfer = new DataTransfer();
      for (const file of files) transfer.items.add(new File([file.text], file.name, { type: file.type }));
      for (const type of events) {
        element.dispatchEvent(
          new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }),
        );
      }
    },
    { files, events },
  );
}

const fileName = (form: Locator) => form.getByTestId("attachment-name");

test.describe("custom request form", () => {
  test("starts with the product's defaults", async ({ page }) => {
    const form = await openForm(page);
    await expect(form.getByRole("switch", { name: "LinkedIn" })).toBeChecked();
    for (const name of ["Facebook", "Instagram", "Slack"]) {
      await expect(form.getByRole("switch", { name })).not.toBeChecked();
    }
    await expect(form.getByRole("combobox", { name: "Industry" })).toHaveText("SaaS");
    await expect(form.getByRole("combobox", { name: "Role" })).toHaveText("CEO / Founder");
    await expect(form.getByLabel("Message")).toHaveAttribute("rows", "4");
    await expect(form.getByLabel("Email")).toHaveAttribute("type", "email");
    await expect(form.getByText("Attachments (Optional)", { exact: true })).toBeVisible();

    await form.getByRole("combobox", { name: "Industry" }).click();
    await expect(page.getByRole("option")).toHaveText([
      "SaaS",
      "Healthcare",
      "Finance",
      "E-commerce",
      "Education",
      "Other",
    ]);
    await page.keyboard.press("Escape");
    await form.getByRole("combobox", { name: "Role" }).click();
    await expect(page.getByRole("option")).toHaveText([
      "CEO / Founder",
      "CTO",
      "Marketing",
      "Sales",
      "HR",
      "Developer",
      "Other",
    ]);
  });

  test("refuses to send without name or email", async ({ page }) => {
    const form = await openForm(page);
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/custom-request")) posts.push(request.url());
    });
    await form.getByRole("button", { name: "Submit Request" }).click();
    await expectToast(page, "Validation Error", "Please fill in all required fields");

    await form.getByLabel("Name").fill("Only A Name");
    await form.getByRole("button", { name: "Submit Request" }).click();
    await expectToast(page, "Validation Error", "Please fill in all required fields");
    await expect(page.locator('[data-slot="toast"]').first()).toHaveClass(/destructive/);
    expect(posts).toEqual([]);
  });

  test("checks the fields with the server's rules before sending, and shows why beside them", async ({
    page,
  }) => {
    const form = await openForm(page);
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/custom-request")) posts.push(request.url());
    });
    await form.getByRole("button", { name: "Submit Request" }).click();
    await expectToast(page, "Validation Error", "Please fill in all required fields");
    await expect(form.getByText("Name is required")).toBeVisible();
    await expect(form.getByText("Email is required")).toBeVisible();

    // The browser takes "ada@example" as an email; the server's schema does not.
    await form.getByLabel("Name").fill("Ada Buyer");
    await form.getByLabel("Email").fill("ada@example");
    await form.getByRole("button", { name: "Submit Request" }).click();
    await expectToast(page, "Validation Error", "Enter a valid email address");
    await expect(form.getByText("Name is required")).toHaveCount(0);
    await expect(form.getByText("Enter a valid email address")).toBeVisible();
    await expect(form.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    expect(posts).toEqual([]);
  });

  test("submits a request, shows the spinner, resets, stores it and mails both sides", async ({ page }) => {
    const form = await openForm(page);
    const email = `${unique("buyer")}@example.com`;
    await form.getByRole("switch", { name: "Facebook" }).click();
    await form.getByRole("switch", { name: "Slack" }).click();
    await form.getByRole("combobox", { name: "Industry" }).click();
    await page.getByRole("option", { name: "Finance" }).click();
    await form.getByRole("combobox", { name: "Role" }).click();
    await page.getByRole("option", { name: "Marketing" }).click();
    await form.getByLabel("Message").fill("Fintech marketing leads in London.");
    await form.getByLabel("Name").fill("Ada Buyer");
    await form.getByLabel("Email").fill(email);

    // Hold the (real) request a moment so the submitting state can be seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/custom-request", async (route) => {
      await held;
      await route.continue();
    });
    await form.getByRole("button", { name: "Submit Request" }).click();
    const busy = form.getByRole("button", { name: /Submitting/ });
    await expect(busy).toBeDisabled();
    await expect(busy.getByRole("status")).toBeVisible();
    release();

    await expectToast(
      page,
      "Request Submitted",
      "We've received your custom lead request and will contact you shortly.",
    );
    await expect(form.getByRole("button", { name: "Submit Request" })).toBeEnabled();
    await expect(form.getByLabel("Name")).toHaveValue("");
    await expect(form.getByLabel("Email")).toHaveValue("");
    await expect(form.getByLabel("Message")).toHaveValue("");
    await expect(form.getByRole("switch", { name: "Facebook" })).not.toBeChecked();
    await expect(form.getByRole("switch", { name: "LinkedIn" })).toBeChecked();
    await expect(form.getByRole("combobox", { name: "Industry" })).toHaveText("SaaS");
    await expect(form.getByRole("combobox", { name: "Role" })).toHaveText("CEO / Founder");

    const { rows } = await database().query(
      "SELECT name, industry, role, platform, message, status FROM custom_requests WHERE email = $1",
      [email],
    );
    expect(rows).toEqual([
      {
        name: "Ada Buyer",
        industry: "finance",
        role: "marketing",
        platform: "linkedin, facebook, slack",
        message: "Fintech marketing leads in London.",
        status: "pending",
      },
    ]);
    await expect
      .poll(async () => (await mails()).filter((mail) => mail.to.includes(email)).map((mail) => mail.subject))
      .toEqual(["We've received your custom lead request"]);
    await expect
      .poll(async () => (await mails()).some((mail) => mail.text.includes(`Email: ${email}`)))
      .toBe(true);
  });

  test("tracks dragging over the drop area and type-checks dropped files", async ({ page }) => {
    const form = await openForm(page);
    const area = form.getByTestId("attachments-drop-area");
    await expect(area).toHaveAttribute("data-dragging", "false");
    await drop(area, [PDF], ["dragenter"]);
    await expect(area).toHaveAttribute("data-dragging", "true");
    await drop(area, [PDF], ["dragleave"]);
    await expect(area).toHaveAttribute("data-dragging", "false");

    // Only invalid files: nothing is added.
    await drop(area, [TXT, PNG]);
    await expect(area).toHaveAttribute("data-dragging", "false");
    await expectToast(page, "Invalid file format", "Please upload only PDF, Word, CSV or Excel files.");
    await expect(fileName(form)).toHaveCount(0);

    // Valid files are added.
    await drop(area, [PDF, CSV]);
    await expectToast(page, "Files added", "2 file(s) successfully added.");
    await expect(fileName(form)).toHaveText(["brief.pdf", "contacts.csv"]);

    // A mixed drop adds the valid ones and still says the others were refused.
    await drop(area, [{ ...PDF, name: "second.PDF" }, TXT]);
    await expectToast(page, "Invalid file format", "Please upload only PDF, Word, CSV or Excel files.");
    await expect(fileName(form)).toHaveText(["brief.pdf", "contacts.csv", "second.PDF"]);
  });

  test("adds picked files without type checks, shows name and size, removes one by one", async ({ page }) => {
    const form = await openForm(page);
    const longName = `${"quarterly-target-accounts-".repeat(6)}final.csv`;
    await form.getByTestId("attachments-input").setInputFiles([
      { name: longName, mimeType: "text/csv", buffer: Buffer.alloc(3000, "a") },
      { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.alloc(2048, "b") },
    ]);
    await expectToast(page, "Files added", "2 file(s) successfully added.");
    await expect(fileName(form)).toHaveText([longName, "notes.txt"]);
    await expect(form.getByTestId("attachment-size")).toHaveText(["2.9 KB", "2.0 KB"]);

    const long = fileName(form).first();
    await expect(long).toHaveCSS("max-width", "200px");
    const overflowing = await long.evaluate((element) => element.scrollWidth > element.clientWidth);
    expect(overflowing).toBe(true);
    expect((await long.boundingBox())!.width).toBeLessThanOrEqual(200);

    await form.getByRole("button", { name: `Remove ${longName}` }).click();
    await expect(fileName(form)).toHaveText(["notes.txt"]);
    await form.getByRole("button", { name: "Remove notes.txt" }).click();
    await expect(fileName(form)).toHaveCount(0);
  });

  test("uploads attachments with the request; the server refuses a picked file of the wrong type", async ({
    page,
  }) => {
    const form = await openForm(page);
    const email = `${unique("uploader")}@example.com`;
    await form.getByLabel("Name").fill("Upload Tester");
    await form.getByLabel("Email").fill(email);

    // The picker does not type-check, the server does: the whole request is refused, and the
    // toast says why.
    await form
      .getByTestId("attachments-input")
      .setInputFiles([{ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("plain") }]);
    await form.getByRole("button", { name: "Submit Request" }).click();
    await expectToast(page, "Submission Error", "notes.txt: Only PDF, Word, CSV or Excel files are accepted");
    await expect(page.locator('[data-slot="toast"]').first()).toHaveClass(/destructive/);
    // The server's field error shows beside the attachments.
    await expect(form.getByText("notes.txt: Only PDF, Word, CSV or Excel files are accepted")).toBeVisible();
    // Nothing was reset or stored; the visitor can fix it and send again.
    await expect(form.getByLabel("Email")).toHaveValue(email);
    expect((await database().query("SELECT 1 FROM custom_requests WHERE email = $1", [email])).rowCount).toBe(
      0,
    );

    await form.getByRole("button", { name: "Remove notes.txt" }).click();
    await drop(form.getByTestId("attachments-drop-area"), [PDF]);
    await form
      .getByTestId("attachments-input")
      .setInputFiles([{ name: CSV.name, mimeType: CSV.type, buffer: Buffer.from(CSV.text) }]);
    await expect(fileName(form)).toHaveText(["brief.pdf", "contacts.csv"]);
    await form.getByRole("button", { name: "Submit Request" }).click();
    await expectToast(
      page,
      "Request Submitted",
      "We've received your custom lead request and will contact you shortly.",
    );
    await expect(fileName(form)).toHaveCount(0);

    const { rows } = await database().query(
      `SELECT a.file_name, a.content_type, a.data FROM attachments a
         JOIN custom_requests r ON r.id = a.request_id
        WHERE r.email = $1 ORDER BY a.file_name`,
      [email],
    );
    expect(rows.map((row) => [row.file_name, row.content_type, Buffer.from(row.data).toString()])).toEqual([
      ["brief.pdf", "application/pdf", PDF.text],
      ["contacts.csv", "text/csv", CSV.text],
    ]);
    await expect
      .poll(async () =>
        (await mails()).some(
          (mail) =>
            mail.text.includes(`Email: ${email}`) &&
            mail.text.includes("Attachments (2):") &&
            mail.text.includes("brief.pdf"),
        ),
      )
      .toBe(true);
  });
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
]) {
  test(`at ${viewport.width}x${viewport.height} the form refuses a sixth file and files over 10 MB, and keeps the generic text for failures`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    const form = await openForm(page);
    const input = form.getByTestId("attachments-input");
    const csv = (name: string, bytes = 100) => ({
      name,
      mimeType: "text/csv",
      buffer: Buffer.alloc(bytes, "a"),
    });

    await input.setInputFiles([csv("big.csv", 10 * 1024 * 1024 + 1), csv("small.csv")]);
    await expectToast(page, "File too large", "big.csv: Each file must be 10 MB or smaller.");
    await expect(fileName(form)).toHaveText(["small.csv"]);

    await input.setInputFiles(["2", "3", "4", "5", "6"].map((n) => csv(`list-${n}.csv`)));
    await expectToast(page, "Too many files", "list-6.csv: At most 5 files can be attached.");
    await expect(fileName(form)).toHaveCount(5);
    await drop(form.getByTestId("attachments-drop-area"), [PDF]);
    await expectToast(page, "Too many files", "brief.pdf: At most 5 files can be attached.");
    await expect(fileName(form)).toHaveCount(5);
    const toast = page.locator('[data-slot="toast"]').first();
    await expect(toast).toBeInViewport();
    const box = (await toast.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);

    // Network and server failures keep the product's title and text.
    await form.getByLabel("Name").fill("Failure Tester");
    await form.getByLabel("Email").fill("failure-tester@example.com");
    await page.route("**/api/custom-request", (route) => route.abort("connectionrefused"));
    await form.getByRole("button", { name: "Submit Request" }).click();
    await expectToast(
      page,
      "Submission Error",
      "There was a problem submitting your request. Please try again.",
    );
    await page.unroute("**/api/custom-request");
    await page.route("**/api/custom-request", (route) =>
      route.fulfill({ status: 500, json: { success: false, message: "Internal server error" } }),
    );
    const answered = page.waitForResponse("**/api/custom-request");
    await form.getByRole("button", { name: "Submit Request" }).click();
    expect((await answered).status()).toBe(500);
    await expectToast(
      page,
      "Submission Error",
      "There was a problem submitting your request. Please try again.",
    );
    await expect(fileName(form)).toHaveCount(5);
  });
}

test.describe("custom request API over HTTP", () => {
  test("the production server streams uploads: an 11 MB file is refused with 413", async ({ request }) => {
    const response = await request.post("/api/custom-request", {
      headers: { "x-forwarded-for": "192.0.2.250" },
      multipart: {
        name: "Big Upload",
        email: "big-upload@example.com",
        files: {
          name: "big.pdf",
          mimeType: "application/pdf",
          buffer: Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(11 * 1024 * 1024, 0x20)]),
        },
      },
    });
    expect(response.status()).toBe(413);
    expect(await response.json()).toMatchObject({
      success: false,
      message: "Each file must be 10 MB or smaller",
    });
  });
});
