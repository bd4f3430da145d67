import "server-only";
import { hash } from "node:crypto";
import { badRequest, tooLarge } from "@/lib/errors";

// What an uploaded exclusion list holds (docs/product-rules.md, "Exclusion lists"). Every cell is
// read as an email address (kept as the SHA-256 of its normalised form, never as text), a SHA-256
// hash the buyer made themselves, a domain, or nothing. Columns are chosen by what their cells
// hold, whatever their headers say: a column is taken when at least half of its filled cells are
// entries. A buyer's CRM export often has a company website beside the email: once any column
// holds emails or hashes, a column of domains is taken only when its header names a domain, so
// one known contact does not exclude a whole company.

export const MAX_LIST_ENTRIES = 100_000;
export const TOO_MANY_ENTRIES = `A list holds at most ${MAX_LIST_ENTRIES.toLocaleString("en-US")} entries (emails, hashes and domains); split it or keep the ones that matter.`;

/** Columns past this many in a row are not read (no list needs them; a sparse sheet stays small). */
export const MAX_COLUMNS = 100;
/** A longer cell is no entry (the longest address is 320 characters). */
export const MAX_CELL = 320;
// What a file may expand to once read: a workbook's cells can all repeat one long shared string.
/** Cells read, over every row and sheet (a 100,000-row export with 20 columns fits). */
export const MAX_CELLS = 2_000_000;
/** Characters in the cells read (twice what a 10 MB CSV can hold). */
export const MAX_CHARACTERS = 20_000_000;
const TOO_MANY_CELLS = `The file holds too many cells: at most ${MAX_CELLS.toLocaleString("en-US")} are read. Keep only the columns you need, or split it.`;
const TOO_MUCH_TEXT = `The file holds too much text: at most ${MAX_CHARACTERS.toLocaleString("en-US")} characters are read. Keep only the columns you need, or split it.`;
// Something, "@", then a domain with a dot neither first nor last. The domain's first dot after its
// first character is the one matched, so each character is matched one way only: linear time
// (`[^@\s]+\.[^@\s]+` tries every dot of a cell like "a@....@", quadratic).
const ADDRESS = /^[^@\s]+@[^@\s][^@\s.]*\.[^@\s]+$/;
const HASH = /^[0-9a-f]{64}$/;
// Dot-separated labels of letters, digits and inner hyphens, ending in a label of letters. No
// label holds a dot, so each is matched once: linear time.
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export type Entry =
  { kind: "email"; address: string } | { kind: "hash"; hash: string } | { kind: "domain"; domain: string };

/** One cell: an address (normalised, hashed once the list is read), a SHA-256 hash (hex), a domain, or null. */
export function readCell(cell: string): Entry | null {
  let text = cell.trim().toLowerCase();
  if (!text || text.length > MAX_CELL) return null;
  if (text.startsWith("mailto:")) text = text.slice("mailto:".length);
  // "Jane Doe <jane@acme.com>"
  if (text.endsWith(">") && text.includes("<")) text = text.slice(text.lastIndexOf("<") + 1, -1).trim();
  if (HASH.test(text)) return { kind: "hash", hash: text };
  if (ADDRESS.test(text)) return { kind: "email", address: text };
  const domain = text.replace(/^@/, "").replace(/^www\./, "");
  return DOMAIN.test(domain) ? { kind: "domain", domain } : null;
}

type Column = {
  header: string;
  /** The addresses, normalised: each is hashed once, when the list is read. */
  emails: Set<string>;
  hashes: Set<string>;
  domains: Set<string>;
  /** Cells read as entries, by kind, and filled cells that are none (the header aside). */
  emailCells: number;
  domainCells: number;
  others: number;
};

/** A row of a table: a CSV file is one table, a workbook one per sheet. */
export type ListRow = { table: number; cells: string[] };

export type ListEntries = {
  /** SHA-256 (hex) of the emails and the given hashes, each once. */
  hashes: string[];
  domains: string[];
  counts: { entries: number; emails: number; domains: number; hashes: number; ignored: number };
};

const takes = (column: Column) => column.emailCells + column.domainCells >= Math.max(1, column.others);
const ofEmails = (column: Column) => column.emailCells >= column.domainCells;

function newColumn(): Column {
  return {
    header: "",
    emails: new Set(),
    hashes: new Set(),
    domains: new Set(),
    emailCells: 0,
    domainCells: 0,
    others: 0,
  };
}

function addCell(column: Column, cell: string, entry: Entry | null): void {
  if (!entry) {
    if (cell.trim()) column.others += 1;
    return;
  }
  // A column past the limit is not kept whole: it can only end in a refusal.
  const full = column.emails.size + column.hashes.size + column.domains.size > MAX_LIST_ENTRIES;
  if (entry.kind === "domain") {
    column.domainCells += 1;
    if (!full) column.domains.add(entry.domain);
  } else {
    column.emailCells += 1;
    if (!full && entry.kind === "email") column.emails.add(entry.address);
    if (!full && entry.kind === "hash") column.hashes.add(entry.hash);
  }
}

/**
 * Reads the rows (in batches) into entries; 400 for a file with no rows, no entry column or too
 * many entries, 413 past MAX_CELLS or MAX_CHARACTERS.
 */
export async function listEntries(batches: AsyncIterable<ListRow[]>): Promise<ListEntries> {
  // Per table, its columns by position and how many rows it had.
  const tables: Column[][] = [];
  const rowsOf: number[] = [];
  let seenRows = 0;
  let cellsRead = 0;
  let characters = 0;
  for await (const rows of batches) {
    for (const { table, cells } of rows) {
      seenRows += 1;
      const first = (rowsOf[table] = (rowsOf[table] ?? 0) + 1) === 1;
      const columns = (tables[table] ??= []);
      const width = Math.min(cells.length, MAX_COLUMNS);
      cellsRead += width;
      if (cellsRead > MAX_CELLS) throw tooLarge(TOO_MANY_CELLS, { file: TOO_MANY_CELLS });
      for (let index = 0; index < width; index++) {
        characters += cells[index].length;
        if (characters > MAX_CHARACTERS) throw tooLarge(TOO_MUCH_TEXT, { file: TOO_MUCH_TEXT });
        const entry = readCell(cells[index]);
        const column = (columns[index] ??= newColumn());
        // A table's first row's cell that holds no entry names its column.
        if (first && !entry) column.header = cells[index];
        else addCell(column, cells[index], entry);
      }
    }
  }
  if (seenRows === 0) throw badRequest("The file is empty", { file: "The file is empty" });
  const candidates = tables.flat().filter(takes);
  const chosen = candidates.some(ofEmails)
    ? candidates.filter((column) => ofEmails(column) || /domain/i.test(column.header))
    : candidates;
  if (chosen.length === 0) {
    const message = "No column of this file holds email addresses, domains or SHA-256 hashes";
    throw badRequest(message, { file: message });
  }
  const union = (pick: (column: Column) => Set<string>) =>
    new Set(chosen.flatMap((column) => [...pick(column)]));
  const emails = union((column) => column.emails);
  const given = union((column) => column.hashes);
  const domains = union((column) => column.domains);
  // Trimmed and lower-cased: the normalised form (normalizeEmail, lib/mail/address.ts) hashed.
  const hashes = new Set([...[...emails].map((address) => hash("sha256", address, "hex")), ...given]);
  const entries = hashes.size + domains.size;
  if (entries > MAX_LIST_ENTRIES) throw badRequest(TOO_MANY_ENTRIES, { file: TOO_MANY_ENTRIES });
  return {
    hashes: [...hashes],
    domains: [...domains],
    counts: {
      entries,
      emails: emails.size,
      domains: domains.size,
      hashes: given.size,
      ignored: chosen.reduce((sum, column) => sum + column.others, 0),
    },
  };
}
