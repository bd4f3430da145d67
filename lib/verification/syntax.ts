import "server-only";
import { domainToASCII } from "node:url";

// A practical RFC 5321 address: a dot-atom local part (no quoted strings, no comments) and a
// domain name of letters, digits and hyphens, internationalised names taken through punycode.
// Every check walks the input once, with no regular expression, so no input can make it slow.

/** An address that passed the syntax check; `domain` is lower-case ASCII (punycode for IDNs). */
export type MailAddress = { local: string; domain: string };

// RFC 5321 §4.5.3.1: a path is at most 256 octets with its angle brackets, so an address 254.
const MAX_ADDRESS = 254;
const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;
const MAX_LABEL = 63;

// RFC 5322 atext besides letters and digits.
const ATEXT_SYMBOLS = new Set("!#$%&'*+-/=?^_`{|}~");

function isLetterOrDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isDotAtom(text: string): boolean {
  if (text.length === 0 || text[0] === "." || text[text.length - 1] === ".") return false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === ".") {
      if (text[i - 1] === ".") return false;
    } else if (!isLetterOrDigit(text.charCodeAt(i)) && !ATEXT_SYMBOLS.has(char)) {
      return false;
    }
  }
  return true;
}

/** Letters, digits and inner hyphens, 1 to 63 octets (RFC 1035 §2.3.1, RFC 5890 for xn-- labels). */
function isLabel(label: string): boolean {
  if (label.length === 0 || label.length > MAX_LABEL) return false;
  if (label[0] === "-" || label[label.length - 1] === "-") return false;
  for (let i = 0; i < label.length; i++) {
    if (label[i] !== "-" && !isLetterOrDigit(label.charCodeAt(i))) return false;
  }
  return true;
}

function asciiDomain(raw: string): string | null {
  // Only these ASCII characters may reach domainToASCII: it would decode `%61` and map other
  // punctuation, turning a malformed name into a valid-looking one.
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code < 128 && code !== 45 && code !== 46 && !isLetterOrDigit(code)) return null;
  }
  const ascii = domainToASCII(raw);
  if (ascii.length === 0 || ascii.length > MAX_DOMAIN) return null;
  const labels = ascii.split(".");
  // A mail domain has a parent: a bare name or a numeric top-level label (an IP address) is refused.
  if (labels.length < 2 || !labels.every(isLabel)) return null;
  const topLevel = labels[labels.length - 1];
  for (let i = 0; i < topLevel.length; i++) {
    const code = topLevel.charCodeAt(i);
    if (code < 48 || code > 57) return ascii;
  }
  return null;
}

// Most addresses of an import or a claim share a few domains: each spelling is read once, from a
// cache emptied whenever it holds this many.
const DOMAIN_CACHE_SIZE = 10_000;
const domains = new Map<string, string | null>();

function cachedAsciiDomain(raw: string): string | null {
  let ascii = domains.get(raw);
  if (ascii === undefined) {
    ascii = asciiDomain(raw);
    if (domains.size >= DOMAIN_CACHE_SIZE) domains.clear();
    domains.set(raw, ascii);
  }
  return ascii;
}

/** The address split and normalised, or null when it is not a deliverable address's form. */
export function parseAddress(input: string): MailAddress | null {
  const text = input.trim();
  // Past this length nothing can be valid; refusing here bounds every later step.
  if (text.length > MAX_ADDRESS) return null;
  const at = text.lastIndexOf("@");
  if (at <= 0) return null;
  const local = text.slice(0, at);
  const domain = cachedAsciiDomain(text.slice(at + 1));
  if (domain === null || local.length > MAX_LOCAL || !isDotAtom(local)) return null;
  if (local.length + 1 + domain.length > MAX_ADDRESS) return null;
  return { local, domain };
}
