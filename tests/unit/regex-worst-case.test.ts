// Every regular expression that runs on what a visitor sends (claims, custom requests and their
// file names, imports, order lookups, privacy requests, client addresses, exclusion lists) fed a 1 MB worst case:
// each must finish within a second, i.e. in linear time. A pattern that backtracks takes minutes
// here and freezes the whole server in production (a single-threaded event loop). The proof that
// holds for every pattern, without a clock, is the lint rules: run here over app/ and lib/.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { addressFrom } from "@/lib/api/client-address";
import { limitBucket } from "@/lib/http/client-address.mjs";
import { attachmentHeaders } from "@/lib/api/attachment";
import { checkFile, sanitizeFileName } from "@/lib/custom-requests/files";
import { parseVerifiedAt } from "@/lib/leads/import-dates";
import { mapHeader, normalizeHeader, toLead } from "@/lib/leads/import-rows";
import { customRequestSchema, fileExtension } from "@/lib/schemas/custom-request";
import { addressesInText, orderKeyParams, orderLookupBody, replacementBody } from "@/lib/schemas/orders";
import { privacyRequestBody } from "@/lib/schemas/privacy";
import { readCell } from "@/lib/suppression/entries";
import { WORST_CELL } from "../support/nasty-cells";

const MB = 1024 * 1024;
const repeat = (unit: string) => unit.repeat(Math.ceil(MB / unit.length));

// Shapes that make a backtracking pattern retry from every position: long runs of one character,
// alternations of the pattern's own separators, and near-misses that fail only at the very end.
const WORST = [
  repeat("a"),
  repeat("a@"),
  repeat("a."),
  repeat("@."),
  repeat(". "),
  repeat(" "),
  repeat("%"),
  repeat(":"),
  repeat("1/"),
  `a@${repeat("b")}`,
  `a@b${repeat(".")}!`,
  `a${repeat(". ")}b`,
  `${repeat("a@b.c")}@`,
  `::ffff:${repeat("1.")}`,
  // An exclusion list's longest cell that almost holds an address, then a million of them.
  WORST_CELL,
  repeat(WORST_CELL),
];

function timed(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

const cases: [string, (input: string) => unknown][] = [
  ["addressesInText (claims)", addressesInText],
  ["replacementBody (claims)", (input) => replacementBody.safeParse({ emails: [input] })],
  ["orderKeyParams", (input) => orderKeyParams.safeParse({ key: input })],
  ["orderLookupBody", (input) => orderLookupBody.safeParse({ email: input })],
  ["privacyRequestBody", (input) => privacyRequestBody.safeParse({ email: input, kind: "erasure" })],
  [
    "customRequestSchema",
    (input) => customRequestSchema.safeParse({ name: input, email: input, message: input, website: input }),
  ],
  ["sanitizeFileName", (input) => sanitizeFileName(`${input}.pdf`, "pdf")],
  ["fileExtension", (input) => fileExtension(input)],
  ["checkFile", (input) => checkFile(`${input}.csv`, Buffer.from("a,b\n"))],
  ["attachmentHeaders", (input) => attachmentHeaders(input, "text/csv")],
  ["normalizeHeader and mapHeader (imports)", (input) => mapHeader([normalizeHeader(input), input])],
  ["parseVerifiedAt (imports)", (input) => parseVerifiedAt(input, "UK", new Date())],
  [
    "toLead (imports)",
    (input) => toLead(mapHeader(["email", "name", "verified"]), [input, input, input], new Date()),
  ],
  ["limitBucket", limitBucket],
  // Cells are bounded first; the longest one still read is fed too.
  ["readCell (exclusion lists)", (input) => [readCell(input), readCell(input.slice(0, 320))]],
  ["addressFrom", (input) => addressFrom(new Headers({ "x-forwarded-for": `${input}, 10.0.0.1` }), 2)],
];

describe("regular expressions on visitor input", () => {
  it("none in app/ or lib/ backtracks or moves super-linearly (eslint-plugin-regexp)", async () => {
    const rules = ["regexp/no-super-linear-backtracking", "regexp/no-super-linear-move"];
    const eslint = new ESLint({ ruleFilter: ({ ruleId }) => rules.includes(ruleId) });
    const results = await eslint.lintFiles(["app", "lib"]);
    const found = results.flatMap((result) =>
      result.messages.map(
        (message) => `${result.filePath}:${message.line} ${message.ruleId ?? message.message}`,
      ),
    );
    expect(found).toEqual([]);
    // The rules are on: they are what the check above relies on.
    const config = await eslint.calculateConfigForFile("lib/suppression/entries.ts");
    for (const rule of rules) expect(config.rules[rule]).toEqual([2]);
  }, 120_000);

  for (const [name, run] of cases) {
    it(`${name} reads 1 MB worst cases in linear time`, () => {
      for (const input of WORST) expect(timed(() => run(input))).toBeLessThan(1000);
    });
  }
});
