// The download's formats on one paid premium order whose leads are rewritten to fixed values (so
// the file's bytes do not depend on which leads allocation picked): CSV and Excel byte for byte as
// before the CRM and JSON formats were added (their SHA-256, taken from the code before that
// change, and retaken on purpose when the UK phone columns and then Source and Collected At were
// added), and every format read back by a real reader with the same rows in the same order.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../support/database";
import { fromAddress } from "../support/client";
import { call, callJson } from "../support/routes";

// The downloads' bookings of main-thread time, watched (the real function answers).
vi.mock("@/lib/limits/main-thread-share", async (original) => {
  const real = await original<typeof import("@/lib/limits/main-thread-share")>();
  return { ...real, bookMainThread: vi.fn(real.bookMainThread) };
});
const { bookMainThread } = await import("@/lib/limits/main-thread-share");

// The workbook's ZIP entries carry the local time they were written at.
process.env.TZ = "UTC";
const database = await createTestDatabase("leadmarket_formats");
Object.assign(process.env, {
  DATABASE_URL: database.url,
  PAYMENTS_TEST_MODE: "1",
  DOWNLOAD_IDLE_SECONDS: "2",
});
delete process.env.NOWPAYMENTS_API_KEY;

const { POST: create } = await import("@/app/api/payment/create/route");
const { GET: status } = await import("@/app/api/payment/status/[id]/route");
const { POST: testPay } = await import("@/app/api/payment/test/[id]/route");
const { GET: download } = await import("@/app/api/leads/download/[key]/route");
const { copyPool, db, pool } = await import("@/lib/db");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");
const { NASTY_CELLS } = await import("../support/nasty-cells");

let key: string;

/** Buys a premium order of `categoryId` through the test provider; its download key. */
async function buyPremium(categoryId: string): Promise<string> {
  const created = await callJson<{ paymentId: string; invoiceUrl: string }>(create, "/api/payment/create", {
    json: { categoryId, packageType: "premium" },
    headers: fromAddress("10.9.0.1"),
  });
  expect(created.status).toBe(200);
  const invoiceId = new URL(created.body.invoiceUrl).pathname.split("/").at(-1)!;
  const paid = await call(testPay, `/api/payment/test/${invoiceId}`, {
    params: { id: invoiceId },
    body: new URLSearchParams({ action: "pay" }),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  const npId = new URL(paid.headers.get("location")!).searchParams.get("NP_id")!;
  const paymentId = created.body.paymentId;
  const answer = await callJson(status, `/api/payment/status/${paymentId}?NP_id=${npId}`, {
    params: { id: paymentId },
  });
  expect(answer.body).toMatchObject({ paid: true });
  return paymentId;
}

beforeAll(async () => {
  const category = await createCategoryWithLeads(pool(), { title: "Formats" }, 20_000, 41);
  key = await buyPremium(category);
  // Every delivered lead gets values fixed by its position: the first ones the awkward cells
  // (quotes, separators, formula signs, line breaks, non-ASCII), one per column and lead, and the
  // email statuses in turn.
  await pool().query(
    `WITH nasty AS (SELECT value, ordinality - 1 AS at FROM unnest($2::text[]) WITH ORDINALITY AS n(value)),
          delivered AS (
            SELECT ol.lead_id, ol.position AS p FROM order_leads ol JOIN orders o ON o.id = ol.order_id
            WHERE o.download_key = $1)
     UPDATE leads l SET
       first_name = coalesce((SELECT value FROM nasty WHERE at = d.p % $3 AND d.p < 200), 'First ' || d.p),
       last_name = coalesce((SELECT value FROM nasty WHERE at = (d.p + 1) % $3 AND d.p < 200), 'Last-' || d.p),
       job_title = coalesce((SELECT value FROM nasty WHERE at = (d.p + 2) % $3 AND d.p < 200), 'Head of Ops'),
       company = coalesce((SELECT value FROM nasty WHERE at = (d.p + 3) % $3 AND d.p < 200), 'Acme ' || (d.p % 97)),
       email = 'lead' || d.p || '@golden.test',
       email_status = (ARRAY['valid', 'accept_all', 'unknown', 'invalid'])[d.p % 4 + 1]::"EmailStatus",
       phone = coalesce((SELECT value FROM nasty WHERE at = (d.p + 4) % $3 AND d.p < 200), '+1 (212) 555-' || lpad((d.p % 10000)::text, 4, '0')),
       city = coalesce((SELECT value FROM nasty WHERE at = (d.p + 5) % $3 AND d.p < 200), 'Zürich'),
       state = CASE WHEN d.p % 5 = 0 THEN '' ELSE 'NY' END,
       profile_url = 'https://www.linkedin.com/in/lead-' || d.p,
       industry = coalesce((SELECT value FROM nasty WHERE at = (d.p + 6) % $3 AND d.p < 200), 'Software'),
       company_size = '51-200',
       seniority = 'Director',
       department = 'Sales',
       company_website = CASE WHEN d.p % 3 = 0 THEN '' ELSE 'https://acme.example' END,
       company_revenue = '10M-50M',
       verified_at = timestamptz '2026-01-01 00:00:00+00' + d.p * interval '1 minute',
       source = coalesce((SELECT value FROM nasty WHERE at = (d.p + 7) % $3 AND d.p < 200), 'Company websites'),
       collected_at = timestamptz '2025-12-01 00:00:00+00' + d.p * interval '1 minute'
     FROM delivered d WHERE l.id = d.lead_id`,
    [key, NASTY_CELLS, NASTY_CELLS.length],
  );
});

afterAll(async () => {
  vi.useRealTimers();
  await db().$disconnect();
  await pool().end();
  await copyPool().end();
  await database.drop();
});

async function fetchFile(format?: string) {
  const query = format ? `?format=${format}` : "";
  const response = await call(download, `/api/leads/download/${key}${query}`, { params: { key } });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("csv and xlsx", () => {
  it("are byte for byte what they were before the other formats", async () => {
    const csv = await fetchFile();
    expect(csv.response.status).toBe(200);
    expect(csv.bytes.length).toBeGreaterThan(1_000_000);
    expect(sha256(csv.bytes)).toBe("fed28b698bec0e34934e8450f7b0f6bb3fca02d2b5c76fae78d9d9d1071358a9");
    expect(sha256((await fetchFile("csv")).bytes)).toBe(
      "fed28b698bec0e34934e8450f7b0f6bb3fca02d2b5c76fae78d9d9d1071358a9",
    );
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-04T05:06:08Z"));
    try {
      const xlsx = await fetchFile("xlsx");
      expect(xlsx.response.status).toBe(200);
      expect(sha256(xlsx.bytes)).toBe("36df77ffb396db964db9f64a44d7914951ce04a947e2436b0a34ae7843bddcbd");
    } finally {
      vi.useRealTimers();
    }
  });
});

const { columnSql } = await import("@/lib/leads/delivery");
const { PACKAGE_COLUMNS } = await import("@/lib/packages");
const { LEAD_FIELDS } = await import("@/lib/leads/fields");
const { csvCell } = await import("@/lib/csv");
const { parse } = await import("csv-parse/sync");
const ExcelJS = (await import("exceljs")).default;

const COLUMNS = PACKAGE_COLUMNS.premium;
const EMAIL = COLUMNS.findIndex((column) => column.key === "email");
const STATUS = COLUMNS.findIndex((column) => column.key === "email_status");

/** The delivered rows as PostgreSQL holds them, in allocation order. */
async function storedRows(): Promise<string[][]> {
  const { rows } = await pool().query<string[]>({
    text: `SELECT ${COLUMNS.map((column) => columnSql(column.key)).join(", ")}
           FROM order_leads ol JOIN orders o ON o.id = ol.order_id JOIN leads l ON l.id = ol.lead_id
           LEFT JOIN lead_phone_screens ps ON ps.lead_id = l.id
           WHERE o.download_key = $1 ORDER BY ol.position`,
    values: [key],
    rowMode: "array",
  });
  return rows;
}

/** A cell as a CSV reader gets it back: spreadsheet formulas guarded with an apostrophe. */
function csvRead(value: string): string {
  const cell = csvCell(value, { keepPhoneNumbers: true });
  return cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
}

describe("every format", () => {
  it("holds the same rows in the same order with the same Email Status, read back by real readers", async () => {
    const stored = await storedRows();
    expect(stored).toHaveLength(20_000);
    // One after another: at most 2 downloads of an order are in flight at once.
    const files: Record<string, { response: Response; bytes: Buffer }> = {};
    for (const format of ["csv", "xlsx", "hubspot", "salesforce", "json", "ndjson"]) {
      files[format] = await fetchFile(format);
      expect(files[format].response.status).toBe(200);
    }

    // CSV and the CRMs' CSVs: the same cells under their own headers; only ours has a byte-order mark.
    const csv = parse(files.csv.bytes, { bom: true }) as string[][];
    expect(files.csv.bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(csv[0]).toEqual(COLUMNS.map((column) => column.header));
    expect(csv.slice(1)).toEqual(stored.map((row) => row.map(csvRead)));
    const hubspot = parse(files.hubspot.bytes) as string[][];
    const salesforce = parse(files.salesforce.bytes) as string[][];
    expect(files.hubspot.bytes[0]).toBe("F".charCodeAt(0));
    expect(files.salesforce.bytes[0]).toBe("F".charCodeAt(0));
    expect(hubspot.slice(1)).toEqual(csv.slice(1));
    expect(salesforce.slice(1)).toEqual(csv.slice(1));

    // JSON and NDJSON: the stored text exactly, under the columns' names in code.
    // The screening's and the provenance's columns are no lead field: they are named as fields are.
    const screening: Record<string, string> = {
      phone_status: "phoneStatus",
      phone_screened_at: "phoneScreenedAt",
      source: "source",
      collected_at: "collectedAt",
    };
    const keys = COLUMNS.map(
      (column) => LEAD_FIELDS.find((field) => field.column === column.key)?.field ?? screening[column.key],
    );
    const expected = stored.map((row) => Object.fromEntries(keys.map((name, index) => [name, row[index]])));
    const json = JSON.parse(files.json.bytes.toString("utf8")) as Record<string, string>[];
    expect(json).toEqual(expected);
    expect(json.map((row) => Object.keys(row))).toEqual(expected.map(() => keys));
    const lines = files.ndjson.bytes.toString("utf8").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((line) => JSON.parse(line))).toEqual(expected);

    // Excel: the same rows (cells the sheet cannot hold aside: the awkward values are in the first 200).
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(files.xlsx.bytes as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet("Leads")!;
    expect(sheet.rowCount).toBe(20_001);
    const sheetRows: string[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row) =>
      sheetRows.push(COLUMNS.map((_, index) => String(row.getCell(index + 1).value ?? ""))),
    );
    expect(sheetRows[0]).toEqual(csv[0]);
    expect(sheetRows.slice(201)).toEqual(stored.slice(200));

    // Every format: the same leads in the same order, with the same Email Status.
    const emails = stored.map((row) => row[EMAIL]);
    const statuses = stored.map((row) => row[STATUS]);
    expect(new Set(statuses)).toEqual(new Set(["valid", "accept-all", "unknown", "invalid"]));
    for (const rows of [csv.slice(1), hubspot.slice(1), salesforce.slice(1), sheetRows.slice(1)]) {
      expect(rows.map((row) => row[EMAIL])).toEqual(emails);
      expect(rows.map((row) => row[STATUS])).toEqual(statuses);
    }
    expect(json.map((row) => [row.email, row.emailStatus])).toEqual(
      emails.map((email, i) => [email, statuses[i]]),
    );
  });

  it("names the CRMs' default import fields, and keeps ours as custom columns", async () => {
    const hubspot = parse((await fetchFile("hubspot")).bytes, { to_line: 1 }) as string[][];
    expect(hubspot[0]).toEqual([
      "First Name",
      "Last Name",
      "Job Title",
      "Company Name",
      "Email",
      "Email Status",
      "Phone Number",
      "Phone Status",
      "Phone Screened At",
      "City",
      "State/Region",
      "Country/Region",
      "Profile URL",
      "Industry",
      "Company Size",
      "Seniority",
      "Department",
      "Website URL",
      "Company Revenue",
      "Verified At",
      "Source",
      "Collected At",
    ]);
    const salesforce = parse((await fetchFile("salesforce")).bytes, { to_line: 1 }) as string[][];
    expect(salesforce[0]).toEqual([
      "First Name",
      "Last Name",
      "Title",
      "Company",
      "Email",
      "Email Status",
      "Phone",
      "Phone Status",
      "Phone Screened At",
      "City",
      "State/Province",
      "Country",
      "Profile URL",
      "Industry",
      "Company Size",
      "Seniority",
      "Department",
      "Website",
      "Company Revenue",
      "Verified At",
      "Source",
      "Collected At",
    ]);
  });

  it("gives each format its type and file name", async () => {
    const expected: Record<string, [string, string]> = {
      csv: ["text/csv; charset=utf-8", `leads-${key}.csv`],
      xlsx: ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", `leads-${key}.xlsx`],
      hubspot: ["text/csv; charset=utf-8", `leads-${key}-hubspot.csv`],
      salesforce: ["text/csv; charset=utf-8", `leads-${key}-salesforce.csv`],
      json: ["application/json", `leads-${key}.json`],
      ndjson: ["application/x-ndjson", `leads-${key}.ndjson`],
    };
    for (const [format, [type, name]] of Object.entries(expected)) {
      const { response } = await fetchFile(format);
      expect(response.headers.get("content-type")).toBe(type);
      expect(response.headers.get("content-disposition")).toBe(`attachment; filename=${name}`);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
    }
  });

  it("answers an unknown format with a 400 naming the allowed ones", async () => {
    for (const format of ["pdf", "CSV", "", "json,csv"]) {
      const response = await call(
        download,
        `/api/leads/download/${key}?format=${encodeURIComponent(format)}`,
        {
          params: { key },
        },
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        success: false,
        message: "Invalid input",
        errors: { format: "Format must be one of csv, xlsx, hubspot, salesforce, json, ndjson" },
      });
    }
    expect(copyPool().totalCount - copyPool().idleCount).toBe(0);
  });

  it("keeps the download guards for JSON and NDJSON: in-flight caps, idle readers dropped, connections back", async () => {
    const open = (format: string) =>
      call(download, `/api/leads/download/${key}?format=${format}`, {
        params: { key },
        headers: fromAddress("10.9.1.1"),
      });
    const stalled = [await open("json"), await open("ndjson")];
    expect(stalled.map((response) => response.status)).toEqual([200, 200]);
    const third = await open("hubspot");
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    // Each stalled reader is dropped 2 s after its output began to wait (later on a loaded machine):
    // its COPY's connection comes back then.
    for (const deadline = Date.now() + 20_000; copyPool().totalCount - copyPool().idleCount > 0;) {
      if (Date.now() > deadline) throw new Error("The idle readers still hold their connections");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const response of stalled)
      await expect(response.arrayBuffer()).rejects.toThrow(/took nothing for 2 s/);
    // Abandoned after the first piece: the connection comes back each time.
    for (let i = 0; i < 12; i++) {
      const response = await open(i % 2 ? "json" : "ndjson");
      const reader = response.body!.getReader();
      await reader.read();
      await reader.cancel();
    }
    const whole = await open("json");
    expect(JSON.parse(Buffer.from(await whole.arrayBuffer()).toString("utf8"))).toHaveLength(20_000);
    expect(copyPool().totalCount - copyPool().idleCount).toBe(0);
  });
});

describe("beside other requests", () => {
  it("gives way: while another request is in progress, a download's booked work takes at most its share of its time", async () => {
    const server = globalThis as { __leadmarketRequestsInProgress?: { count: number } };
    const { BURST_MS, SHARE } = await import("@/lib/limits/main-thread-share");
    const booked = vi.mocked(bookMainThread);
    /** One XLSX download: its time, the work it booked and the waits it was answered. */
    const measured = async () => {
      booked.mockClear();
      const started = performance.now();
      const file = await fetchFile("xlsx");
      expect(file.response.status).toBe(200);
      const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
      return {
        ms: performance.now() - started,
        booked: sum(booked.mock.calls.map(([ms]) => ms)),
        waits: sum(booked.mock.results.map((result) => result.value as number)),
      };
    };
    const alone = await measured();
    expect(alone.booked).toBeGreaterThan(0);
    expect(alone.waits).toBe(0);
    // As the custom server (scripts/server.mjs) counts them: this download and one other request.
    server.__leadmarketRequestsInProgress = { count: 2 };
    let beside: { ms: number; booked: number; waits: number };
    try {
      beside = await measured();
    } finally {
      delete server.__leadmarketRequestsInProgress;
    }
    // The waits held it back (one after another: it took at least their sum), and its booked work
    // took at most SHARE of its time, beyond the first BURST_MS.
    expect(beside!.waits).toBeGreaterThan(0);
    expect(beside!.ms).toBeGreaterThanOrEqual(beside!.waits);
    expect(beside!.booked).toBeLessThanOrEqual(SHARE * beside!.ms + BURST_MS);
  });
});
