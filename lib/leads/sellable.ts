import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";

// A lead is sellable while no buyer's report holds it (quarantine) and no check found its address
// invalid (docs/product-rules.md, "Verification"). Only sellable leads are counted, sampled,
// allocated or given as replacements. The SQL form is lead_sellable() from the migrations, the
// same rule the count triggers apply.
export const sellableLead = {
  quarantinedAt: null,
  emailStatus: { not: "invalid" },
} satisfies Prisma.LeadWhereInput;

export const SELLABLE_SQL = Prisma.sql`lead_sellable(quarantined_at, email_status)`;
