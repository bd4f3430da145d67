-- Replacement claims within a budget (docs/product-rules.md, "Replacement claims").

-- When the verification provider last gave the lead its verdict: a verdict under 24 hours old is
-- reused by claims and re-checks instead of asking again.
ALTER TABLE "leads" ADD COLUMN "provider_checked_at" TIMESTAMPTZ(3);

-- Reported by buyers of two or more orders: in the admin's review, and still on sale. Buyers'
-- reports no longer quarantine a lead; those they quarantined go back on sale, flagged.
ALTER TABLE "leads" ADD COLUMN "flagged_at" TIMESTAMPTZ(3);
UPDATE "leads" SET "flagged_at" = "quarantined_at", "quarantined_at" = NULL WHERE "quarantined_at" IS NOT NULL;
CREATE INDEX "leads_flagged_category_id_idx" ON "leads"("category_id") WHERE "flagged_at" IS NOT NULL;

-- The order's claim attempts of the last 24 hours (at most 3).
ALTER TABLE "orders" ADD COLUMN "claim_attempts" TIMESTAMPTZ(3)[] NOT NULL DEFAULT '{}';
