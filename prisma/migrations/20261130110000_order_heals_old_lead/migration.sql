-- An erasure finds the orders a healed-out lead was delivered in (lib/privacy/requests.ts): their
-- holders downloaded the row before the swap, so the person's opt-out reaches them too.
CREATE INDEX "order_heals_old_lead_id_idx" ON "order_heals"("old_lead_id");
