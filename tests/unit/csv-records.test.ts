// The import's record reader splits plain lines itself and hands the rest of the file to csv-parse:
// whatever the file and however it is cut into chunks, it must read exactly what csv-parse alone
// reads, records, line numbers and errors.
import { Readable } from "node:stream";
import { CsvError, Parser } from "csv-parse";
import { describe, expect, it } from "vitest";
import { csvRecords, UploadError, type Parsed } from "@/lib/leads/csv-records";

type Item = { record: string[]; line: number } | { error: string; lines: number | undefined };

async function viaCsvParse(bytes: Buffer): Promise<Item[]> {
  const items: Item[] = [];
  const parser = new Parser({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    relax_quotes: true,
    max_record_size: 64 * 1024,
    // Collected here: a parse error destroys the stream before its records are read.
    on_record: (record: string[], { lines }) => {
      items.push({ record, line: lines });
      return null;
    },
  });
  try {
    for await (const record of Readable.from([bytes]).pipe(parser)) void record;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    items.push({ error: error.message, lines: error.lines as number | undefined });
  }
  return items;
}

async function viaCsvRecords(bytes: Buffer, chunkSize: number): Promise<Item[]> {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += chunkSize) chunks.push(bytes.subarray(at, at + chunkSize));
  const items: Item[] = [];
  for await (const batch of csvRecords(Readable.from(chunks)) as AsyncIterable<Parsed[]>) {
    items.push(
      ...batch.map((item) =>
        "malformed" in item
          ? { error: item.malformed.message, lines: item.malformed.lines as number | undefined }
          : item,
      ),
    );
  }
  return items;
}

const FILES: Record<string, string> = {
  plain: "Email,Name\na@x.co,Ada\nb@x.co,Bob\n",
  "no final line break": "Email,Name\na@x.co,Ada\nb@x.co,Bob",
  crlf: "Email,Name\r\na@x.co,Ada\r\n\r\nb@x.co,Bob\r\n",
  "byte-order mark": "\uFEFFEmail,Name\na@x.co,Ada\n",
  "empty lines": "\n\nEmail,Name\n\na@x.co,Ada\n\n\n,\n",
  "quoted cell later": 'Email,Name\na@x.co,Ada\nb@x.co,"Bob\nSmith"\nc@x.co,"C, D"\nd@x.co,Dee\n',
  "quote inside a cell": 'Email,Name\na@x.co,John "JJ" Smith\nb@x.co,Bob\n',
  "mark then a quote": '\uFEFFEmail,Name\na@x.co,"Ada"\nb@x.co,Bob\n',
  "mark then a quoted header": '\uFEFF"Email",Name\na@x.co,Ada\n',
  "quotes and CRs further on": 'Email,Name\na,1\nb,2\nc,"3"\nd,4\r\ne,5\n',
  "quoted header": '"Email","Name"\na@x.co,Ada\n',
  "unclosed quote": 'Email,Name\na@x.co,Ada\nb@x.co,"Bob\n',
  "bad quote": 'Email,Name\na@x.co,Ada\nb@x.co,"Bob"x,1\nc@x.co,Cy\n',
  "CR only": "Email,Name\ra@x.co,Ada\rb@x.co,Bob\r",
  "CR inside the first line": "Email\r,Name\na@x.co,Ada\n",
  "CR inside a later line": "Email,Name\na@x.co,A\rda\nb@x.co,Bob\n",
  "LF inside a CRLF file": "Email,Name\r\na@x.co,Ada\nb@x.co,Bob\r\nc@x.co,Cy\r\n",
  "CR at the very end": "Email,Name\r\na@x.co,Ada\r",
  "multi-byte characters": "Email,Name\na@x.co,Zoë Łukasz 東京\nb@x.co,Renée\n",
  "overlong line": `Email,Name\na@x.co,${"x".repeat(70 * 1024)}\nb@x.co,Bob\n`,
  "long plain line": `Email,Name\na@x.co,${"x".repeat(20 * 1024)}\nb@x.co,Bob\n`,
  empty: "",
  "only a mark": "\uFEFF",
  "only line breaks": "\n\r\n\n",
};

describe("csvRecords", () => {
  for (const [name, text] of Object.entries(FILES)) {
    it(`reads what csv-parse reads: ${name}`, async () => {
      const bytes = Buffer.from(text, "utf8");
      const expected = await viaCsvParse(bytes);
      for (const chunkSize of [1, 2, 3, 7, 64, 1 << 20]) {
        expect(await viaCsvRecords(bytes, chunkSize)).toEqual(expected);
      }
    });
  }

  it("splits plain lines itself whatever the chunk size", async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `p${i}@x.co,Name ${i}`);
    const bytes = Buffer.from(`Email,Name\n${lines.join("\n")}\n`);
    for (const chunkSize of [64 * 1024, 1 << 20]) {
      let batches = 0;
      for await (const batch of csvRecords(
        Readable.from([bytes.subarray(0, chunkSize), bytes.subarray(chunkSize)]),
      ))
        batches += batch.length > 0 ? 1 : 0;
      // csv-parse would hand over one record at a time.
      expect(batches).toBeLessThan(10);
    }
  });

  it("reports a failed upload as an UploadError", async () => {
    const input = new Readable({ read() {} });
    input.push("Email\na@x.co\n");
    setImmediate(() => input.destroy(new Error("FILE_TOO_LARGE")));
    const read = async () => {
      for await (const item of csvRecords(input)) void item;
    };
    await expect(read()).rejects.toEqual(new UploadError("FILE_TOO_LARGE"));
  });
});
