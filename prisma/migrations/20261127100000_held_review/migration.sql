-- The admin's review of rows held under the 20% cap (docs/product-rules.md, "Replacement
-- claims"): held rows the admin declined, kept on the claim so its buyer is told.
ALTER TABLE "replacement_claims" ADD COLUMN "declined" INTEGER NOT NULL DEFAULT 0;

-- The rows still held, found without reading every report (the Categories tab counts them per
-- category, and the review lists their claims).
CREATE INDEX "replacement_reports_held_idx" ON "replacement_reports" ("order_id") WHERE "held" = true;
