// The spreadsheet guard done by PostgreSQL for lead downloads (csvCellSql) must write exactly the
// bytes csvCell writes for the same cell, with and without the phone-number exception.
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvCell, csvCellSql, type CsvOptions } from "@/lib/csv";
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
