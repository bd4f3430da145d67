import { z } from "zod";

/** PostgreSQL text cannot hold NUL: refusing it here makes such input a 400, not a database error. */
export const hasNoNul = (value: string) => !value.includes("\u0000");
export const NUL_MESSAGE = "Must not contain NUL characters";

/**
 * A zod failure as the API's `errors` map (field path to its first message): what a 400 answers
 * and what a form shows beside its fields before sending.
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    errors[key] ??= issue.message;
  }
  return errors;
}

export const uuidParams = z.object({ id: z.uuid("Invalid id") });

/** An email address as every form and body takes it: trimmed, at most 254 characters, valid. */
export const emailAddress = z
  .string("Email is required")
  .trim()
  .min(1, "Email is required")
  .max(254, "Email must be at most 254 characters")
  .pipe(z.email("Enter a valid email address"));

/** A person's email as the self-service forms take it (find my orders, privacy requests): lower-cased. */
export const personEmail = emailAddress.transform((email) => email.toLowerCase());

/**
 * Public preview paging stops at page 100: each page is an OFFSET scan, and page 100 of 100 reads
 * 10,000 previews (page 1000 read 100,000, 140 ms of database time a request under a burst).
 */
export const MAX_PREVIEW_PAGE = 100;

export const pagination = z.object({
  page: z.coerce.number().int().min(1).max(MAX_PREVIEW_PAGE).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
