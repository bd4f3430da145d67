-- invalidated_leads: sold leads a check has just found invalid (a re-check, another buyer's claim
-- check, an import of a newer verdict), queued for lib/orders/heal.ts, which swaps them in the files
-- of orders paid in the last 30 days. Only the change to invalid of a lead with a sale is queued;
-- the pass itself decides which orders still heal. Transition tables cannot go with a column list,
-- so the trigger sees every update of leads and keeps to one join.
CREATE OR REPLACE FUNCTION "heal_queue_add"() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  INSERT INTO invalidated_leads (lead_id)
  SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE n.email_status = 'invalid' AND o.email_status <> 'invalid'
     AND EXISTS (SELECT 1 FROM lead_sales s WHERE s.category_id = n.category_id AND s.lead_id = n.id)
  ON CONFLICT (lead_id) DO NOTHING;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "leads_heal_queue" ON "leads";
CREATE TRIGGER "leads_heal_queue" AFTER UPDATE ON "leads"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "heal_queue_add"();
