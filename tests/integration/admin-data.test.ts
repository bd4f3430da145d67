// The admin's data endpoints: stats, sales, categories with lead import, requests, exports, settings.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setPrivacyNotices } from "../support/notices";
import { csvUpload, createOwnDatabase } from "./admin-helpers";
import { call, callJson } from "../support/routes";

const database = await createOwnDatabase();
const { db, pool } = await import("@/lib/db");
const { signAdminToken } = await import("@/lib/auth/session");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");
const { revenueTrend } = await import("@/lib/dashboard/stats");
const { csvCell } = await import("@/lib/csv");
const stats = await import("@/app/api/admin/stats/route");
const sales = await import("@/app/api/admin/sales/route");
const salesExport = await import("@/app/api/admin/sales/export/route");
const categories = await import("@/app/api/admin/categories/route");
const category = await import("@/app/api/admin/categories/[id]/route");
const categoryLeads = await import("@/app/api/admin/categories/[id]/leads/route");
const requests = await import("@/app/api/admin/requests/route");
const requestOne = await import("@/app/api/admin/requests/[id]/route");
const attachment = await import("@/app/api/admin/requests/[id]/attachments/[attachmentId]/route");
const requestsExport = await import("@/app/api/admin/requests/export/route");
const settings = await import("@/app/api/admin/settings/route");

let token: string;
let adminId: string;
let categoryId: string;
const DAY = 24 * 3600 * 1000;
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  const admin = await db().admin.create({
    data: { email: "data-admin@example.com", passwordHash: "x" },
    select: { id: true, passwordChangedAt: true },
  });
  adminId = admin.id;
  token = await signAdminToken(admin);
  categoryId = await createCategoryWithLeads(pool(), { title: "Sold Category", description: "" }, 30, 3);
  const now = Date.now();
  const order = (data: Record<string, unknown>) =>
    db().order.create({
      data: {
        categoryId,
        leadTitle: "Sold Category",
        packageType: "starter",
        leadCount: 1000,
        amount: 10,
        ...data,
      },
    });
  // Paid: 2 in the last 7 days (10 + 100), 1 in the 7 before (100); 2 unpaid.
  await order({
    providerPaymentId: "np-1",
    invoiceId: "inv-1",
    status: "finished",
    paidAt: new Date(now - DAY),
    segment: { region: ["CA", "NY"], seniority: ["c_level", "vp"] },
  });
  await order({
    providerPaymentId: "np-2",
    packageType: "standard",
    leadCount: 10000,
    amount: 100,
    status: "confirmed",
    paidAt: new Date(now - 2 * DAY),
    createdAt: new Date(now - 2 * DAY),
  });
  await order({
    invoiceId: "inv-3",
    packageType: "standard",
    leadCount: 10000,
    amount: 100,
    status: "finished",
    paidAt: new Date(now - 10 * DAY),
    createdAt: new Date(now - 10 * DAY),
  });
  await order({ invoiceId: "inv-4", status: "waiting", createdAt: new Date(now - 3 * DAY) });
  await order({
    invoiceId: "inv-5",
    leadTitle: '=HYPERLINK("http://evil")',
    createdAt: new Date(now - 4 * DAY),
  });
});

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
  await database.drop();
});

describe("stats", () => {
  it("computes revenue, trend, sales, leads and requests", async () => {
    await db().customRequest.createMany({
      data: [
        { name: "A", email: "a@x.com", industry: "saas", role: "ceo", platform: "LinkedIn" },
        {
          name: "B",
          email: "b@x.com",
          industry: "saas",
          role: "ceo",
          platform: "LinkedIn",
          status: "completed",
        },
        {
          name: "C",
          email: "c@x.com",
          industry: "saas",
          role: "ceo",
          platform: "LinkedIn",
          status: "in_progress",
        },
      ],
    });
    const { status, body } = await callJson<Record<string, unknown>>(stats.GET, "/api/admin/stats", {
      token,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      totalRevenue: 210,
      // last 7 days 110 against 100 before
      revenueTrend: 10,
      totalSales: 5,
      confirmedSales: 3,
      pendingSales: 2,
      leadsSold: 21000,
      averagePricePerLead: 0.01,
      totalRequests: 3,
      pendingRequests: 1,
      inProgressRequests: 1,
      completedRequests: 1,
      totalCategories: 1,
      totalLeads: 30,
    });
    const days = body.revenueByDay as { date: string; revenue: number; sales: number }[];
    expect(days).toHaveLength(30);
    expect(days[29].date).toBe(new Date().toISOString().slice(0, 10));
    expect(days.reduce((sum, day) => sum + day.revenue, 0)).toBe(210);
    expect(days.reduce((sum, day) => sum + day.sales, 0)).toBe(3);
    await db().customRequest.deleteMany({});
  });

  it("makes the trend 100% when the previous week had no revenue", () => {
    expect(revenueTrend(50, 0)).toBe(100);
    expect(revenueTrend(0, 0)).toBe(100);
    expect(revenueTrend(50, 100)).toBe(-50);
  });
});

describe("sales", () => {
  it("lists sales newest first with the product's fields and paging", async () => {
    const { status, body, headers } = await callJson<Record<string, unknown>[]>(
      sales.GET,
      "/api/admin/sales",
      {
        token,
      },
    );
    expect(status).toBe(200);
    expect(headers.get("x-total-count")).toBe("5");
    expect(body.map((sale) => sale.paymentId)).toEqual(["np-1", "np-2", "inv-4", "inv-5", "inv-3"]);
    expect(body[0]).toMatchObject({
      leadTitle: "Sold Category",
      segment: "Region: CA, NY · Seniority: C-level, VP",
      packageType: "starter",
      leadCount: 1000,
      amount: 10,
      status: "confirmed",
    });
    expect(body[1].segment).toBe("");
    expect(body[2].status).toBe("waiting");
    expect(body[3].status).toBe("pending");
    const page = await callJson<Record<string, unknown>[]>(sales.GET, "/x?page=2&pageSize=2&order=asc", {
      token,
    });
    expect(page.body.map((sale) => sale.paymentId)).toEqual(["inv-4", "np-2"]);
    for (const query of ["pageSize=501", "page=0", "order=up", "page=abc"]) {
      expect((await call(sales.GET, `/x?${query}`, { token })).status, query).toBe(400);
    }
    // A one-value parameter given twice is refused, not read as one of its values.
    for (const query of ["page=1&page=2", "order=asc&order=desc", "status=pending&status=expired"]) {
      const twice = await callJson(sales.GET, `/x?${query}`, { token });
      expect(twice.status, query).toBe(400);
      expect(Object.keys(twice.body.errors as object), query).toEqual([query.split("=")[0]]);
    }
  });

  it("exports every sale as CSV with formulas neutralised", async () => {
    const response = await call(salesExport.GET, "/api/admin/sales/export", { token });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename=sales-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const text = (await response.text()).replace(/^\uFEFF/, "");
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toBe("Date,Payment ID,Category,Segment,Package,Lead Count,Amount (USD),Status,Paid At");
    expect(lines).toHaveLength(6);
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(text).toMatch(/,np-2,Sold Category,,standard,10000,100\.00,confirmed,/);
    // A segment sale names its segment in its own cell (quoted: it holds commas).
    expect(lines.find((line) => line.includes(",np-1,"))).toMatch(
      /^[^,]+,np-1,Sold Category,"Region: CA, NY · Seniority: C-level, VP",starter,1000,10\.00,confirmed,/,
    );
  });

  it("quotes and neutralises cells", () => {
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"\nbye')).toBe('"say ""hi""\nbye"');
    expect(csvCell(null)).toBe("");
  });
});

describe("categories", () => {
  it("creates, validates, renames and lists categories", async () => {
    const created = await callJson<{ _id: string }>(categories.POST, "/x", {
      token,
      json: { title: "  New Category ", description: "Fresh" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: "New Category", description: "Fresh", count: 0 });
    for (const json of [{}, { title: "" }, { title: "x".repeat(121) }, { title: 5 }]) {
      expect((await call(categories.POST, "/x", { token, json })).status, JSON.stringify(json)).toBe(400);
    }
    const id = created.body._id;
    const renamed = await callJson(category.PATCH, "/x", {
      token,
      method: "PATCH",
      params: { id },
      json: { title: "Renamed" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ _id: id, title: "Renamed", description: "Fresh" });
    const empty = await call(category.PATCH, "/x", { token, method: "PATCH", params: { id }, json: {} });
    expect(empty.status).toBe(400);
    const unknown = await call(category.PATCH, "/x", {
      token,
      method: "PATCH",
      params: { id: UNKNOWN },
      json: { title: "Z" },
    });
    expect(unknown.status).toBe(404);
    const bad = await call(category.PATCH, "/x", {
      token,
      method: "PATCH",
      params: { id: "1" },
      json: { title: "Z" },
    });
    expect(bad.status).toBe(400);

    // Titles are unique, whatever their case; a category keeps its own title on save.
    const duplicate = await callJson(categories.POST, "/x", { token, json: { title: "renamed" } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.message).toBe('A category named "renamed" already exists. Choose another title.');
    const taken = await callJson(category.PATCH, "/x", {
      token,
      method: "PATCH",
      params: { id },
      json: { title: "SOLD CATEGORY" },
    });
    expect(taken.status).toBe(409);
    const same = await call(category.PATCH, "/x", {
      token,
      method: "PATCH",
      params: { id },
      json: { title: "Renamed", description: "Still fresh" },
    });
    expect(same.status).toBe(200);

    const list = await callJson<{ _id: string; count: number }[]>(categories.GET, "/x", { token });
    expect(list.body.map((c) => c._id)).toEqual([categoryId, id]);
    expect(list.body[0].count).toBe(30);
  });

  it("refuses to delete a category with sales and deletes one without", async () => {
    const refused = await callJson(category.DELETE, "/x", {
      token,
      method: "DELETE",
      params: { id: categoryId },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/has 5 sales and cannot be deleted/);

    const spare = await createCategoryWithLeads(pool(), { title: "Spare", description: "" }, 5, 9);
    expect(
      (await call(category.DELETE, "/x", { token, method: "DELETE", params: { id: spare } })).status,
    ).toBe(200);
    expect(await db().lead.count({ where: { categoryId: spare } })).toBe(0);
    expect(
      (await call(category.DELETE, "/x", { token, method: "DELETE", params: { id: spare } })).status,
    ).toBe(404);
  });
});

describe("lead import", () => {
  // UK rows sell from their import here (privacy-notices.test.ts has the notices).
  beforeAll(() => setPrivacyNotices(pool(), false));
  afterAll(() => setPrivacyNotices(pool(), true));
  const importCsv = (id: string, form: FormData | string, headers?: Record<string, string>) =>
    callJson<Record<string, unknown>>(categoryLeads.POST, "/x", {
      token,
      params: { id },
      body: form,
      headers,
    });

  it("imports rows with loosely matched headers and reports duplicates and invalid rows by line", async () => {
    const target = await createCategoryWithLeads(pool(), { title: "Import Target", description: "" }, 0, 1);
    await db().lead.create({
      data: {
        categoryId: target,
        firstName: "Old",
        lastName: "Timer",
        email: "existing@acme.com",
        country: "USA",
        verifiedAt: new Date(),
      },
    });
    await db().category.update({ where: { id: target }, data: { count: 1 } });
    const csv = [
      "First Name,last_name,jobTitle,Company Name,E-mail,Phone Number,City,State,Country,LinkedIn URL,Verified At",
      "Ada,Lovelace,CTO,Engines Ltd,ada@engines.co.uk,+44 20 1234 5678,London,England,United Kingdom,https://linkedin.com/in/ada,2026-01-15",
      "Grace,Hopper,Admiral,Navy,grace@navy.com,,Arlington,VA,US,,",
      "Bad,Email,,,not-an-email,,,,,,",
      ",,,,,,,,,,",
      "No,Mail,,,,,,,,,",
      'Quoted,"Name, Jr",VP,"Comma, Inc",EXISTING@acme.com,,,,USA,,',
      "Ada,Again,,,ADA@engines.co.uk,,,,UK,,",
      "Hans,Zimmer,,,hans@music.de,,Berlin,,Germany,,",
      "Bad,Date,,,date@x.com,,,,USA,,yesterday-ish",
      'John "JJ",Smith,,,jj@x.com,,,,USA,,2025-03-01T10:00:00Z',
      "Nu\u0000ll,Cell,,,nul@x.com,,,,USA,,",
      "Serial,Date,,,serial@x.com,,,,USA,,45123",
      "Future,Date,,,future@x.com,,,,USA,,2999-01-01",
      "No,Year,,,noyear@x.com,,,,USA,,Jan 5",
    ].join("\n");
    const { status, body } = await importCsv(target, csvUpload(csv));
    expect(status).toBe(200);
    expect(body).toEqual({
      imported: 4,
      duplicates: 2,
      suppressed: 0,
      // An API import without a source says so, and stores "Not recorded".
      source: null,
      unknownFacets: expect.any(Object),
      invalidCount: 7,
      reasons: expect.objectContaining({
        syntax: 1,
        missing_email: 1,
        country: 1,
        verified_at: 4,
        null_mx: 0,
      }),
      invalid: [
        { line: 4, reason: 'Invalid email "not-an-email"' },
        { line: 6, reason: "Email is missing" },
        { line: 9, reason: 'Unsupported country "Germany" (USA or UK)' },
        { line: 10, reason: 'Invalid verified date "yesterday-ish"' },
        { line: 13, reason: 'Invalid verified date "45123"' },
        { line: 14, reason: 'Invalid verified date "2999-01-01"' },
        { line: 15, reason: 'Invalid verified date "Jan 5"' },
      ],
    });
    // A quote inside an unquoted cell is text; NUL characters are dropped.
    const jj = await db().lead.findFirstOrThrow({ where: { categoryId: target, email: "jj@x.com" } });
    expect(jj.firstName).toBe('John "JJ"');
    expect(jj.verifiedAt.toISOString()).toBe("2025-03-01T10:00:00.000Z");
    const nul = await db().lead.findFirstOrThrow({ where: { categoryId: target, email: "nul@x.com" } });
    expect(nul.firstName).toBe("Null");
    const ada = await db().lead.findFirstOrThrow({
      where: { categoryId: target, email: "ada@engines.co.uk" },
    });
    expect(ada).toMatchObject({
      firstName: "Ada",
      lastName: "Lovelace",
      jobTitle: "CTO",
      company: "Engines Ltd",
      phone: "+44 20 1234 5678",
      country: "UK",
      profileUrl: "https://linkedin.com/in/ada",
      source: "Not recorded",
    });
    expect(ada.verifiedAt.toISOString()).toBe("2026-01-15T00:00:00.000Z");
    const counted = await db().category.findUniqueOrThrow({ where: { id: target } });
    expect(counted.count).toBe(5);
    expect(await db().lead.count({ where: { categoryId: target } })).toBe(5);
  });

  it("stores the import's source and date on every row, a row's own Source and Collected At overriding them", async () => {
    const target = await createCategoryWithLeads(pool(), { title: "Sources", description: "" }, 0, 1);
    const csv = [
      "Email,Country,Source,Collected At",
      "one@sources.com,USA,,",
      "two@sources.com,UK,Partner: Acme Data Ltd,03/02/2026",
      "three@sources.com,USA,,2026-02-10T08:00:00Z",
      "four@sources.com,USA,,someday",
      `five@sources.com,USA,${"x".repeat(201)},`,
    ].join("\n");
    const form = new FormData();
    form.append("source", "  Company websites ");
    form.append("file", new Blob([csv], { type: "text/csv" }), "leads.csv");
    const before = Date.now();
    const { status, body } = await importCsv(target, form);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      imported: 3,
      source: "Company websites",
      invalid: [
        { line: 5, reason: 'Invalid collected date "someday"' },
        { line: 6, reason: "Source too long (at most 200 characters)" },
      ],
    });
    const leads = await db().lead.findMany({ where: { categoryId: target }, orderBy: { email: "asc" } });
    expect(leads.map((lead) => [lead.email, lead.source])).toEqual([
      ["one@sources.com", "Company websites"],
      ["three@sources.com", "Company websites"],
      ["two@sources.com", "Partner: Acme Data Ltd"],
    ]);
    expect(leads[0].collectedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(leads[1].collectedAt.toISOString()).toBe("2026-02-10T08:00:00.000Z");
    // A UK date is day first.
    expect(leads[2].collectedAt.toISOString()).toBe("2026-02-03T00:00:00.000Z");
    // The category's source mix, kept by its trigger.
    const mix = await db().categorySource.findMany({
      where: { categoryId: target },
      orderBy: { source: "asc" },
    });
    expect(mix.map(({ source, leads: count }) => [source, count])).toEqual([
      ["Company websites", 2],
      ["Partner: Acme Data Ltd", 1],
    ]);
    const { findAnyCategory } = await import("@/lib/categories/public");
    expect((await findAnyCategory(target))?.sourceMix).toEqual([
      { source: "Company websites", leads: 2 },
      { source: "Partner: Acme Data Ltd", leads: 1 },
    ]);

    // A source that is blank or too long is a 400 naming the field, and nothing is imported.
    for (const bad of ["   ", "y".repeat(201)]) {
      const refused = new FormData();
      refused.append("source", bad);
      refused.append("file", new Blob(["email\nsix@sources.com"], { type: "text/csv" }), "leads.csv");
      const answer = await importCsv(target, refused);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ errors: { source: expect.any(String) } });
    }
    expect(await db().lead.count({ where: { categoryId: target } })).toBe(3);
  });

  it("imports thousands of rows in batches with exact counts, and full names split", async () => {
    const target = await createCategoryWithLeads(pool(), { title: "Bulk", description: "" }, 0, 1);
    const rows = ["full_name,email,country"];
    for (let i = 0; i < 12_000; i++) rows.push(`Person Number${i},p${i % 11_000}@bulk.com,USA`);
    const { status, body } = await importCsv(target, csvUpload(rows.join("\r\n")));
    expect(status).toBe(200);
    expect(body).toMatchObject({ imported: 11_000, duplicates: 1000, invalidCount: 0 });
    expect((await db().category.findUniqueOrThrow({ where: { id: target } })).count).toBe(11_000);
    const one = await db().lead.findFirstOrThrow({ where: { categoryId: target, email: "p5@bulk.com" } });
    expect(one).toMatchObject({ firstName: "Person", lastName: "Number5" });
  });

  it("numbers lines across multi-line cells, keeps the first of duplicates across batches, and stores text exactly", async () => {
    const target = await createCategoryWithLeads(pool(), { title: "Lines", description: "" }, 0, 1);
    const rows = ["email,first name,company", 'a@x.com,"Multi\nLine","Back\\slash\tand tab"', "bad,Name,"];
    for (let i = 0; i < 6000; i++) rows.push(`p${i % 5500}@x.com,P${i},`);
    rows.push("A@X.COM,Second,", "late-bad,X,");
    const { status, body } = await importCsv(target, csvUpload(rows.join("\r\n")));
    expect(status).toBe(200);
    expect(body).toEqual({
      imported: 5501,
      duplicates: 501,
      suppressed: 0,
      source: null,
      unknownFacets: expect.any(Object),
      invalidCount: 2,
      reasons: expect.objectContaining({ syntax: 2 }),
      invalid: [
        { line: 4, reason: 'Invalid email "bad"' },
        { line: 6006, reason: 'Invalid email "late-bad"' },
      ],
    });
    const first = await db().lead.findFirstOrThrow({ where: { categoryId: target, email: "a@x.com" } });
    expect(first).toMatchObject({ firstName: "Multi\nLine", company: "Back\\slash\tand tab" });
    const kept = await db().lead.findFirstOrThrow({ where: { categoryId: target, email: "p0@x.com" } });
    expect(kept.firstName).toBe("P0");
    expect((await db().category.findUniqueOrThrow({ where: { id: target } })).count).toBe(5501);
  });

  it("skips emails already in the category when the file repeats none", async () => {
    const target = await createCategoryWithLeads(pool(), { title: "Again", description: "" }, 0, 1);
    const first = await importCsv(target, csvUpload("email,first name\na@x.com,A\nb@x.com,B\n"));
    expect(first.body).toMatchObject({ imported: 2, duplicates: 0 });
    const second = await importCsv(target, csvUpload("email,first name\nB@x.com,Bee\nc@x.com,C\n"));
    expect(second.body).toMatchObject({ imported: 1, duplicates: 1, invalidCount: 0 });
    const b = await db().lead.findFirstOrThrow({ where: { categoryId: target, email: "b@x.com" } });
    expect(b.firstName).toBe("B");
    expect((await db().category.findUniqueOrThrow({ where: { id: target } })).count).toBe(3);
  });

  it("refuses files without an email column, empty files, missing files and unknown categories", async () => {
    const noEmail = await importCsv(categoryId, csvUpload("name,phone\nA,1\n"));
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.message).toBe("The file has no email column");
    const empty = await importCsv(categoryId, csvUpload(""));
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("The file is empty");
    const otherField = await importCsv(categoryId, csvUpload("email\na@b.com\n", "upload"));
    expect(otherField.status).toBe(400);
    expect(otherField.body.message).toBe("No file was uploaded");
    const notMultipart = await importCsv(categoryId, "email\na@b.com", { "content-type": "text/csv" });
    expect(notMultipart.status).toBe(400);
    const unknown = await importCsv(UNKNOWN, csvUpload("email\na@b.com\n"));
    expect(unknown.status).toBe(404);
    expect((await db().category.findUniqueOrThrow({ where: { id: categoryId } })).count).toBe(30);
  });

  it("keeps the rows before a malformed spot and reports where it stopped", async () => {
    const target = await createCategoryWithLeads(pool(), { title: "Malformed", description: "" }, 0, 1);
    const csv = 'email,first name\nok@x.com,Ok\nbad@x.com,"unterminated\n';
    const { status, body } = await importCsv(target, csvUpload(csv));
    expect(status).toBe(200);
    expect(body.imported).toBe(1);
    expect(body.invalidCount).toBe(1);
    expect((body.invalid as { reason: string }[])[0].reason).toMatch(/^Malformed CSV, import stopped here/);
    expect(body.reasons).toMatchObject({ malformed_csv: 1 });
    expect((await db().category.findUniqueOrThrow({ where: { id: target } })).count).toBe(1);
  });
});

describe("custom requests", () => {
  let requestId: string;
  let attachmentId: string;

  beforeAll(async () => {
    const created = await db().customRequest.create({
      data: {
        name: '<img src=x onerror="alert(1)">',
        email: "buyer@example.com",
        industry: "saas",
        role: "ceo",
        platform: "LinkedIn, Slack",
        message: "=cmd|' /C calc'!A0",
        attachments: {
          create: {
            fileName: '../../etc/"passwd" résumé.pdf',
            contentType: "text/html",
            size: 5,
            data: Buffer.from("hello"),
          },
        },
      },
      include: { attachments: true },
    });
    requestId = created.id;
    attachmentId = created.attachments[0].id;
  });

  it("lists requests with their attachments", async () => {
    const { status, body, headers } = await callJson<Record<string, unknown>[]>(requests.GET, "/x", {
      token,
    });
    expect(status).toBe(200);
    expect(headers.get("x-total-count")).toBe("1");
    expect(body[0]).toMatchObject({
      _id: requestId,
      name: '<img src=x onerror="alert(1)">',
      email: "buyer@example.com",
      platform: "LinkedIn, Slack",
      status: "pending",
      attachments: [{ _id: attachmentId, fileName: '../../etc/"passwd" résumé.pdf', size: 5 }],
    });
  });

  it("sets in_progress and completed, and nothing else", async () => {
    const patch = (id: string, json: unknown) =>
      callJson<Record<string, unknown>>(requestOne.PATCH, "/x", {
        token,
        method: "PATCH",
        params: { id },
        json,
      });
    expect((await patch(requestId, { status: "in_progress" })).body.status).toBe("in_progress");
    expect((await patch(requestId, { status: "completed" })).body.status).toBe("completed");
    expect((await patch(requestId, { status: "in_progress" })).body.status).toBe("in_progress");
    for (const json of [{ status: "pending" }, { status: "done" }, {}]) {
      expect((await patch(requestId, json)).status, JSON.stringify(json)).toBe(400);
    }
    expect((await patch(UNKNOWN, { status: "completed" })).status).toBe(404);
  });

  it("serves attachments as downloads with a safe name", async () => {
    const response = await call(attachment.GET, "/x", { token, params: { id: requestId, attachmentId } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const disposition = response.headers.get("content-disposition")!;
    expect(disposition).toMatch(/^attachment; filename="_passwd_ resume\.pdf"; filename\*=UTF-8''/);
    expect(disposition).not.toMatch(/\.\.\//);
    expect(await response.text()).toBe("hello");
    const wrongRequest = await call(attachment.GET, "/x", { token, params: { id: UNKNOWN, attachmentId } });
    expect(wrongRequest.status).toBe(404);
    const malformed = await call(attachment.GET, "/x", {
      token,
      params: { id: requestId, attachmentId: "x" },
    });
    expect(malformed.status).toBe(400);
  });

  it("exports requests as CSV with formulas neutralised", async () => {
    const response = await call(requestsExport.GET, "/x", { token });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename=custom-requests-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const text = await response.text();
    expect(text).toContain("Date,Name,Email,Industry,Role,Platform,Message,Status,Attachments");
    expect(text).toContain(`'=cmd|' /C calc'!A0`);
    expect(text).toContain('"LinkedIn, Slack"');
  });
});

describe("settings", () => {
  it("answers defaults, stores the API key sealed and only shows it masked", async () => {
    const initial = await callJson(settings.GET, "/x", { token });
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({
      email: "data-admin@example.com",
      notificationEmail: "",
      nowPaymentsApiKey: "",
      nowPaymentsApiKeySource: "none",
      emailVerifierApiKey: "",
      emailVerifierApiKeySource: "none",
      autoRefreshDashboard: true,
      enableNotifications: true,
      sellerLegalName: "",
      sellerAddress: "",
      sellerIcoNumber: "",
      sellerPrivacyEmail: "",
      sellerVatNumber: "",
      vatRatePercent: 0,
      privacyNotices: true,
    });
    const key = "NP-SECRET-KEY-1234-ABCD";
    const updated = await callJson(settings.PATCH, "/x", {
      token,
      method: "PATCH",
      json: { nowPaymentsApiKey: key, autoRefreshDashboard: false, notificationEmail: "Alerts@Example.com" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      nowPaymentsApiKey: "••••••••ABCD",
      nowPaymentsApiKeySource: "settings",
      autoRefreshDashboard: false,
      enableNotifications: true,
      notificationEmail: "alerts@example.com",
    });
    expect(JSON.stringify(updated.body)).not.toContain("SECRET");
    const row = await db().settings.findUniqueOrThrow({ where: { id: 1 } });
    expect(row.nowPaymentsApiKeyEnc).toMatch(/^v1\./);
    expect(row.nowPaymentsApiKeyEnc).not.toContain("SECRET");
    const { getNowPaymentsApiKey } = await import("@/lib/settings");
    expect(await getNowPaymentsApiKey()).toBe(key);

    const cleared = await callJson(settings.PATCH, "/x", {
      token,
      method: "PATCH",
      json: { notificationEmail: "" },
    });
    expect(cleared.body).toMatchObject({ notificationEmail: "" });
  });

  it("keeps the seller identity, normalised, and the dashboard names what UK sales still need", async () => {
    const missing = async () =>
      (await callJson<{ ukCompliance: { sellerMissing: string[] } }>(stats.GET, "/x", { token })).body
        .ukCompliance.sellerMissing;
    expect(await missing()).toEqual([
      "Legal name",
      "Postal address",
      "ICO registration number",
      "Privacy contact email",
    ]);
    const saved = await callJson(settings.PATCH, "/x", {
      token,
      method: "PATCH",
      json: {
        sellerLegalName: "  LeadMarket Ltd ",
        sellerAddress: "1 High Street\nLondon EC1A 1AA",
        sellerIcoNumber: "za 123456",
        sellerPrivacyEmail: "Privacy@LeadMarket.example",
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      sellerLegalName: "LeadMarket Ltd",
      sellerAddress: "1 High Street\nLondon EC1A 1AA",
      sellerIcoNumber: "ZA123456",
      sellerPrivacyEmail: "privacy@leadmarket.example",
      sellerVatNumber: "",
    });
    expect(await missing()).toEqual([]);
    const vat = await callJson(settings.PATCH, "/x", {
      token,
      method: "PATCH",
      json: { sellerVatNumber: "123 4567 89" },
    });
    expect(vat.body).toMatchObject({ sellerVatNumber: "GB123456789" });
    const rate = await callJson(settings.PATCH, "/x", {
      token,
      method: "PATCH",
      json: { vatRatePercent: 17.5 },
    });
    expect(rate.body).toMatchObject({ vatRatePercent: 17.5 });

    for (const json of [
      { sellerIcoNumber: "12345" },
      { sellerIcoNumber: "ZA12345X" },
      { sellerVatNumber: "GB12345" },
      { sellerVatNumber: "FR12345678901" },
      { sellerPrivacyEmail: "not-an-email" },
      { sellerLegalName: "x".repeat(201) },
      { sellerAddress: "a\u0000b" },
      { sellerLegalName: 5 },
      { vatRatePercent: 100.01 },
      { vatRatePercent: -1 },
      { vatRatePercent: 7.125 },
      { vatRatePercent: "20" },
    ]) {
      const refused = await callJson<{ errors: Record<string, string> }>(settings.PATCH, "/x", {
        token,
        method: "PATCH",
        json,
      });
      expect(refused.status, JSON.stringify(json)).toBe(400);
      expect(Object.keys(refused.body.errors), JSON.stringify(json)).toEqual(Object.keys(json));
    }
    // Nothing refused was stored; clearing a field brings its warning back.
    const cleared = await callJson(settings.PATCH, "/x", {
      token,
      method: "PATCH",
      json: { sellerIcoNumber: "" },
    });
    expect(cleared.body).toMatchObject({ sellerIcoNumber: "", sellerLegalName: "LeadMarket Ltd" });
    expect(await missing()).toEqual(["ICO registration number"]);
  });

  it("changes the login email and refuses bad input", async () => {
    const changed = await callJson(settings.PATCH, "/x", {
      token,
      method: "PATCH",
      json: { email: "New-Admin@example.com" },
    });
    expect(changed.body).toMatchObject({ email: "new-admin@example.com" });
    expect((await db().admin.findUniqueOrThrow({ where: { id: adminId } })).email).toBe(
      "new-admin@example.com",
    );
    await db().admin.create({ data: { email: "other@example.com", passwordHash: "x" } });
    const taken = await call(settings.PATCH, "/x", {
      token,
      method: "PATCH",
      json: { email: "other@example.com" },
    });
    expect(taken.status).toBe(409);
    for (const json of [
      { email: "nope" },
      { notificationEmail: "nope" },
      { nowPaymentsApiKey: "   " },
      { autoRefreshDashboard: "yes" },
      { somethingElse: 1 },
    ]) {
      expect(
        (await call(settings.PATCH, "/x", { token, method: "PATCH", json })).status,
        JSON.stringify(json),
      ).toBe(400);
    }
  });
});
