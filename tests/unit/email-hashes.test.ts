// The import's set of email hashes (lib/leads/email-hashes.ts): an email read as ASCII bytes
// (the category's, from COPY) and the same email as a string (the file's) are one entry.
import { describe, expect, it } from "vitest";
import { EmailHashes } from "@/lib/leads/email-hashes";

describe("EmailHashes", () => {
  it("hashes an ASCII email's bytes as its string", () => {
    const emails = Array.from({ length: 5000 }, (_, i) => `person.${i * 7919}@company${i % 97}.example`);
    const fromBytes = new EmailHashes();
    const line = Buffer.from(`x${emails.join("\n")}\n`);
    let start = 1;
    for (const email of emails) {
      expect(fromBytes.addAscii(line, start, start + email.length)).toBe(true);
      start += email.length + 1;
    }
    for (const email of emails) expect(fromBytes.add(email)).toBe(false);
    expect(fromBytes.add("someone.else@company1.example")).toBe(true);
  });
});
