-- The admin's review of leads held under the 20% cap (docs/product-rules.md, "Replacement
-- claims"): held rows the admin declined, kept on the claim so its buyer is told.
ALTER TABLE "replacement_claims" ADD COLUMN "declined" INTEGER NOT NULL DEFAULT 0;
