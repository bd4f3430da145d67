-- Imported leads queued for the verification provider and not checked yet count among a category's
-- due re-checks (lib/leads/recheck-queue.ts). Only queued rows are indexed: none without a provider.
CREATE INDEX "leads_queued_idx" ON "leads" ("category_id")
  WHERE "email_status_reason" = 'queued' AND "email_checked_at" IS NULL;
