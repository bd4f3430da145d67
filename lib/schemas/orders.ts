import { z } from "zod";

/** `/api/orders/{key}`: any id-like value; one that is no download key is answered 404 like an unknown one. */
export const orderKeyParams = z.object({
  key: z
    .string()
    .min(1, "Invalid order key")
    .max(128, "Invalid order key")
    .regex(/^[A-Za-z0-9_-]+$/, "Invalid order key"),
});

/** Find my orders. */
export const orderLookupBody = z.object({
  email: z
    .string("Email is required")
    .trim()
    .min(1, "Email is required")
    .max(254, "Email must be at most 254 characters")
    .pipe(z.email("Enter a valid email address"))
    .transform((email) => email.toLowerCase()),
});
export type OrderLookupBody = z.input<typeof orderLookupBody>;

/** What `GET /api/orders/{key}` answers (docs/product-rules.md). */
export type OrderSummary = {
  categoryTitle: string;
  packageType: "starter" | "standard" | "premium";
  leadCount: number;
  amount: number;
  status: string;
  paidAt: string | null;
  expiresAt: string | null;
  /** The replacement claim (docs/product-rules.md); null while none was filed. */
  replacement: null;
};
