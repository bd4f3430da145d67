-- Where each lead came from and when it was collected (docs/product-rules.md, "UK compliance"):
-- UK GDPR Article 14 has a buyer name the source in their own notice. Leads imported before this
-- migration get a source saying so and their import date as collection date; the defaults then
-- become what an import without a source stores.
ALTER TABLE "leads"
  ADD COLUMN "source" TEXT NOT NULL DEFAULT 'Imported before sources were recorded',
  ADD COLUMN "collected_at" TIMESTAMPTZ(3);
ALTER TABLE "leads" ALTER COLUMN "source" SET DEFAULT 'Not recorded';
-- No rollup reads collected_at: the statement triggers need not compare every row of this backfill.
ALTER TABLE "leads" DISABLE TRIGGER USER;
UPDATE "leads" SET "collected_at" = "created_at";
ALTER TABLE "leads" ENABLE TRIGGER USER;
ALTER TABLE "leads" ALTER COLUMN "collected_at" SET NOT NULL,
  ALTER COLUMN "collected_at" SET DEFAULT now();

-- Per category, its sellable leads per source (the category page's source mix), kept by
-- prisma/derived/20-category-rollups.sql.
CREATE TABLE "category_sources" (
  "category_id" UUID NOT NULL,
  "source" TEXT NOT NULL,
  "leads" INTEGER NOT NULL,
  CONSTRAINT "category_sources_pkey" PRIMARY KEY ("category_id", "source"),
  CONSTRAINT "category_sources_category_id_fkey" FOREIGN KEY ("category_id")
    REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "category_sources" ("category_id", "source", "leads")
SELECT "category_id", "source", count(*)::int FROM "leads"
WHERE lead_sellable("quarantined_at", "email_status") GROUP BY 1, 2;
