-- The admin's side of verification (docs/product-rules.md, "Verification").

-- The verification provider's key, sealed like the payment provider's (lib/settings/crypto.ts).
ALTER TABLE "settings" ADD COLUMN "email_verifier_api_key_enc" TEXT;

-- "Re-check now": one row per category the admin asked to re-check. The background workers sweep
-- the category's sellable leads last verified or checked before `requested_at`, in the order of
-- leads_recheck_due_idx, past the shared cursor (`cursor_at`, `cursor_id`: any instance carries on
-- where another stopped), counting the leads they took in `checked`, until none is left.
CREATE TABLE "recheck_requests" (
    "category_id" UUID NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL,
    "total" INTEGER NOT NULL,
    "checked" INTEGER NOT NULL DEFAULT 0,
    "cursor_at" TIMESTAMPTZ(3),
    "cursor_id" BIGINT NOT NULL DEFAULT 0,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "recheck_requests_pkey" PRIMARY KEY ("category_id")
);

ALTER TABLE "recheck_requests" ADD CONSTRAINT "recheck_requests_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A category's sellable leads by their last verification or check (lib/leads/recheck.ts): a
-- requested re-check walks it, and the leads due on the cutoff's own day are counted from it (the
-- included columns allow an index-only scan).
CREATE INDEX "leads_recheck_due_idx"
  ON "leads" ("category_id", (GREATEST("verified_at", "email_checked_at")), "id")
  INCLUDE ("verified_at", "email_checked_at")
  WHERE lead_sellable("quarantined_at", "email_status");

-- Sellable leads per category and UTC day of their last verification or check (the later of
-- verified_at and email_checked_at): the leads due for a re-check are summed from it (and the
-- cutoff's own day counted from leads_recheck_due_idx), never counted from the leads. Kept exact by
-- the statement triggers on leads, with category_lead_days.
CREATE TABLE "category_check_days" (
    "category_id" UUID NOT NULL,
    "checked_on" DATE NOT NULL,
    "leads" INTEGER NOT NULL,

    CONSTRAINT "category_check_days_pkey" PRIMARY KEY ("category_id", "checked_on")
);

ALTER TABLE "category_check_days" ADD CONSTRAINT "category_check_days_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE FUNCTION "lead_checked_on"(verified_at TIMESTAMPTZ, email_checked_at TIMESTAMPTZ) RETURNS date
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (GREATEST(verified_at, email_checked_at) AT TIME ZONE 'UTC')::date $$;

-- One pass over an insert's new rows feeds both rollups and the counts (an import of a million
-- rows pays for one scan of them, not one per rollup): category_lead_days_add as the re-check
-- migration defined it, with category_check_days.
CREATE OR REPLACE FUNCTION "category_lead_days_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH added AS MATERIALIZED (
    SELECT category_id, country, (verified_at AT TIME ZONE 'UTC')::date AS verified_on, email_status,
           lead_checked_on(verified_at, email_checked_at) AS checked_on,
           lead_sellable(quarantined_at, email_status) AS sellable, count(*)::int AS leads
    FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6
  ), days AS (
    INSERT INTO category_lead_days AS d (category_id, country, verified_on, email_status, leads)
    SELECT category_id, country, verified_on, email_status, sum(leads)::int FROM added WHERE sellable
    GROUP BY 1, 2, 3, 4
    ON CONFLICT (category_id, country, verified_on, email_status) DO UPDATE SET leads = d.leads + EXCLUDED.leads
  ), checks AS (
    INSERT INTO category_check_days AS d (category_id, checked_on, leads)
    SELECT category_id, checked_on, sum(leads)::int FROM added WHERE sellable GROUP BY 1, 2
    ON CONFLICT (category_id, checked_on) DO UPDATE SET leads = d.leads + EXCLUDED.leads
  )
  UPDATE categories c SET count = c.count + a.leads, imported_at = now()
  FROM (SELECT category_id, (COALESCE(sum(leads) FILTER (WHERE sellable), 0))::int AS leads FROM added GROUP BY 1) a
  WHERE c.id = a.category_id;
  RETURN NULL;
END $$;

CREATE FUNCTION "category_check_days_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE category_check_days d SET leads = d.leads - gone.leads
  FROM (SELECT category_id, lead_checked_on(verified_at, email_checked_at) AS checked_on, count(*)::int AS leads
        FROM old_rows WHERE lead_sellable(quarantined_at, email_status) GROUP BY 1, 2) gone
  WHERE d.category_id = gone.category_id AND d.checked_on = gone.checked_on;
  DELETE FROM category_check_days d USING (SELECT DISTINCT category_id FROM old_rows) c
  WHERE d.category_id = c.category_id AND d.leads <= 0;
  RETURN NULL;
END $$;

CREATE FUNCTION "category_check_days_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only rows whose category, day of last check or sellability changed move between buckets.
  INSERT INTO category_check_days AS d (category_id, checked_on, leads)
  SELECT category_id, checked_on, sum(leads)::int
  FROM (
    SELECT o.category_id, lead_checked_on(o.verified_at, o.email_checked_at) AS checked_on, -1 AS leads
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE lead_sellable(o.quarantined_at, o.email_status)
      AND (o.category_id, lead_checked_on(o.verified_at, o.email_checked_at), lead_sellable(n.quarantined_at, n.email_status))
          IS DISTINCT FROM (n.category_id, lead_checked_on(n.verified_at, n.email_checked_at), true)
    UNION ALL
    SELECT n.category_id, lead_checked_on(n.verified_at, n.email_checked_at), 1
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE lead_sellable(n.quarantined_at, n.email_status)
      AND (n.category_id, lead_checked_on(n.verified_at, n.email_checked_at), lead_sellable(o.quarantined_at, o.email_status))
          IS DISTINCT FROM (o.category_id, lead_checked_on(o.verified_at, o.email_checked_at), true)
  ) delta
  GROUP BY 1, 2 HAVING sum(leads) <> 0
  ON CONFLICT (category_id, checked_on) DO UPDATE SET leads = d.leads + EXCLUDED.leads;
  DELETE FROM category_check_days d WHERE d.leads <= 0
    AND d.category_id IN (SELECT category_id FROM old_rows UNION SELECT category_id FROM new_rows);
  RETURN NULL;
END $$;

CREATE TRIGGER "leads_check_days_delete" AFTER DELETE ON "leads"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "category_check_days_remove"();
CREATE TRIGGER "leads_check_days_update" AFTER UPDATE ON "leads"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "category_check_days_move"();

INSERT INTO category_check_days (category_id, checked_on, leads)
SELECT category_id, lead_checked_on(verified_at, email_checked_at), count(*)::int FROM leads
WHERE lead_sellable(quarantined_at, email_status) GROUP BY 1, 2;

-- Re-checks write every lead they check (email_checked_at) while most verdicts change nothing a
-- page shows, and the count triggers run an UPDATE of categories that may touch no row. The
-- catalogue_version bump (which flushes every instance's cached pages) now follows only changes a
-- page can show: an updated category, or a lead shown before or after the update that changed in
-- sellability or in a column the pages read (counts, freshness, status mix, segments, previews in
-- lib/leads/previews.ts). A column the pages come to read belongs in this list.
DROP TRIGGER "leads_catalogue_version" ON "leads";
CREATE TRIGGER "leads_catalogue_version"
  AFTER INSERT OR DELETE OR TRUNCATE ON "leads"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();

CREATE FUNCTION "leads_catalogue_version_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
     WHERE (lead_sellable(o.quarantined_at, o.email_status) OR lead_sellable(n.quarantined_at, n.email_status))
       AND (lead_sellable(o.quarantined_at, o.email_status), o.category_id, o.country, o.verified_at, o.email_status,
            o.first_name, o.last_name, o.job_title, o.company, o.city, o.state, o.facet_region,
            o.facet_seniority, o.facet_department, o.facet_size, o.facet_revenue)
           IS DISTINCT FROM
           (lead_sellable(n.quarantined_at, n.email_status), n.category_id, n.country, n.verified_at, n.email_status,
            n.first_name, n.last_name, n.job_title, n.company, n.city, n.state, n.facet_region,
            n.facet_seniority, n.facet_department, n.facet_size, n.facet_revenue)
  ) THEN
    UPDATE "catalogue_version" SET "version" = "version" + 1 WHERE "id" = 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "leads_catalogue_version_update"
  AFTER UPDATE ON "leads" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "leads_catalogue_version_update"();

DROP TRIGGER "categories_catalogue_version" ON "categories";
CREATE TRIGGER "categories_catalogue_version"
  AFTER INSERT OR DELETE OR TRUNCATE ON "categories"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();

CREATE FUNCTION "categories_catalogue_version_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows) THEN
    UPDATE "catalogue_version" SET "version" = "version" + 1 WHERE "id" = 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "categories_catalogue_version_update"
  AFTER UPDATE ON "categories" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "categories_catalogue_version_update"();
