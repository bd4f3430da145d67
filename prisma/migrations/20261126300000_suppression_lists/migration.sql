-- "Exclude contacts I already have" (docs/product-rules.md, "Exclusion lists"): a buyer's own list,
-- kept only as SHA-256 hashes of normalised emails and as domains (never an address), tied to the
-- uploader's address; an order created with it keeps it, and its allocation and replacements skip
-- every lead whose email hash or email domain is on it.

-- The SHA-256 of an email (leads store it normalised: trimmed, lower-cased), as the lists hold
-- them. convert_to is only STABLE in general; in a UTF-8 database converting to UTF-8 returns the
-- same bytes every time, so this is immutable and can generate a stored column.
CREATE FUNCTION "email_sha256"(email text) RETURNS bytea
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
BEGIN
  RETURN sha256(convert_to(email, 'UTF8'));
END $$;

CREATE TABLE "suppression_lists" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    -- SHA-256 (hex) of the uploader's client address: only that address may use the list.
    "owner" TEXT NOT NULL,
    "entries" INTEGER NOT NULL,
    "emails" INTEGER NOT NULL,
    "domains" INTEGER NOT NULL,
    "hashes" INTEGER NOT NULL,
    "ignored" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- The upkeep deletes the list from then on: 24 hours after upload, later once orders use it.
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    -- The entries, each once: SHA-256 digests of the emails (and the hashes given), and domains.
    -- One value each, read whole by the statements that use them (allocation hashes them once),
    -- so an upload writes one row, not an indexed row per entry.
    "email_keys" BYTEA[] NOT NULL,
    "domain_keys" TEXT[] NOT NULL,

    CONSTRAINT "suppression_lists_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "suppression_lists_expires_at_idx" ON "suppression_lists"("expires_at");

-- The order's list, and how many of the category's leads it left out (counted at create, past the
-- buyer's earlier purchases): shown with excluded_bought.
ALTER TABLE "orders" ADD COLUMN "suppression_list_id" UUID,
  ADD COLUMN "excluded_listed" INTEGER;
ALTER TABLE "orders" ADD CONSTRAINT "orders_suppression_list_id_fkey" FOREIGN KEY ("suppression_list_id") REFERENCES "suppression_lists"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "orders_suppression_list_id_idx" ON "orders"("suppression_list_id");

-- Each lead's email hash and domain, stored (written by PostgreSQL on every insert, whatever the
-- way in): allocation compares them with a list's keys per lead it walks, and a column costs
-- nothing to read where a hash computed per comparison would cost a SHA-256 each time. What a list
-- removes from a category is counted from its entries: each one probes these indexes.
ALTER TABLE "leads"
  ADD COLUMN "email_hash" BYTEA NOT NULL GENERATED ALWAYS AS (email_sha256("email")) STORED,
  ADD COLUMN "email_domain" TEXT NOT NULL GENERATED ALWAYS AS (split_part("email", '@', -1)) STORED;
CREATE INDEX "leads_category_id_email_hash_idx" ON "leads"("category_id", "email_hash");
CREATE INDEX "leads_category_id_email_domain_idx" ON "leads"("category_id", "email_domain");
