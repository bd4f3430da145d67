import { z } from "zod";
import { personEmail } from "@/lib/schemas/common";

// GDPR requests (docs/product-rules.md, "Privacy requests"), shared by the public form, the confirmation page and the handlers.

export const PRIVACY_KINDS = ["access", "erasure"] as const;
export type PrivacyKind = (typeof PRIVACY_KINDS)[number];

export const privacyRequestBody = z.object({
  email: personEmail,
  kind: z.enum(PRIVACY_KINDS, "Choose access or erasure"),
});
export type PrivacyRequestBody = z.input<typeof privacyRequestBody>;

export const privacyConfirmBody = z.object({
  token: z
    .string("The confirmation link is incomplete")
    .min(1, "The confirmation link is incomplete")
    .max(2000),
});

export type PrivacyConfirmAnswer = {
  success: true;
  kind: PrivacyKind;
  /** completed now, or earlier by another click on the same link. */
  state: "completed" | "already_completed";
};

/** The opt-out of a notice's link (docs/product-rules.md, "UK compliance"). */
export type NoticeOptOutAnswer = {
  success: true;
  /** erased now, or earlier by another click on the same link. */
  state: "completed" | "already_completed";
};

/** One request in the admin's list: never the clear-text email. */
export type PrivacyRequestDto = {
  _id: string;
  kind: PrivacyKind;
  maskedEmail: string;
  state: "pending" | "completed" | "expired";
  createdAt: string;
  confirmedAt: string | null;
};
