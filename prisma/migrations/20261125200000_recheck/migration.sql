-- Re-checks (docs/product-rules.md, "Verification").

-- The rollup of sellable leads gains their email status, so a category page shows its status mix
-- from the same few hundred rows as its counts and freshness.
ALTER TABLE "category_lead_days" ADD COLUMN "email_status" "EmailStatus" NOT NULL DEFAULT 'unknown';
ALTER TABLE "category_lead_days" DROP CONSTRAINT "category_lead_days_pkey";
ALTER TABLE "category_lead_days"
  ADD CONSTRAINT "category_lead_days_pkey" PRIMARY KEY ("category_id", "country", "verified_on", "email_status");

-- categories.count (what a category can sell) follows the same rule as the rollup, moved by the
-- same statement triggers: whatever inserts, deletes, quarantines, releases or invalidates leads,
-- the count cannot drift from the leads.
CREATE OR REPLACE FUNCTION "category_lead_days_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO category_lead_days AS d (category_id, country, verified_on, email_status, leads)
  SELECT category_id, country, (verified_at AT TIME ZONE 'UTC')::date, email_status, count(*)::int
  FROM new_rows WHERE lead_sellable(quarantined_at, email_status) GROUP BY 1, 2, 3, 4
  ON CONFLICT (category_id, country, verified_on, email_status) DO UPDATE SET leads = d.leads + EXCLUDED.leads;
  UPDATE categories c SET count = c.count + added.leads, imported_at = now()
  FROM (SELECT category_id, count(*) FILTER (WHERE lead_sellable(quarantined_at, email_status))::int AS leads
        FROM new_rows GROUP BY 1) added
  WHERE c.id = added.category_id;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "category_lead_days_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE category_lead_days d SET leads = d.leads - gone.leads
  FROM (SELECT category_id, country, (verified_at AT TIME ZONE 'UTC')::date AS verified_on, email_status,
               count(*)::int AS leads
        FROM old_rows WHERE lead_sellable(quarantined_at, email_status) GROUP BY 1, 2, 3, 4) gone
  WHERE d.category_id = gone.category_id AND d.country = gone.country AND d.verified_on = gone.verified_on
    AND d.email_status = gone.email_status;
  DELETE FROM category_lead_days d USING (SELECT DISTINCT category_id FROM old_rows) c
  WHERE d.category_id = c.category_id AND d.leads <= 0;
  UPDATE categories c SET count = c.count - gone.leads
  FROM (SELECT category_id, count(*)::int AS leads FROM old_rows
        WHERE lead_sellable(quarantined_at, email_status) GROUP BY 1) gone
  WHERE c.id = gone.category_id;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "category_lead_days_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only rows whose category, country, verified day, status or sellability changed move between
  -- buckets; the categories' counts move by the sellable rows each gained or lost.
  WITH delta AS (
    SELECT o.category_id, o.country, (o.verified_at AT TIME ZONE 'UTC')::date AS verified_on, o.email_status,
           -1 AS leads
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE lead_sellable(o.quarantined_at, o.email_status)
      AND (o.category_id, o.country, o.verified_at, o.email_status, lead_sellable(n.quarantined_at, n.email_status))
          IS DISTINCT FROM (n.category_id, n.country, n.verified_at, n.email_status, true)
    UNION ALL
    SELECT n.category_id, n.country, (n.verified_at AT TIME ZONE 'UTC')::date, n.email_status, 1
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE lead_sellable(n.quarantined_at, n.email_status)
      AND (n.category_id, n.country, n.verified_at, n.email_status, lead_sellable(o.quarantined_at, o.email_status))
          IS DISTINCT FROM (o.category_id, o.country, o.verified_at, o.email_status, true)
  ), days AS (
    INSERT INTO category_lead_days AS d (category_id, country, verified_on, email_status, leads)
    SELECT category_id, country, verified_on, email_status, sum(leads)::int FROM delta
    GROUP BY 1, 2, 3, 4 HAVING sum(leads) <> 0
    ON CONFLICT (category_id, country, verified_on, email_status) DO UPDATE SET leads = d.leads + EXCLUDED.leads
  )
  UPDATE categories c SET count = c.count + moved.leads
  FROM (SELECT category_id, sum(leads)::int AS leads FROM delta GROUP BY 1 HAVING sum(leads) <> 0) moved
  WHERE c.id = moved.category_id;
  DELETE FROM category_lead_days d WHERE d.leads <= 0
    AND d.category_id IN (SELECT category_id FROM old_rows UNION SELECT category_id FROM new_rows);
  RETURN NULL;
END $$;

-- The rollup and the counts rebuilt once from the leads, with the status.
DELETE FROM category_lead_days;
INSERT INTO category_lead_days (category_id, country, verified_on, email_status, leads)
SELECT category_id, country, (verified_at AT TIME ZONE 'UTC')::date, email_status, count(*)::int FROM leads
WHERE lead_sellable(quarantined_at, email_status) GROUP BY 1, 2, 3, 4;
UPDATE categories c SET count = COALESCE((SELECT sum(leads) FROM category_lead_days d WHERE d.category_id = c.id), 0);

-- The verification provider's use per calendar month (UTC): addresses sent (capped by
-- EMAIL_VERIFIER_MONTHLY_LIMIT), addresses our checks found invalid, and the last error, shown to
-- the admin.
CREATE TABLE "verifier_months" (
    "month" DATE NOT NULL,
    "sent" INTEGER NOT NULL DEFAULT 0,
    "invalid_found" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "last_error_at" TIMESTAMPTZ(3),

    CONSTRAINT "verifier_months_pkey" PRIMARY KEY ("month")
);
