// The TPS and CTPS registers and the screening of UK phones (docs/product-rules.md, "UK compliance"):
// loads by COPY through the admin's upload route, junk lines counted, zips read, a failed upload
// leaving the previous register in force, and the statuses every UK and USA lead gets.
import { PassThrough, Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setPrivacyNotices } from "../support/notices";
import { createOwnDatabase } from "./admin-helpers";
import { call, callJson } from "../support/routes";

const database = await createOwnDatabase();
const { closeDatabase, pool } = await import("@/lib/db");
const { signAdminToken } = await import("@/lib/auth/session");
const { db } = await import("@/lib/db");
const { importLeadsCsv } = await import("@/lib/leads/import");
const { normalisePendingPhones } = await import("@/lib/leads/screening");
const { loadRegister } = await import("@/lib/leads/registers");
const { findAnyCategory } = await import("@/lib/categories/public");
const { ZipWriter } = await import("@/lib/leads/zip-stream");
const registers = await import("@/app/api/admin/phone-registers/route");
const statsRoute = await import("@/app/api/admin/stats/route");

let token: string;
let categoryId: string;

afterAll(async () => {
  await closeDatabase();
  await database.drop();
});

beforeAll(async () => {
  // UK rows sell from their import here (privacy-notices.test.ts has the notices).
  await setPrivacyNotices(pool(), false);
  const admin = await db().admin.create({
    data: { email: "registers-admin@example.com", passwordHash: "x" },
    select: { id: true, passwordChangedAt: true },
  });
  token = await signAdminToken(admin);
  categoryId = (await db().category.create({ data: { title: "UK Directors" }, select: { id: true } })).id;
});

const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1000).toISOString().slice(0, 10);

function registerForm(
  fields: Record<string, string>,
  file: Blob | string,
  fileName = "register.txt",
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("file", typeof file === "string" ? new Blob([file], { type: "text/plain" }) : file, fileName);
  return form;
}

const upload = (fields: Record<string, string>, file: Blob | string, fileName?: string) =>
  callJson<Record<string, unknown>>(registers.POST, "/api/admin/phone-registers", {
    token,
    body: registerForm(fields, file, fileName),
  });

async function numbers(register: "tps" | "ctps"): Promise<string[]> {
  const { rows } = await pool().query<{ e164: string }>(`SELECT e164 FROM ${register}_numbers ORDER BY e164`);
  return rows.map((row) => row.e164);
}

async function zipOf(name: string, text: string): Promise<Blob> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (chunk: Buffer) => chunks.push(chunk));
  const zip = new ZipWriter(out);
  await zip.addDeflated(name, Readable.from([text]));
  const ended = new Promise((resolve) => out.on("end", resolve));
  zip.finish();
  await ended;
  return new Blob([Buffer.concat(chunks)], { type: "application/zip" });
}

type Phone = {
  phone: string;
  phone_e164: string | null;
  phone_status: string;
  phone_screened_at: string | null;
};
async function phones(): Promise<Record<string, Phone>> {
  const { rows } = await pool().query<Phone & { email: string }>(
    `SELECT email, phone, phone_e164, coalesce(p.status, l.phone_status)::text AS phone_status,
            to_char(p.screened_at, 'YYYY-MM-DD') AS phone_screened_at
       FROM leads l LEFT JOIN lead_phone_screens p ON p.lead_id = l.id WHERE category_id = $1`,
    [categoryId],
  );
  return Object.fromEntries(rows.map(({ email, ...rest }) => [email, rest]));
}

describe("phone registers", () => {
  it("loads every common UK spelling, counts and lists junk lines, and keeps the file date", async () => {
    const file = [
      "Number",
      "020 7946 0018",
      "+442079460019",
      "442079460020",
      '"02079460021",extra',
      "",
      "not a number",
      "12345",
      "+1 212 555 0100",
      "020 7946 0018",
    ].join("\r\n");
    const { status, body } = await upload({ register: "tps", fileDate: daysAgo(2) }, file, "tps.csv");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      register: "tps",
      fileDate: daysAgo(2),
      fileName: "tps.csv",
      lines: 9,
      loaded: 5,
      rejected: 3,
      rejectedLines: [
        { line: 7, text: "not a number" },
        { line: 8, text: "12345" },
        { line: 9, text: "+1 212 555 0100" },
      ],
      // The CTPS is not loaded yet: nothing is screened.
      screening: null,
    });
    expect(await numbers("tps")).toEqual([
      "+442079460018",
      "+442079460018",
      "+442079460019",
      "+442079460020",
      "+442079460021",
    ]);
    const listed = await callJson<unknown[]>(registers.GET, "/api/admin/phone-registers", { token });
    expect(listed.body).toEqual([
      expect.objectContaining({
        register: "tps",
        fileDate: daysAgo(2),
        numbers: 5,
        rejected: 3,
        fileName: "tps.csv",
      }),
    ]);
  });

  it("reads a zipped register", async () => {
    const zip = await zipOf("ctps.txt", "01632 960001\n0207 946 0030\nrubbish\n");
    const { status, body } = await upload({ register: "ctps", fileDate: daysAgo(1) }, zip, "ctps.zip");
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ register: "ctps", lines: 3, loaded: 2, rejected: 1 });
    expect(await numbers("ctps")).toEqual(["+441632960001", "+442079460030"]);
  });

  it("keeps the previous register when a file has no valid number, is broken or is refused", async () => {
    const before = await numbers("tps");
    const junk = await upload({ register: "tps", fileDate: daysAgo(0) }, "nothing\nhere\n");
    expect(junk.status).toBe(400);
    expect(JSON.stringify(junk.body)).toContain("no valid UK number");
    const empty = await upload({ register: "tps", fileDate: daysAgo(0) }, "");
    expect(empty.status).toBe(400);
    const badZip = await upload(
      { register: "tps", fileDate: daysAgo(0) },
      new Blob([Buffer.from("PK\u0003\u0004 this is no zip", "latin1")]),
      "tps.zip",
    );
    expect(badZip.status).toBe(400);
    const twoFiles = new PassThrough();
    const parts: Buffer[] = [];
    twoFiles.on("data", (chunk: Buffer) => parts.push(chunk));
    const zip = new ZipWriter(twoFiles);
    zip.addStored("a.txt", "02079460040\n");
    zip.addStored("b.txt", "02079460041\n");
    const ended = new Promise((resolve) => twoFiles.on("end", resolve));
    zip.finish();
    await ended;
    expect(
      (await upload({ register: "tps", fileDate: daysAgo(0) }, new Blob([Buffer.concat(parts)]))).status,
    ).toBe(400);
    const refusedFields: Record<string, string>[] = [
      { register: "dnc", fileDate: daysAgo(0) },
      { register: "tps", fileDate: "yesterday" },
      { register: "tps", fileDate: daysAgo(-5) },
      { register: "tps" },
    ];
    for (const fields of refusedFields) {
      const refused = await upload(fields, "02079460050\n");
      expect(refused.status, JSON.stringify(fields)).toBe(400);
    }
    // Fields sent after the file are not waited for.
    const form = new FormData();
    form.append("file", new Blob(["02079460050\n"]), "tps.txt");
    form.append("register", "tps");
    form.append("fileDate", daysAgo(0));
    expect((await call(registers.POST, "/x", { token, body: form })).status).toBe(400);
    // Not an admin.
    expect(
      (
        await call(registers.POST, "/x", {
          body: registerForm({ register: "tps", fileDate: daysAgo(0) }, "02079460050\n"),
        })
      ).status,
    ).toBe(401);
    // An upload cut off after some valid lines: none of them replace the register.
    let reads = 0;
    const cut = new Readable({
      read() {
        reads += 1;
        if (reads === 1) this.push("02079460060\n02079460061\n");
        else this.destroy(new Error("connection reset"));
      },
    });
    await expect(loadRegister(pool(), "tps", daysAgo(0), "cut.txt", cut)).rejects.toMatchObject({
      status: 400,
    });
    // Cut off before the load reads a byte (it is still waiting for its table): a 400, and no
    // error left without a listener, which would end the process.
    const early = new Readable({ read() {} });
    early.push("02079460062\n");
    const loading = loadRegister(pool(), "tps", daysAgo(0), "early.txt", early);
    early.destroy(new Error("connection reset"));
    await expect(loading).rejects.toMatchObject({ status: 400 });
    expect(await numbers("tps")).toEqual(before);
    const { rows } = await pool().query("SELECT file_date::text FROM phone_registers WHERE register = 'tps'");
    expect(rows[0].file_date).toBe(daysAgo(2));
    const { rows: tables } = await pool().query(
      "SELECT tablename FROM pg_tables WHERE tablename LIKE '%_next'",
    );
    expect(tables).toEqual([]);
  });
});

describe("screening", () => {
  it("gives each UK and USA lead its status, at import and after each register upload", async () => {
    const report = await importLeadsCsv(
      categoryId,
      Readable.from([
        [
          "Email,First Name,Country,Phone",
          "clear@acme.co.uk,Clara,UK,020 7946 0099",
          "tps@acme.co.uk,Tom,UK,+44 20 7946 0019",
          "ctps@acme.co.uk,Carl,UK,0207 946 0030",
          "abroad@acme.co.uk,Anna,UK,+1 212 555 0100",
          "bad@acme.co.uk,Ben,UK,12345",
          "none@acme.co.uk,Nina,UK,",
          "us@acme.com,Uma,USA,(212) 555-0100",
          "usbad@acme.com,Ulf,USA,555",
        ].join("\n") + "\n",
      ]),
    );
    expect(report.imported).toBe(8);
    const screenedAt = daysAgo(2);
    expect(await phones()).toEqual({
      "clear@acme.co.uk": {
        phone: "020 7946 0099",
        phone_e164: "+442079460099",
        phone_status: "clear",
        phone_screened_at: screenedAt,
      },
      "tps@acme.co.uk": {
        phone: "+44 20 7946 0019",
        phone_e164: "+442079460019",
        phone_status: "tps",
        phone_screened_at: screenedAt,
      },
      "ctps@acme.co.uk": {
        phone: "0207 946 0030",
        phone_e164: "+442079460030",
        phone_status: "ctps",
        phone_screened_at: screenedAt,
      },
      "abroad@acme.co.uk": {
        phone: "+1 212 555 0100",
        phone_e164: "+12125550100",
        phone_status: "not_a_uk_number",
        phone_screened_at: null,
      },
      "bad@acme.co.uk": {
        phone: "12345",
        phone_e164: "",
        phone_status: "invalid_number",
        phone_screened_at: null,
      },
      "none@acme.co.uk": {
        phone: "",
        phone_e164: "",
        phone_status: "invalid_number",
        phone_screened_at: null,
      },
      "us@acme.com": {
        phone: "(212) 555-0100",
        phone_e164: "+12125550100",
        phone_status: "valid_number",
        phone_screened_at: null,
      },
      "usbad@acme.com": {
        phone: "555",
        phone_e164: "",
        phone_status: "invalid_number",
        phone_screened_at: null,
      },
    });
    const { rows } = await pool().query(
      "SELECT screened_at::text, uk_leads, callable FROM category_phone_screens WHERE category_id = $1",
      [categoryId],
    );
    expect(rows).toEqual([{ screened_at: screenedAt, uk_leads: 6, callable: 1 }]);
    expect((await findAnyCategory(categoryId))?.ukPhoneScreening).toEqual({
      screenedAt,
      callablePercent: 16,
      current: true,
    });

    // A new TPS: the number that was on it is clear now, one that was clear is on it.
    const next = await upload({ register: "tps", fileDate: daysAgo(1) }, "020 7946 0099\n");
    expect(next.body).toMatchObject({ loaded: 1, screening: { screenedAt: daysAgo(1), screened: 3 } });
    const after = await phones();
    expect(after["clear@acme.co.uk"]).toMatchObject({ phone_status: "tps", phone_screened_at: daysAgo(1) });
    expect(after["tps@acme.co.uk"]).toMatchObject({ phone_status: "clear", phone_screened_at: daysAgo(1) });
    expect(after["ctps@acme.co.uk"]).toMatchObject({ phone_status: "ctps", phone_screened_at: daysAgo(1) });
  });

  it("normalises leads stored before phones were, at the next screening", async () => {
    const { rows } = await pool().query<{ id: string }>(
      `INSERT INTO leads (category_id, first_name, last_name, email, phone, country, verified_at)
       VALUES ($1, 'Old', '', 'old@acme.co.uk', '020 7946 0030', 'UK', now()),
              ($1, 'Older', '', 'old@acme.com', '+1 212 555 0199', 'USA', now())
       RETURNING id`,
      [categoryId],
    );
    expect(rows).toHaveLength(2);
    expect((await phones())["old@acme.co.uk"]).toMatchObject({
      phone_e164: null,
      phone_status: "unscreened",
    });
    await upload({ register: "ctps", fileDate: daysAgo(1) }, "0207 946 0030\n");
    const after = await phones();
    expect(after["old@acme.co.uk"]).toMatchObject({ phone_e164: "+442079460030", phone_status: "ctps" });
    expect(after["old@acme.com"]).toMatchObject({ phone_e164: "+12125550199", phone_status: "valid_number" });
    expect(await normalisePendingPhones(pool())).toBe(0);
  });

  it("warns the admin three days before the screening runs out", async () => {
    const warning = async () =>
      (await callJson<{ ukCompliance: Record<string, unknown> }>(statsRoute.GET, "/x", { token })).body
        .ukCompliance;
    expect(await warning()).toMatchObject({
      screenedAt: daysAgo(1),
      screeningExpiresOn: daysAgo(1 - 28),
      screeningWarning: null,
    });
    await upload({ register: "ctps", fileDate: daysAgo(26) }, "0207 946 0030\n");
    expect(await warning()).toMatchObject({
      screenedAt: daysAgo(26),
      screeningWarning: `UK phone screening holds until ${daysAgo(26 - 28)}: upload new TPS and CTPS files before then.`,
    });
    await upload({ register: "ctps", fileDate: daysAgo(29) }, "0207 946 0030\n");
    expect((await findAnyCategory(categoryId))?.ukPhoneScreening).toMatchObject({
      screenedAt: daysAgo(29),
      current: false,
    });
    expect(await warning()).toMatchObject({
      screeningWarning: `UK phone screening ran out after ${daysAgo(29 - 28)}: UK phones are unscreened until new TPS and CTPS files are uploaded.`,
    });
  });
});
