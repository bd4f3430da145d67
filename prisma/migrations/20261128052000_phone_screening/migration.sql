-- Every lead's phone, normalised to E.164 by libphonenumber-js (lib/leads/phone.ts), and what it is
-- before any screening: valid_number or invalid_number (USA), not_a_uk_number, invalid_number or
-- unscreened (UK). SQL cannot call libphonenumber, so existing rows keep phone_e164 NULL ("not
-- normalised yet") and status 'unscreened' until the background backfill (lib/leads/screening.ts,
-- started with the server and run before every screening) fills them in.
CREATE TYPE "PhoneStatus" AS ENUM (
  'clear', 'tps', 'ctps', 'not_a_uk_number', 'invalid_number', 'unscreened', 'valid_number'
);

ALTER TABLE "leads"
  ADD COLUMN "phone_e164" TEXT,
  ADD COLUMN "phone_status" "PhoneStatus" NOT NULL DEFAULT 'unscreened';

-- The backfill finds the rows still to normalise without reading the others.
CREATE INDEX "leads_phone_pending_idx" ON "leads" ("id") WHERE "phone_e164" IS NULL;

-- The last TPS/CTPS screening of each UK lead with a UK number: clear, tps or ctps, dated with the
-- older register's file date. Kept apart from leads, whose statement triggers would compare every
-- updated row with every other in a screening's bulk UPDATE: a screening of all leads rebuilds
-- this table and swaps it in. No foreign key: every read goes through leads, and the row of a
-- deleted lead (no personal data) goes at the next full screening.
CREATE TABLE "lead_phone_screens" (
  "lead_id" BIGINT NOT NULL,
  "status" "PhoneStatus" NOT NULL,
  "screened_at" DATE NOT NULL,
  CONSTRAINT "lead_phone_screens_pkey" PRIMARY KEY ("lead_id")
);

-- Per category, its sellable UK leads and how many of them had a callable (`clear`) number at the
-- last screening, written by the screening itself (one GROUP BY per screening, never per page).
CREATE TABLE "category_phone_screens" (
  "category_id" UUID PRIMARY KEY,
  "screened_at" DATE NOT NULL,
  "uk_leads" INTEGER NOT NULL,
  "callable" INTEGER NOT NULL,
  CONSTRAINT "category_phone_screens_category_id_fkey" FOREIGN KEY ("category_id")
    REFERENCES "categories" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- The category page shows these figures: a screening flushes the cached pages (its trigger is in
-- prisma/derived/40-catalogue-version.sql).
