// The spreadsheet guard done by PostgreSQL for lead downloads (csvCellSql) must write exactly the
// bytes csvCell writes for the same cell, with and without the phone-number exception.
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvCell, csvCellSql, csvLine, csvLineSql, type CsvOptions } from "@/lib/csv";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { NASTY_CELLS } from "../support/nasty-cells";

let database: TestDatabase;
let client: Client;

beforeAll(async () => {
  database = await createTestDatabase("leadmarket_csvsql");
  client = new Client({ connectionString: database.url });
  await client.connect();
});

afterAll(async () => {
  await client.end();
  await database.drop();
});

async function viaSql(values: string[], options: CsvOptions): Promise<string[]> {
  const { rows } = await client.query<{ cell: string }>(
    `SELECT ${csvCellSql("t.v", options)} AS cell FROM unnest($1::text[]) WITH ORDINALITY AS t(v, n) ORDER BY t.n`,
    [values],
  );
  return rows.map((row) => row.cell);
}

describe("csvCellSql", () => {
  it("writes the bytes csvCell writes, for lead downloads (phone numbers kept)", async () => {
    const options = { keepPhoneNumbers: true };
    expect(await viaSql(NASTY_CELLS, options)).toEqual(NASTY_CELLS.map((value) => csvCell(value, options)));
  });

  it("writes the bytes csvCell writes, for the admin exports (every formula sign guarded)", async () => {
    expect(await viaSql(NASTY_CELLS, {})).toEqual(NASTY_CELLS.map((value) => csvCell(value)));
  });
});

// Rows of ordinary cells with one nasty cell in each place in turn, and a last cell marked plain:
// the line is taken whole when nothing needs work, cell by cell otherwise. Phone numbers are
// ordinary only in lead downloads.
function rowsAround(ordinary: string[]): string[][] {
  return [
    ordinary,
    ...NASTY_CELLS.flatMap((nasty) =>
      ordinary.map((_, place) => ordinary.map((cell, index) => (index === place ? nasty : cell))),
    ),
  ].map((row) => [...row, "2026-01-15T00:00:00Z"]);
}
const LEAD_ROWS = rowsAround(["Ada", "+44 20 1234 5678", "ada@engines.co.uk", "-1.5"]);
const EXPORT_ROWS = rowsAround(["Ada", "Lovelace", "ada@engines.co.uk", "London"]);

async function linesViaSql(rows: string[][], options: CsvOptions): Promise<string[]> {
  const columns = rows[0].map((_, index) => `t.c${index}`);
  const { rows: lines } = await client.query<{ line: string }>(
    `SELECT ${csvLineSql(
      columns.map((sql, index) => ({ sql, plain: index === columns.length - 1 })),
      options,
    )} AS line
     FROM unnest(${columns.map((_, index) => `$${index + 1}::text[]`).join(", ")}) WITH ORDINALITY
       AS t(${columns.map((_, index) => `c${index}`).join(", ")}, n)
     ORDER BY t.n`,
    columns.map((_, index) => rows.map((row) => row[index])),
  );
  return lines.map((row) => row.line);
}

describe("csvLineSql", () => {
  it("writes the lines csvLine writes, for lead downloads (phone numbers kept)", async () => {
    const options = { keepPhoneNumbers: true };
    expect(await linesViaSql(LEAD_ROWS, options)).toEqual(LEAD_ROWS.map((row) => csvLine(row, options)));
  });

  it("writes the lines csvLine writes, for the admin exports (every formula sign guarded)", async () => {
    expect(await linesViaSql(EXPORT_ROWS, {})).toEqual(EXPORT_ROWS.map((row) => csvLine(row)));
  });
});

describe("csvLineSql with a phone column", () => {
  // The quick test runs the cells together with chr(1) between them: a chr(1) inside a cell must
  // not hide a cell that needs work, and a phone number is kept wherever it is.
  const rows = [
    ["Ada", "+44 20 1234 5678"],
    ["+44 20 1234 5678", "+44 20 1234 5678"],
    ["Ada", "+44 20 1234 5678 =1"],
    ["Ada\u0001=1", "+1 (212) 555-0100"],
    ["Ada", "+1\u0001=1"],
    ["Ada", "+1\u0001x"],
    ["+1 (212) 555-0100", "x"],
    ["Ada\u0001", "-1"],
    ["Ada", "=1"],
    ["Ada", "1;2"],
    ["", ""],
  ];

  async function phoneLines(options: CsvOptions): Promise<string[]> {
    const { rows: lines } = await client.query<{ line: string }>(
      `SELECT ${csvLineSql([{ sql: "t.a" }, { sql: "t.p", phone: true }], options)} AS line
       FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(a, p, n) ORDER BY t.n`,
      [rows.map((row) => row[0]), rows.map((row) => row[1])],
    );
    return lines.map((row) => row.line);
  }

  it("writes the lines csvLine writes, with and without phone numbers kept", async () => {
    const options = { keepPhoneNumbers: true };
    expect(await phoneLines(options)).toEqual(rows.map((row) => csvLine(row, options)));
    expect(await phoneLines({})).toEqual(rows.map((row) => csvLine(row)));
  });
});
