-- catalogue_version: every statement that changes what a catalogue page shows bumps it inside its
-- own transaction, so the bump commits with the change and every instance's page cache sees it on
-- its next request (docs/product-rules.md, caching).

CREATE OR REPLACE FUNCTION "bump_catalogue_version"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  UPDATE "catalogue_version" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;

-- Re-checks write every lead they check while most verdicts change nothing a page shows: an update
-- bumps the version only when a lead shown before or after it changed in sellability or in a
-- column the pages read (counts, freshness, status mix, segments, source mix, previews). The list below is
-- those columns; tests/integration/derived.test.ts holds it equal to the columns the pages read
-- (CATALOGUE_PAGE_COLUMNS in lib/categories/page-columns.ts).
CREATE OR REPLACE FUNCTION "leads_catalogue_version_update"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
     WHERE (lead_sellable(o.quarantined_at, o.email_status, o.notice_status) OR lead_sellable(n.quarantined_at, n.email_status, n.notice_status))
       AND (lead_sellable(o.quarantined_at, o.email_status, o.notice_status), o.category_id, o.country, o.verified_at, o.email_status,
            o.first_name, o.last_name, o.job_title, o.company, o.city, o.state, o.facet_region,
            o.facet_seniority, o.facet_department, o.facet_size, o.facet_revenue, o.source)
           IS DISTINCT FROM
           (lead_sellable(n.quarantined_at, n.email_status, n.notice_status), n.category_id, n.country, n.verified_at, n.email_status,
            n.first_name, n.last_name, n.job_title, n.company, n.city, n.state, n.facet_region,
            n.facet_seniority, n.facet_department, n.facet_size, n.facet_revenue, n.source)
  ) THEN
    UPDATE "catalogue_version" SET "version" = "version" + 1 WHERE "id" = 1;
  END IF;
  RETURN NULL;
END $$;

-- Any updated category: its name, image, description or visibility are on the pages.
CREATE OR REPLACE FUNCTION "categories_catalogue_version_update"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows) THEN
    UPDATE "catalogue_version" SET "version" = "version" + 1 WHERE "id" = 1;
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "category_phone_screens_catalogue_version" ON "category_phone_screens";
DROP TRIGGER IF EXISTS "categories_catalogue_version" ON "categories";
DROP TRIGGER IF EXISTS "categories_catalogue_version_update" ON "categories";
DROP TRIGGER IF EXISTS "leads_catalogue_version" ON "leads";
DROP TRIGGER IF EXISTS "leads_catalogue_version_update" ON "leads";
CREATE TRIGGER "categories_catalogue_version" AFTER INSERT OR DELETE OR TRUNCATE ON "categories"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();
CREATE TRIGGER "categories_catalogue_version_update" AFTER UPDATE ON "categories"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "categories_catalogue_version_update"();
CREATE TRIGGER "leads_catalogue_version" AFTER INSERT OR DELETE OR TRUNCATE ON "leads"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();
CREATE TRIGGER "leads_catalogue_version_update" AFTER UPDATE ON "leads"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "leads_catalogue_version_update"();
-- The UK phones' screening figures the category page shows (category_phone_screens).
CREATE TRIGGER "category_phone_screens_catalogue_version" AFTER INSERT OR UPDATE OR DELETE ON "category_phone_screens"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();
