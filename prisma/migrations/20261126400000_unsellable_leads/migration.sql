-- Earlier purchases (docs/product-rules.md, "Fair allocation"): counting the leads a buyer bought
-- before reads which of them no longer sell from this small index, not from their wide rows
-- (lib/leads/allocation.ts, countBoughtBefore). Only unsellable leads have an entry.
CREATE INDEX "leads_unsellable_idx" ON "leads"("category_id", "id") WHERE NOT lead_sellable("quarantined_at", "email_status");
