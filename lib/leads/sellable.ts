import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";

// A lead is sellable while no buyer's report holds it (quarantine), no check found its address
// invalid (docs/product-rules.md, "Verification") and, for a UK lead, its person's notice has been
// sent (its notice_status, "UK compliance"). Only sellable leads are counted, sampled,
// allocated or given as replacements. The rule itself is lead_sellable() in
// prisma/derived/10-predicates.sql, the one the count triggers apply; TypeScript only quotes it.
// Its columns are unqualified: they name the nearest `leads` row (no other table has them).

/** lead_sellable() as text, for queries written as strings (pool queries). */
export const SELLABLE = "lead_sellable(quarantined_at, email_status, notice_status)";

/** lead_sellable() for Prisma's tagged queries. */
export const SELLABLE_SQL = Prisma.raw(SELLABLE);
