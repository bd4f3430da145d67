-- Fair allocation (docs/product-rules.md, "Fair allocation"): a sale's leads are almost always
-- unsold (an allocation takes unsold leads first) and each is in the statement once, and a plain
-- insert of their counters, in key order, costs far less than a grouped upsert, which first looks
-- for a conflicting row of each. Only when one of them already has a counter (a sold lead, or one
-- sold at the same moment by another order) or comes twice is the insert undone and the upsert made.
CREATE OR REPLACE FUNCTION "lead_sales_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  BEGIN
    INSERT INTO lead_sales (category_id, lead_id, sold)
    SELECT o.category_id, n.lead_id, 1
    FROM new_rows n JOIN orders o ON o.id = n.order_id ORDER BY 1, 2;
  EXCEPTION WHEN unique_violation THEN
    INSERT INTO lead_sales AS s (category_id, lead_id, sold)
    SELECT o.category_id, n.lead_id, count(*)::int
    FROM new_rows n JOIN orders o ON o.id = n.order_id GROUP BY 1, 2
    ON CONFLICT (category_id, lead_id) DO UPDATE SET sold = s.sold + EXCLUDED.sold;
  END;
  RETURN NULL;
END $$;
