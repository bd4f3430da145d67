-- One statement trigger for inserts into leads in place of two: the rollups (category_lead_days,
-- category_segments) and the categories' counts were each read from the inserted rows on their
-- own, three passes over a transition table that holds every inserted row (a 1,000,000-row import
-- spills it to disk). The rows are now grouped once, by everything the three need, and each is
-- summed from those few groups. Deletes and updates keep their triggers.
CREATE FUNCTION "category_rollups_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH added AS MATERIALIZED (
    SELECT category_id, country, (verified_at AT TIME ZONE 'UTC')::date AS verified_on, email_status,
           facet_region, facet_seniority, facet_department, facet_size, facet_revenue,
           lead_sellable(quarantined_at, email_status) AS sellable, count(*)::int AS leads
    FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
  ), days AS (
    INSERT INTO category_lead_days AS d (category_id, country, verified_on, email_status, leads)
    SELECT category_id, country, verified_on, email_status, sum(leads)::int FROM added WHERE sellable
    GROUP BY 1, 2, 3, 4
    ON CONFLICT (category_id, country, verified_on, email_status) DO UPDATE SET leads = d.leads + EXCLUDED.leads
  ), segments AS (
    INSERT INTO category_segments AS s (category_id, country, region, seniority, department, size, revenue, leads)
    SELECT category_id, country, facet_region, facet_seniority, facet_department, facet_size, facet_revenue,
           sum(leads)::int
    FROM added WHERE sellable GROUP BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (category_id, country, region, seniority, department, size, revenue)
      DO UPDATE SET leads = s.leads + EXCLUDED.leads
  )
  UPDATE categories c SET count = c.count + total.leads, imported_at = now()
  FROM (SELECT category_id, COALESCE(sum(leads) FILTER (WHERE sellable), 0)::int AS leads FROM added GROUP BY 1) total
  WHERE c.id = total.category_id;
  RETURN NULL;
END $$;

DROP TRIGGER "leads_days_insert" ON "leads";
DROP TRIGGER "leads_segments_insert" ON "leads";
DROP FUNCTION "category_lead_days_add"();
DROP FUNCTION "category_segments_add"();

CREATE TRIGGER "leads_rollups_insert" AFTER INSERT ON "leads"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "category_rollups_add"();
