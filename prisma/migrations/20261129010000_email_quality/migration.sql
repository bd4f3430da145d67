-- Email quality at checkout (docs/product-rules.md, "Email quality"): an order accepts any sellable
-- status (as before), valid and accept-all, or valid only.
CREATE TYPE "EmailQuality" AS ENUM ('any', 'deliverable', 'valid');

ALTER TABLE "orders" ADD COLUMN "email_quality" "EmailQuality" NOT NULL DEFAULT 'any';

-- Segment counts follow the choice, so the segments rollup is kept per email status too
-- (prisma/derived/20-category-rollups.sql keeps it); its rows are counted again here.
ALTER TABLE "category_segments" DROP CONSTRAINT "category_segments_pkey";
DELETE FROM "category_segments";
ALTER TABLE "category_segments" ADD COLUMN "email_status" "EmailStatus" NOT NULL;
INSERT INTO "category_segments" (category_id, country, email_status, region, seniority, department, size, revenue, leads)
SELECT category_id, country, email_status, facet_region, facet_seniority, facet_department, facet_size, facet_revenue,
       count(*)::int
FROM leads WHERE lead_sellable(quarantined_at, email_status) GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
ALTER TABLE "category_segments" ADD CONSTRAINT "category_segments_pkey"
  PRIMARY KEY ("category_id", "country", "email_status", "region", "seniority", "department", "size", "revenue");
