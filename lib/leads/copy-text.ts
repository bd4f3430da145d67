// PostgreSQL COPY's text format: a tab between fields, a line per row, and these four escaped.
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIALS = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };
// What COPY ... TO writes for a text value: a backslash before itself and these control characters.
const COPY_OUT_ESCAPES = /\\(.)/g;
const COPY_UNESCAPES: Record<string, string> = {
  "\\": "\\",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

export function copyField(value: string): string {
  return COPY_SPECIAL.test(value)
    ? value.replace(COPY_SPECIALS, (character) => COPY_ESCAPES[character])
    : value;
}

/** A text value as COPY ... TO wrote it, unescaped. */
export function copyTextValue(line: string): string {
  return line.includes("\\")
    ? line.replace(COPY_OUT_ESCAPES, (_, code: string) => COPY_UNESCAPES[code])
    : line;
}
