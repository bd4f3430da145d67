-- What a category can sell, kept exact by statement triggers on leads whatever inserts, deletes,
-- quarantines, releases or invalidates them, so pages read a few hundred rows, never the leads:
--   categories.count      its sellable leads;
--   category_lead_days    sellable leads per country, UTC day of verification and email status
--                         (counts per country, freshness, the status mix);
--   category_segments     sellable leads per country, email status and facet combination (segment
--                         counts, which follow the email quality chosen);
--   category_check_days   sellable leads per UTC day of their last verification or check (the
--                         re-checks due);
--   category_sources      sellable leads per source (the category page's source mix).
-- One function serves all five, for inserts, deletes and updates alike: it turns the statement's
-- rows into signed changes per bucket (+1 a sellable lead that arrived, -1 one that left) and adds
-- them up in one grouped pass.

-- The triggers are made again below; those of earlier versions (one function per rollup) go in the
-- same transaction as their successors come, so no write goes uncounted in between.
DROP TRIGGER IF EXISTS "leads_days_delete" ON "leads";
DROP TRIGGER IF EXISTS "leads_days_update" ON "leads";
DROP TRIGGER IF EXISTS "leads_segments_delete" ON "leads";
DROP TRIGGER IF EXISTS "leads_segments_update" ON "leads";
DROP TRIGGER IF EXISTS "leads_check_days_delete" ON "leads";
DROP TRIGGER IF EXISTS "leads_check_days_update" ON "leads";
DROP TRIGGER IF EXISTS "leads_rollups_insert" ON "leads";
DROP TRIGGER IF EXISTS "leads_rollups_delete" ON "leads";
DROP TRIGGER IF EXISTS "leads_rollups_update" ON "leads";
DROP FUNCTION IF EXISTS "category_lead_days_remove"();
DROP FUNCTION IF EXISTS "category_lead_days_move"();
DROP FUNCTION IF EXISTS "category_segments_remove"();
DROP FUNCTION IF EXISTS "category_segments_move"();
DROP FUNCTION IF EXISTS "category_check_days_remove"();
DROP FUNCTION IF EXISTS "category_check_days_move"();
DROP FUNCTION IF EXISTS "category_rollups_add"();

-- Trigger functions here run with jit = off: the planner has no statistics for transition tables,
-- costs their joins in the millions and would JIT-compile each statement (over a second) every time.
CREATE OR REPLACE FUNCTION "category_rollups_change"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  -- A lead's place in the rollups, with its sellability.
  keys CONSTANT text := $k$ category_id, country, (verified_at AT TIME ZONE 'UTC')::date,
    email_status, facet_region, facet_seniority, facet_department, facet_size, facet_revenue,
    lead_checked_on(verified_at, email_checked_at), source, lead_sellable(quarantined_at, email_status, notice_status) $k$;
  changes text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    changes := format('SELECT %s, 1 FROM new_rows', keys);
  ELSIF TG_OP = 'DELETE' THEN
    changes := format('SELECT %s, -1 FROM old_rows', keys);
  ELSE
    -- Only rows whose place or sellability changed move: -1 where they were, +1 where they are.
    changes := format($q$
      SELECT r.* FROM (SELECT id, %1$s FROM old_rows) o(id, c, y, v, e, r, s, d, z, m, k, src, sellable)
      JOIN (SELECT id, %1$s FROM new_rows) n(id, c, y, v, e, r, s, d, z, m, k, src, sellable) ON n.id = o.id
      CROSS JOIN LATERAL (VALUES (o.c, o.y, o.v, o.e, o.r, o.s, o.d, o.z, o.m, o.k, o.src, o.sellable, -1),
                                 (n.c, n.y, n.v, n.e, n.r, n.s, n.d, n.z, n.m, n.k, n.src, n.sellable, 1)) r
      WHERE (o.c, o.y, o.v, o.e, o.r, o.s, o.d, o.z, o.m, o.k, o.src, o.sellable)
            IS DISTINCT FROM (n.c, n.y, n.v, n.e, n.r, n.s, n.d, n.z, n.m, n.k, n.src, n.sellable)$q$, keys);
  END IF;
  EXECUTE format($q$
    WITH delta AS MATERIALIZED (
      SELECT category_id, country, verified_on, email_status, region, seniority, department, size, revenue,
             checked_on, source, sellable, sum(leads)::int AS leads
      FROM (%s) AS rows(category_id, country, verified_on, email_status, region, seniority, department, size,
                        revenue, checked_on, source, sellable, leads)
      -- A category being deleted takes its rollups with it (ON DELETE CASCADE) before its leads go.
      WHERE EXISTS (SELECT 1 FROM categories c WHERE c.id = rows.category_id)
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
    ), days AS (
      INSERT INTO category_lead_days AS d (category_id, country, verified_on, email_status, leads)
      SELECT category_id, country, verified_on, email_status, sum(leads)::int FROM delta WHERE sellable
      GROUP BY 1, 2, 3, 4 HAVING sum(leads) <> 0
      ON CONFLICT (category_id, country, verified_on, email_status) DO UPDATE SET leads = d.leads + EXCLUDED.leads
    ), segments AS (
      INSERT INTO category_segments AS s (category_id, country, email_status, region, seniority, department, size,
                                          revenue, leads)
      SELECT category_id, country, email_status, region, seniority, department, size, revenue, sum(leads)::int
      FROM delta WHERE sellable GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(leads) <> 0
      ON CONFLICT (category_id, country, email_status, region, seniority, department, size, revenue)
        DO UPDATE SET leads = s.leads + EXCLUDED.leads
    ), checks AS (
      INSERT INTO category_check_days AS k (category_id, checked_on, leads)
      SELECT category_id, checked_on, sum(leads)::int FROM delta WHERE sellable GROUP BY 1, 2 HAVING sum(leads) <> 0
      ON CONFLICT (category_id, checked_on) DO UPDATE SET leads = k.leads + EXCLUDED.leads
    ), sources AS (
      INSERT INTO category_sources AS o (category_id, source, leads)
      SELECT category_id, source, sum(leads)::int FROM delta WHERE sellable GROUP BY 1, 2 HAVING sum(leads) <> 0
      ON CONFLICT (category_id, source) DO UPDATE SET leads = o.leads + EXCLUDED.leads
    )
    UPDATE categories c SET count = c.count + total.leads %s
    FROM (SELECT category_id, COALESCE(sum(leads) FILTER (WHERE sellable), 0)::int AS leads FROM delta GROUP BY 1) total
    WHERE c.id = total.category_id AND (total.leads <> 0 OR %L = 'INSERT')$q$,
    changes,
    -- imported_at: when the category last took leads, sellable or not.
    CASE WHEN TG_OP = 'INSERT' THEN ', imported_at = now()' ELSE '' END,
    TG_OP);
  -- Buckets left empty go, in the categories the statement touched (a second statement, as the
  -- first one's changes are not visible inside it).
  IF TG_OP <> 'INSERT' THEN
    EXECUTE format($q$
      WITH touched AS (SELECT DISTINCT category_id FROM %s),
      days AS (DELETE FROM category_lead_days d USING touched t WHERE d.category_id = t.category_id AND d.leads <= 0),
      segments AS (DELETE FROM category_segments s USING touched t WHERE s.category_id = t.category_id AND s.leads <= 0),
      sources AS (DELETE FROM category_sources o USING touched t WHERE o.category_id = t.category_id AND o.leads <= 0)
      DELETE FROM category_check_days k USING touched t WHERE k.category_id = t.category_id AND k.leads <= 0$q$,
      CASE TG_OP WHEN 'DELETE' THEN 'old_rows'
        ELSE '(SELECT category_id FROM old_rows UNION ALL SELECT category_id FROM new_rows) AS rows' END);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "leads_rollups_insert" AFTER INSERT ON "leads"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "category_rollups_change"();
CREATE TRIGGER "leads_rollups_delete" AFTER DELETE ON "leads"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "category_rollups_change"();
CREATE TRIGGER "leads_rollups_update" AFTER UPDATE ON "leads"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "category_rollups_change"();
