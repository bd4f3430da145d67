// Uploading an "exclude contacts I already have" list (docs/product-rules.md, "Exclusion lists")
// against PostgreSQL: CSV with any separator and the address column found by its content, plain
// text, SHA-256 hashes, domains and XLSX workbooks are read; only hashes and domains are stored;
// empty, binary, address-less, oversized and over-long files are clear 4xx answers; uploads count
// against a per-address limit.
import { createHash } from "node:crypto";
import { PassThrough } from "node:stream";
import { buffer } from "node:stream/consumers";
import ExcelJS from "exceljs";
import { afterAll, describe, expect, it } from "vitest";
import { fromAddress } from "../support/client";
import { worstCsv, worstSmallXlsx, worstXlsx } from "../support/nasty-cells";
import { callJson } from "../support/routes";
import { startTestStore } from "../support/store";
import { fileHead, multipart, MULTIPART } from "../support/uploads";

const store = await startTestStore({
  name: "leadmarket_suppression_upload",
  apiKey: "np-sup",
  ipnSecret: "ipn-sup",
});
const { POST: uploadRoute } = await import("@/app/api/suppression-lists/route");
const { pool } = await import("@/lib/db");
const { ZipWriter } = await import("@/lib/leads/zip-stream");

afterAll(store.close);

type Answer = {
  suppressionListId: string;
  entries: number;
  emails: number;
  domains: number;
  hashes: number;
  ignored: number;
  message?: string;
  errors?: Record<string, string>;
};

let uploads = 0;
/** Each upload from its own address unless one is given: the per-address limit is tested apart. */
function upload(file: Buffer | string, fileName = "list.csv", address = `10.20.${++uploads}.1`) {
  return callJson<Answer>(uploadRoute, "/api/suppression-lists", {
    body: multipart(fileHead("file", fileName), file),
    headers: { "content-type": MULTIPART, ...fromAddress(address) },
  });
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

async function storedHashes(listId: string): Promise<string[]> {
  const { rows } = await pool().query<{ hash: string }>(
    "SELECT encode(hash, 'hex') AS hash FROM suppression_lists, unnest(email_keys) AS hash WHERE id = $1 ORDER BY 1",
    [listId],
  );
  return rows.map((row) => row.hash);
}

async function workbook(sheets: (string | number)[][][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  sheets.forEach((rows, index) => book.addWorksheet(`Sheet ${index + 1}`).addRows(rows));
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe("reading a list", () => {
  it("finds the address column of a CSV by its content, whatever the separator and header", async () => {
    const csv = [
      "Name;Company;E-Mail Address;Website",
      "Ada Lovelace;Engines;Ada@Engines.co.uk ;engines.co.uk",
      'Grace Hopper;"Navy; Inc";grace@navy.example;navy.example',
      "Alan Turing;Bletchley;n/a;bletchley.example",
      "Bare;Dup;ada@engines.co.uk;engines.co.uk",
    ].join("\r\n");
    const answer = await upload(`\uFEFF${csv}`);
    expect(answer.status).toBe(201);
    // The website column is not taken beside an email column; "n/a" is ignored; a repeat counts once.
    expect(answer.body).toMatchObject({ entries: 2, emails: 2, domains: 0, hashes: 0, ignored: 1 });
    expect(await storedHashes(answer.body.suppressionListId)).toEqual(
      [sha("ada@engines.co.uk"), sha("grace@navy.example")].sort(),
    );
  });

  it("takes a domain column beside the emails when its header names a domain", async () => {
    const csv =
      "email,company domain\nada@engines.co.uk,@engines.co.uk\nbob@www.example.org,www.acme.example\n";
    const answer = await upload(csv);
    expect(answer.body).toMatchObject({ entries: 4, emails: 2, domains: 2, ignored: 0 });
    const { rows } = await pool().query<{ domain: string }>(
      "SELECT domain FROM suppression_lists, unnest(domain_keys) AS domain WHERE id = $1 ORDER BY 1",
      [answer.body.suppressionListId],
    );
    expect(rows.map((row) => row.domain)).toEqual(["acme.example", "engines.co.uk"]);
  });

  it("reads plain text one entry a line, domains alone, and SHA-256 hashes", async () => {
    const text = await upload("ada@engines.co.uk\n\nnot an address\ngrace@navy.example\n", "list.txt");
    expect(text.body).toMatchObject({ entries: 2, emails: 2, ignored: 1 });

    const domains = await upload("engines.co.uk\nnavy.example\nwww.bletchley.example\n", "domains.txt");
    expect(domains.body).toMatchObject({ entries: 3, emails: 0, domains: 3, hashes: 0 });

    const hash = sha("ada@engines.co.uk");
    const hashed = await upload(`sha256\n${hash.toUpperCase()}\n${sha("grace@navy.example")}\n`);
    expect(hashed.body).toMatchObject({ entries: 2, emails: 0, hashes: 2 });
    // A given hash and the same address hashed here are one entry.
    expect(await storedHashes(hashed.body.suppressionListId)).toContain(hash);
    const both = await upload(`${hash}\nADA@engines.co.uk\n`);
    expect(both.body).toMatchObject({ entries: 1, emails: 1, hashes: 1 });
  });

  it("reads XLSX workbooks, every sheet, shared and inline strings alike", async () => {
    const book = await workbook([
      [
        ["Contact", "Email"],
        ["Ada", "ada@engines.co.uk"],
        ["Grace", "grace@navy.example"],
        ["Number", 42],
      ],
      [["Addresses"], ["alan@bletchley.example"]],
    ]);
    const answer = await upload(book, "contacts.xlsx");
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ entries: 3, emails: 3, ignored: 1 });

    const output = new PassThrough();
    const streamed = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useSharedStrings: false });
    const sheet = streamed.addWorksheet("Leads");
    sheet.addRow(["Email"]).commit();
    for (let i = 0; i < 500; i++) sheet.addRow([`person${i}@inline.example`]).commit();
    sheet.commit();
    const [bytes] = await Promise.all([buffer(output), streamed.commit()]);
    const inline = await upload(bytes, "inline.xlsx");
    expect(inline.body).toMatchObject({ entries: 500, emails: 500 });
  });

  it("stores no address: only 32-byte hashes and domains", async () => {
    const answer = await upload("someone.private@secret-domain.example\n");
    const { rows } = await pool().query<{ n: number }>(
      `SELECT ((SELECT count(*) FROM suppression_lists, unnest(email_keys) AS hash WHERE octet_length(hash) <> 32)
            + (SELECT count(*) FROM suppression_lists, unnest(domain_keys) AS domain WHERE domain LIKE '%@%')
            + (SELECT count(*) FROM suppression_lists WHERE owner !~ '^[0-9a-f]{64}$'))::int AS n`,
    );
    expect(rows[0].n).toBe(0);
    expect(await storedHashes(answer.body.suppressionListId)).toEqual([
      sha("someone.private@secret-domain.example"),
    ]);
  });
});

describe("refusing what is no list", () => {
  it("answers a clear 400 for empty, address-less, binary and old Excel files, and too many entries", async () => {
    const refusals: [Buffer | string, string, RegExp][] = [
      ["", "empty.csv", /The file is empty/],
      ["\n\n  \n", "blank.txt", /The file is empty/],
      [
        "Name,City\nAda,London\nGrace,Arlington\n",
        "names.csv",
        /No column of this file holds email addresses/,
      ],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), "list.csv", /not a list/],
      [Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), Buffer.alloc(64)]), "old.xls", /\.xls/],
      [Buffer.from("PK\x03\x04not really a zip", "latin1"), "broken.xlsx", /could not be read/],
      ['"unterminated,quote\nada@engines.co.uk', "quote.csv", /could not be read as CSV/],
    ];
    for (const [file, name, message] of refusals) {
      const answer = await upload(file, name);
      expect(answer.status, name).toBe(400);
      expect(answer.body.message, name).toMatch(message);
    }
    const many = Array.from({ length: 100_001 }, (_, i) => `p${i}@many.example`).join("\n");
    const tooMany = await upload(many);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain("at most 100,000 entries");
    const exactly = await upload(many.slice(0, many.lastIndexOf("\n")));
    expect(exactly.status).toBe(201);
    expect(exactly.body.entries).toBe(100_000);
  });

  it("refuses a workbook that inflates past what a list can hold, before inflating it", async () => {
    const output = new PassThrough();
    const zip = new ZipWriter(output);
    const bytes = buffer(output);
    zip.addStored("[Content_Types].xml", "<Types/>");
    const spaces = " ".repeat(1024 * 1024);
    await zip.addDeflated(
      "xl/worksheets/sheet1.xml",
      (async function* () {
        for (let i = 0; i < 70; i++) yield spaces;
      })(),
    );
    zip.finish();
    output.end();
    const file = await bytes;
    expect(file.length).toBeLessThan(1024 * 1024);
    const answer = await upload(file, "bomb.xlsx");
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain("inflates to more than a list can hold");
  });

  it("refuses the worst files known at their caps, and the same address uploads a list next", async () => {
    const address = "10.23.0.1";
    // 6.26 million cells that all repeat one 320-character near-address: 389 KB, 126 MB of XML.
    const big = await upload(worstXlsx(), "worst.xlsx", address);
    expect(big.status).toBe(400);
    expect(big.body.message).toContain("inflates to more than a list can hold");
    // Half a million of them (31 KB, 10.5 MB of XML): 160 million characters.
    const small = await upload(worstSmallXlsx(), "worst-small.xlsx", address);
    expect(small.status).toBe(413);
    expect(small.body.message).toBe(
      "The file holds too much text: at most 20,000,000 characters are read. Keep only the columns you need, or split it.",
    );
    expect(small.body.errors).toEqual({ file: small.body.message });
    // 10 MB of them in a CSV: read in linear time, and none is an entry.
    const csv = await upload(worstCsv(), "worst.csv", address);
    expect(csv.status).toBe(400);
    expect(csv.body.message).toBe("No column of this file holds email addresses, domains or SHA-256 hashes");
    const after = await upload("ada@engines.co.uk", "list.txt", address);
    expect(after.status).toBe(201);
    expect(await storedHashes(after.body.suppressionListId)).toEqual([sha("ada@engines.co.uk")]);
  });

  it("reads at most 2,000,000 cells and 1,000,000 shared strings", async () => {
    // 20,001 rows of an address and 99 more cells: one row past the cap.
    const row = `ada@engines.co.uk${",x".repeat(99)}\n`;
    const cells = await upload(row.repeat(20_001));
    expect(cells.status).toBe(413);
    expect(cells.body.message).toBe(
      "The file holds too many cells: at most 2,000,000 are read. Keep only the columns you need, or split it.",
    );
    expect((await upload(row.repeat(20_000))).status).toBe(201);
    const strings = Array.from({ length: 1_000_001 }, (_, i) => `<si><t>${i}</t></si>`).join("");
    const output = new PassThrough();
    const zip = new ZipWriter(output);
    const bytes = buffer(output);
    zip.addStored("xl/worksheets/sheet1.xml", "<worksheet><sheetData/></worksheet>");
    await zip.addDeflated(
      "xl/sharedStrings.xml",
      (async function* () {
        yield `<sst>${strings}</sst>`;
      })(),
    );
    zip.finish();
    output.end();
    const manyStrings = await upload(await bytes, "strings.xlsx");
    expect(manyStrings.status).toBe(413);
    expect(manyStrings.body.message).toContain("too many different texts: at most 1,000,000 are read");
  });

  it("answers 413 past 10 MB, 400 without a file, and 415 for another body", async () => {
    const big = await upload(Buffer.alloc(10 * 1024 * 1024 + 1, "a@b.example\n"));
    expect(big.status).toBe(413);
    const none = await callJson<Answer>(uploadRoute, "/api/suppression-lists", {
      body: multipart(fileHead("other", "list.csv"), "a@b.example"),
      headers: { "content-type": MULTIPART, ...fromAddress("10.21.0.1") },
    });
    expect(none.status).toBe(400);
    const text = await callJson<Answer>(uploadRoute, "/api/suppression-lists", {
      body: "a@b.example",
      headers: { "content-type": "text/plain", ...fromAddress("10.21.0.2") },
    });
    expect(text.status).toBe(415);
  });

  it("counts uploads per address: the 21st in an hour is 429", async () => {
    for (let i = 0; i < 20; i++) expect((await upload("a@b.example", "a.txt", "10.22.0.1")).status).toBe(201);
    const limited = await upload("a@b.example", "a.txt", "10.22.0.1");
    expect(limited.status).toBe(429);
    expect((await upload("a@b.example", "a.txt", "10.22.0.2")).status).toBe(201);
  });
});
