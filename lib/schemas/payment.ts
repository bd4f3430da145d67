import { z } from "zod";
import { DEFAULT_LOCATION, LOCATIONS } from "@/lib/location";
import { DOWNLOAD_FORMATS } from "@/lib/schemas/formats";
import { PACKAGE_IDS } from "@/lib/packages";
import { personEmail } from "@/lib/schemas/common";
import { emailQualityField } from "@/lib/schemas/email-quality";
import { segmentBody } from "@/lib/segments/schema";

// The product's create payload. Only categoryId, packageType and location are trusted; the client's
// amount, leadCount and titles are accepted (so the product's client works unchanged) but never used: the
// server's package table decides price and count.
export const createPaymentBody = z
  .object({
    categoryId: z.uuid("Invalid category id"),
    packageType: z.enum(PACKAGE_IDS, "Choose starter, standard or premium").optional(),
    selectedPackage: z.enum(PACKAGE_IDS, "Choose starter, standard or premium").optional(),
    // The category filter's state: the country whose leads the order delivers.
    location: z.enum(LOCATIONS, "Choose USA or UK").default(DEFAULT_LOCATION),
    // The category page's segment filters (lib/segments): only leads of the segment fill the order.
    segment: segmentBody.optional(),
    // Which email statuses the order accepts (lib/email-quality.ts): any (the default), deliverable, valid.
    emailQuality: emailQualityField,
    // The buyer's "Exclude contacts I already have" list (POST /api/suppression-lists).
    suppressionListId: z.uuid("Invalid exclusion list id").optional(),
    amount: z.unknown().optional(),
    leadId: z.unknown().optional(),
    leadCount: z.unknown().optional(),
    leadTitle: z.unknown().optional(),
    // "Email me my download link": optional; an empty field means no email.
    email: z
      .string("Enter a valid email address")
      .trim()
      .transform((value) => value || undefined)
      .pipe(personEmail.optional())
      .optional(),
  })
  .refine((body) => body.packageType ?? body.selectedPackage, {
    message: "Choose starter, standard or premium",
    path: ["packageType"],
  })
  .transform((body) => ({
    categoryId: body.categoryId,
    packageType: (body.packageType ?? body.selectedPackage)!,
    location: body.location,
    segment: body.segment ?? null,
    emailQuality: body.emailQuality,
    email: body.email,
    suppressionListId: body.suppressionListId,
  }));

export type CreatePaymentBody = z.input<typeof createPaymentBody>;
/** What the browser sends: only what the server reads. */
export type CreatePaymentRequest = Pick<
  CreatePaymentBody,
  "categoryId" | "packageType" | "location" | "email" | "segment" | "emailQuality" | "suppressionListId"
>;

/** Our invoice ids, the provider's invoice and payment ids (digits), or test-mode ids. */
const paymentIdText = z
  .string()
  .min(1, "Invalid payment id")
  .max(128, "Invalid payment id")
  .regex(/^[A-Za-z0-9_-]+$/, "Invalid payment id");

export const paymentIdParams = z.object({ id: paymentIdText });

/** The status check's optional NP_id: the provider's payment id a returning tab carries with the key. */
export const paymentStatusQuery = z.object({
  NP_id: paymentIdText.optional(),
});

/** The test payment page's form (test mode only): Pay or Cancel. */
export const testPaymentForm = z.object({ action: z.enum(["pay", "cancel"], "Choose pay or cancel") });

export const downloadQuery = z.object({
  format: z.enum(DOWNLOAD_FORMATS, `Format must be one of ${DOWNLOAD_FORMATS.join(", ")}`).default("csv"),
  // The product's client sends these; the order decides what is delivered.
  category: z.string().max(200).optional(),
  count: z.string().max(20).optional(),
});

/** The create answer; `paymentId` is the order's download key, never a provider id. */
export const createPaymentAnswer = z.object({
  success: z.literal(true),
  paymentId: z.string(),
  invoiceUrl: z.string(),
});
export type CreatePaymentAnswer = z.infer<typeof createPaymentAnswer>;

/** The status answer (docs/product-rules.md): `paid` is the server's verdict, which the client follows. */
export const paymentStatusAnswer = z.object({
  success: z.literal(true),
  status: z.string(),
  amount: z.number(),
  paid: z.boolean(),
});
export type PaymentStatusAnswer = z.infer<typeof paymentStatusAnswer>;

/** The admin's Recheck: a payment id for an order that has none stored (optional). */
export const recheckBody = z.object({
  paymentId: paymentIdText.optional(),
});
