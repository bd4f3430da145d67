// The Excel download: columns as wide as their content, a frozen header row and an autofilter.
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import type { DeliveryRow } from "@/lib/leads/delivery";
import type { Column } from "@/lib/packages";
import { columnWidths, xlsxStream } from "@/lib/leads/export-xlsx";
import { NASTY_CELLS } from "../support/nasty-cells";

const COLUMNS: Column[] = [
  { key: "first_name", header: "First Name" },
  { key: "email", header: "Email" },
  { key: "country", header: "Country" },
];

async function* batches(...groups: DeliveryRow[][]): AsyncGenerator<DeliveryRow[]> {
  yield* groups;
}

async function workbookOf(stream: ReadableStream<Uint8Array>): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await new Response(stream).arrayBuffer()) as unknown as ArrayBuffer);
  return workbook.getWorksheet("Leads")!;
}

describe("xlsxStream", () => {
  it("sizes columns to the header and rows, freezes the header and filters every column", async () => {
    const email = "alexandra.montgomery-smith@northwind-industries.com";
    const sheet = await workbookOf(
      xlsxStream(
        COLUMNS,
        batches(
          [
            ["Alexandra", email, "USA"],
            ["Bo", "bo@x.io", null],
          ],
          [["Later", "a-much-longer-address-in-a-later-batch@example.com", "UK"]],
        ),
      ),
    );
    expect(sheet.getRow(1).values).toEqual([undefined, "First Name", "Email", "Country"]);
    expect(sheet.getRow(1).font?.bold).toBe(true);
    expect(sheet.rowCount).toBe(4);
    expect(sheet.getColumn(1).width).toBe(12);
    expect(sheet.getColumn(2).width).toBe(email.length + 2);
    expect(sheet.getColumn(3).width).toBe(10);
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.autoFilter).toBe("A1:C1");
  });

  it("keeps every character a cell can hold: markup, quotes, line breaks, spaces, emoji", async () => {
    const values = [...NASTY_CELLS, "<b>&amp;</b>", " padded ", "a\u0001b", "x".repeat(1000)];
    const sheet = await workbookOf(
      xlsxStream(COLUMNS, batches(values.map((value, index) => [value, `${index}@x.io`, "UK"]))),
    );
    expect(sheet.rowCount).toBe(values.length + 1);
    values.forEach((value, index) => {
      const row = sheet.getRow(index + 2);
      // Control characters XML cannot hold are dropped; an empty cell is no cell.
      expect(row.getCell(1).value ?? "").toBe(value.replace("\u0001", ""));
      expect(row.getCell(2).value).toBe(`${index}@x.io`);
    });
  });

  it("writes the header alone when there are no rows", async () => {
    const sheet = await workbookOf(xlsxStream(COLUMNS, batches()));
    expect(sheet.rowCount).toBe(1);
    expect(sheet.getRow(1).values).toEqual([undefined, "First Name", "Email", "Country"]);
  });
});

describe("columnWidths", () => {
  it("keeps widths between 10 and 60 characters", () => {
    expect(columnWidths([{ key: "a", header: "A" }], [["x".repeat(500)]])).toEqual([60]);
    expect(columnWidths([{ key: "a", header: "A" }], [[null]])).toEqual([10]);
  });
});
