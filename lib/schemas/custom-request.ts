import { z } from "zod";
import { emailAddress, hasNoNul, NUL_MESSAGE } from "@/lib/schemas/common";

// The custom lead request, shared by the form (choices, defaults, client checks) and by
// POST /api/custom-request (the authoritative validation).

export const PLATFORMS = [
  { value: "linkedin", label: "LinkedIn" },
  { value: "facebook", label: "Facebook" },
  { value: "instagram", label: "Instagram" },
  { value: "slack", label: "Slack" },
] as const;

export const INDUSTRIES = [
  { value: "saas", label: "SaaS" },
  { value: "healthcare", label: "Healthcare" },
  { value: "finance", label: "Finance" },
  { value: "ecommerce", label: "E-commerce" },
  { value: "education", label: "Education" },
  { value: "other", label: "Other" },
] as const;

export const ROLES = [
  { value: "ceo", label: "CEO / Founder" },
  { value: "cto", label: "CTO" },
  { value: "marketing", label: "Marketing" },
  { value: "sales", label: "Sales" },
  { value: "hr", label: "HR" },
  { value: "developer", label: "Developer" },
  { value: "other", label: "Other" },
] as const;

type Values<T extends readonly { value: string }[]> = T[number]["value"];
export type Platform = Values<typeof PLATFORMS>;
export type Industry = Values<typeof INDUSTRIES>;
export type Role = Values<typeof ROLES>;

const values = <T extends readonly { value: string }[]>(list: T) =>
  list.map((item) => item.value) as [Values<T>, ...Values<T>[]];

export const platformSchema = z.enum(values(PLATFORMS), "Unknown platform");
export const industrySchema = z.enum(values(INDUSTRIES), "Choose one of the listed industries");
export const roleSchema = z.enum(values(ROLES), "Choose one of the listed roles");

/** The form's state per docs/product-rules.md; platforms is one toggle per platform. */
export type CustomRequestFormState = {
  platforms: Record<Platform, boolean>;
  industry: Industry;
  role: Role;
  message: string;
  name: string;
  email: string;
};

export const CUSTOM_REQUEST_DEFAULTS: CustomRequestFormState = {
  platforms: { linkedin: true, facebook: false, instagram: false, slack: false },
  industry: "saas",
  role: "ceo",
  message: "",
  name: "",
  email: "",
};

/** Attachment limits (docs/product-rules.md); the server enforces them, the form states them. */
export const MAX_FILES = 5;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const ACCEPTED_EXTENSIONS = ["pdf", "doc", "docx", "csv", "xls", "xlsx"] as const;
export type AcceptedExtension = (typeof ACCEPTED_EXTENSIONS)[number];

export function fileExtension(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot === -1 ? "" : fileName.slice(dot + 1).toLowerCase();
}

export function hasAcceptedExtension(fileName: string): boolean {
  return (ACCEPTED_EXTENSIONS as readonly string[]).includes(fileExtension(fileName));
}

// Names go into mail subjects and headers: refuse control characters (CR/LF header injection).
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * Platforms arrive as a list (JSON array, repeated multipart values) or as the form's object of
 * toggles; both become a de-duplicated list in the canonical order.
 */
const platformsSchema = z
  .union([z.array(platformSchema).max(PLATFORMS.length * 2), z.partialRecord(platformSchema, z.boolean())])
  .transform((input) => {
    const chosen = Array.isArray(input)
      ? new Set(input)
      : new Set(Object.entries(input).flatMap(([key, on]) => (on ? [key] : [])));
    return PLATFORMS.map((platform) => platform.value).filter((value) => chosen.has(value));
  });

export const customRequestSchema = z.object({
  name: z
    .string("Name is required")
    .trim()
    .min(1, "Name is required")
    .max(200, "Name must be at most 200 characters")
    .refine((value) => !CONTROL_CHARACTERS.test(value), "Name must not contain control characters"),
  email: emailAddress,
  industry: industrySchema.default("saas"),
  role: roleSchema.default("ceo"),
  message: z
    .string()
    .trim()
    .max(5000, "Message must be at most 5000 characters")
    .refine(hasNoNul, NUL_MESSAGE)
    .default(""),
  platforms: platformsSchema.default([]),
  // Honeypot: hidden from people, so anything in it came from a bot that fills every field.
  website: z.string().max(1000).optional(),
});

export type CustomRequestInput = z.input<typeof customRequestSchema>;
export type CustomRequest = z.output<typeof customRequestSchema>;

/** What the API answers on success. */
export type CustomRequestCreated = { success: true; _id: string };

/** The form's state as the list of chosen platform names, in the canonical order. */
export function chosenPlatforms(platforms: Record<Platform, boolean>): Platform[] {
  return PLATFORMS.map((platform) => platform.value).filter((value) => platforms[value]);
}
