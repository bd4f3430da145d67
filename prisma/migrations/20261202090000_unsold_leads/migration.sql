-- unsold_leads: the leads no paid order has delivered (those without a lead_sales row), narrow and
-- in the order allocation walks them (lib/leads/allocation.ts). A category's most recently verified
-- leads are the ones sold first, so walking all of its leads passed every sold one before the
-- first unsold; this walk starts at the unsold ones. Kept by triggers on leads and lead_sales
-- (prisma/derived/30-lead-sales.sql).
CREATE TABLE "unsold_leads" (
    "lead_id" BIGINT NOT NULL,
    "category_id" UUID NOT NULL,
    "country" "Country" NOT NULL,
    "verified_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "unsold_leads_pkey" PRIMARY KEY ("lead_id")
);

INSERT INTO "unsold_leads" ("lead_id", "category_id", "country", "verified_at")
SELECT l."id", l."category_id", l."country", l."verified_at" FROM "leads" l
 WHERE NOT EXISTS (SELECT 1 FROM "lead_sales" s WHERE s."category_id" = l."category_id" AND s."lead_id" = l."id")
 -- In the walk's order, as prisma/derived/30-lead-sales.sql inserts: a sale's removals share pages.
 ORDER BY l."category_id", l."country", l."verified_at" DESC, l."id";

CREATE INDEX "unsold_leads_category_id_country_verified_at_lead_id_idx"
    ON "unsold_leads"("category_id", "country", "verified_at" DESC, "lead_id");
