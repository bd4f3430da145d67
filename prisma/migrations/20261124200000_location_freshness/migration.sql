-- Location and freshness (docs/product-rules.md, "Location" and "Freshness").

-- AlterTable: the country an order delivers; orders made before it were USA lists.
ALTER TABLE "orders" ADD COLUMN "location" "Country" NOT NULL DEFAULT 'USA';

-- AlterTable: when leads were last added to the category (the public `updatedAt`).
ALTER TABLE "categories" ADD COLUMN "imported_at" TIMESTAMPTZ(3);

-- CreateTable: sellable (not quarantined) leads per category, country and UTC day of
-- verification, as categories.count counts them. Per-country counts and
-- the share verified in the last 30 days are sums over a few hundred rows per category instead of
-- a count over its leads; the triggers below keep it exact for every insert, delete and update.
CREATE TABLE "category_lead_days" (
    "category_id" UUID NOT NULL,
    "country" "Country" NOT NULL,
    "verified_on" DATE NOT NULL,
    "leads" INTEGER NOT NULL,

    CONSTRAINT "category_lead_days_pkey" PRIMARY KEY ("category_id","country","verified_on")
);

-- CreateIndex: allocation and previews read one country's most recently verified leads first.
CREATE INDEX "leads_category_id_country_verified_at_id_idx" ON "leads"("category_id", "country", "verified_at" DESC, "id");

-- AddForeignKey
ALTER TABLE "category_lead_days" ADD CONSTRAINT "category_lead_days_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Statement-level triggers with transition tables: one grouped upsert per statement, whatever
-- inserts or deletes leads (import, seed, erasure, category delete), at no per-row cost.
CREATE FUNCTION "category_lead_days_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO category_lead_days AS d (category_id, country, verified_on, leads)
  SELECT category_id, country, (verified_at AT TIME ZONE 'UTC')::date, count(*)::int
  FROM new_rows WHERE quarantined_at IS NULL GROUP BY 1, 2, 3
  ON CONFLICT (category_id, country, verified_on) DO UPDATE SET leads = d.leads + EXCLUDED.leads;
  UPDATE categories SET imported_at = now() WHERE id IN (SELECT DISTINCT category_id FROM new_rows);
  RETURN NULL;
END $$;

CREATE FUNCTION "category_lead_days_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE category_lead_days d SET leads = d.leads - gone.leads
  FROM (SELECT category_id, country, (verified_at AT TIME ZONE 'UTC')::date AS verified_on, count(*)::int AS leads
        FROM old_rows WHERE quarantined_at IS NULL GROUP BY 1, 2, 3) gone
  WHERE d.category_id = gone.category_id AND d.country = gone.country AND d.verified_on = gone.verified_on;
  DELETE FROM category_lead_days d USING (SELECT DISTINCT category_id FROM old_rows) c
  WHERE d.category_id = c.category_id AND d.leads <= 0;
  RETURN NULL;
END $$;

CREATE FUNCTION "category_lead_days_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only rows whose category, country, verified day or quarantine changed move between buckets.
  INSERT INTO category_lead_days AS d (category_id, country, verified_on, leads)
  SELECT category_id, country, verified_on, sum(leads)::int
  FROM (
    SELECT o.category_id, o.country, (o.verified_at AT TIME ZONE 'UTC')::date AS verified_on, -1 AS leads
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.quarantined_at IS NULL
      AND (o.category_id, o.country, o.verified_at, n.quarantined_at IS NULL)
          IS DISTINCT FROM (n.category_id, n.country, n.verified_at, true)
    UNION ALL
    SELECT n.category_id, n.country, (n.verified_at AT TIME ZONE 'UTC')::date, 1
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE n.quarantined_at IS NULL
      AND (n.category_id, n.country, n.verified_at, o.quarantined_at IS NULL)
          IS DISTINCT FROM (o.category_id, o.country, o.verified_at, true)
  ) delta
  GROUP BY 1, 2, 3 HAVING sum(leads) <> 0
  ON CONFLICT (category_id, country, verified_on) DO UPDATE SET leads = d.leads + EXCLUDED.leads;
  DELETE FROM category_lead_days d WHERE d.leads <= 0
    AND d.category_id IN (SELECT category_id FROM old_rows UNION SELECT category_id FROM new_rows);
  RETURN NULL;
END $$;

CREATE TRIGGER "leads_days_insert" AFTER INSERT ON "leads"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "category_lead_days_add"();
CREATE TRIGGER "leads_days_delete" AFTER DELETE ON "leads"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "category_lead_days_remove"();
CREATE TRIGGER "leads_days_update" AFTER UPDATE ON "leads"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "category_lead_days_move"();

-- Backfill for existing data.
INSERT INTO category_lead_days (category_id, country, verified_on, leads)
SELECT category_id, country, (verified_at AT TIME ZONE 'UTC')::date, count(*)::int FROM leads
WHERE quarantined_at IS NULL GROUP BY 1, 2, 3;
UPDATE categories SET imported_at = updated_at WHERE count > 0;
