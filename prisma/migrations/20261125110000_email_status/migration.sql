-- Email verification (docs/product-rules.md, "Verification"): every lead carries the verdict of its
-- last check. Existing leads have never been checked by us: 'unknown'.
CREATE TYPE "EmailStatus" AS ENUM ('valid', 'accept_all', 'unknown', 'invalid');

ALTER TABLE "leads"
  ADD COLUMN "email_status" "EmailStatus" NOT NULL DEFAULT 'unknown',
  ADD COLUMN "email_checked_at" TIMESTAMPTZ(3),
  ADD COLUMN "email_status_reason" TEXT NOT NULL DEFAULT '',
  ADD COLUMN "role_account" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "free_mail" BOOLEAN NOT NULL DEFAULT false;

-- A lead is sellable while no buyer's report holds it (quarantine) and no check found its address
-- invalid: only sellable leads are counted, sampled, allocated or given as replacements.
CREATE FUNCTION "lead_sellable"(quarantined_at TIMESTAMPTZ, email_status "EmailStatus") RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT quarantined_at IS NULL AND email_status <> 'invalid' $$;

-- The freshness and per-country counts follow sellability, as they followed quarantine alone.
CREATE OR REPLACE FUNCTION "category_lead_days_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO category_lead_days AS d (category_id, country, verified_on, leads)
  SELECT category_id, country, (verified_at AT TIME ZONE 'UTC')::date, count(*)::int
  FROM new_rows WHERE lead_sellable(quarantined_at, email_status) GROUP BY 1, 2, 3
  ON CONFLICT (category_id, country, verified_on) DO UPDATE SET leads = d.leads + EXCLUDED.leads;
  UPDATE categories SET imported_at = now() WHERE id IN (SELECT DISTINCT category_id FROM new_rows);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "category_lead_days_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE category_lead_days d SET leads = d.leads - gone.leads
  FROM (SELECT category_id, country, (verified_at AT TIME ZONE 'UTC')::date AS verified_on, count(*)::int AS leads
        FROM old_rows WHERE lead_sellable(quarantined_at, email_status) GROUP BY 1, 2, 3) gone
  WHERE d.category_id = gone.category_id AND d.country = gone.country AND d.verified_on = gone.verified_on;
  DELETE FROM category_lead_days d USING (SELECT DISTINCT category_id FROM old_rows) c
  WHERE d.category_id = c.category_id AND d.leads <= 0;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "category_lead_days_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only rows whose category, country, verified day or sellability changed move between buckets.
  INSERT INTO category_lead_days AS d (category_id, country, verified_on, leads)
  SELECT category_id, country, verified_on, sum(leads)::int
  FROM (
    SELECT o.category_id, o.country, (o.verified_at AT TIME ZONE 'UTC')::date AS verified_on, -1 AS leads
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE lead_sellable(o.quarantined_at, o.email_status)
      AND (o.category_id, o.country, o.verified_at, lead_sellable(n.quarantined_at, n.email_status))
          IS DISTINCT FROM (n.category_id, n.country, n.verified_at, true)
    UNION ALL
    SELECT n.category_id, n.country, (n.verified_at AT TIME ZONE 'UTC')::date, 1
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE lead_sellable(n.quarantined_at, n.email_status)
      AND (n.category_id, n.country, n.verified_at, lead_sellable(o.quarantined_at, o.email_status))
          IS DISTINCT FROM (o.category_id, o.country, o.verified_at, true)
  ) delta
  GROUP BY 1, 2, 3 HAVING sum(leads) <> 0
  ON CONFLICT (category_id, country, verified_on) DO UPDATE SET leads = d.leads + EXCLUDED.leads;
  DELETE FROM category_lead_days d WHERE d.leads <= 0
    AND d.category_id IN (SELECT category_id FROM old_rows UNION SELECT category_id FROM new_rows);
  RETURN NULL;
END $$;
