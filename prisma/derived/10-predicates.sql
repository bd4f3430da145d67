-- Predicates every query and trigger shares. Indexes and stored columns are built on them, so a
-- change of a body here must keep them true: the indexes below are rebuilt with it, and a change
-- of email_sha256 (a stored column) needs a versioned migration that writes the column again.

-- A lead is sellable while no buyer's report holds it (quarantine) and no check found its address
-- invalid: only sellable leads are counted, sampled, allocated or given as replacements
-- (lib/leads/sellable.ts quotes it for TypeScript).
CREATE OR REPLACE FUNCTION "lead_sellable"(quarantined_at TIMESTAMPTZ, email_status "EmailStatus") RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT quarantined_at IS NULL AND email_status <> 'invalid' $$;

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

REINDEX INDEX "leads_recheck_due_idx";
REINDEX INDEX "leads_unsellable_idx";
