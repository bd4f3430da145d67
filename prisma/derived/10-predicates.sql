-- Predicates every query and trigger shares. Indexes and stored columns are built on them, so a
-- change of a body here must keep them true: the indexes below are rebuilt with it, and a change
-- of email_sha256 (a stored column) needs a versioned migration that writes the column again.

-- A lead is sellable while no buyer's report holds it (quarantine), no check found its address
-- invalid and, for a UK lead, its person's Article 14 notice has been sent (or was not required):
-- only sellable leads are counted, sampled, allocated or given as replacements
-- (lib/leads/sellable.ts quotes it for TypeScript).
CREATE OR REPLACE FUNCTION "lead_sellable"(quarantined_at TIMESTAMPTZ, email_status "EmailStatus",
                                           notice_status "NoticeStatus") RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT quarantined_at IS NULL AND email_status <> 'invalid' AND notice_status IN ('not_required', 'sent') $$;
-- The rule before notices (the privacy_notices migration dropped the indexes built on it).
DROP FUNCTION IF EXISTS "lead_sellable"(TIMESTAMPTZ, "EmailStatus");

-- The UTC day of a lead's last verification or check: re-checks are due by it.
CREATE OR REPLACE FUNCTION "lead_checked_on"(verified_at TIMESTAMPTZ, email_checked_at TIMESTAMPTZ) RETURNS date
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (GREATEST(verified_at, email_checked_at) AT TIME ZONE 'UTC')::date $$;

-- The SHA-256 of an email (leads store it normalised: trimmed, lower-cased), as exclusion lists
-- hold them. convert_to is only STABLE in general; in a UTF-8 database converting to
-- UTF-8 returns the same bytes every time, so this is immutable and can generate a stored column.
CREATE OR REPLACE FUNCTION "email_sha256"(email text) RETURNS bytea
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
BEGIN
  RETURN sha256(convert_to(email, 'UTF8'));
END $$;

-- Re-checks walk a category's sellable leads by their last check (lib/leads/recheck-queue.ts;
-- the included columns allow an index-only scan).
DROP INDEX IF EXISTS "leads_recheck_due_idx";
CREATE INDEX "leads_recheck_due_idx"
  ON "leads" ("category_id", (GREATEST("verified_at", "email_checked_at")), "id")
  INCLUDE ("verified_at", "email_checked_at")
  WHERE lead_sellable("quarantined_at", "email_status", "notice_status");
-- Counting the leads a buyer bought before reads which of them no longer sell from this small
-- index, not from their wide rows (lib/leads/allocation.ts, countBoughtBefore).
DROP INDEX IF EXISTS "leads_unsellable_idx";
CREATE INDEX "leads_unsellable_idx" ON "leads" ("category_id", "id")
  WHERE NOT lead_sellable("quarantined_at", "email_status", "notice_status");
