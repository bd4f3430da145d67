-- Every lead's phone, normalised to E.164 by libphonenumber-js (lib/leads/phone.ts), and its
-- status (docs/product-rules.md, "UK compliance"). SQL cannot call libphonenumber, so existing rows
-- keep phone_e164 NULL ("not normalised yet") and status 'unscreened' until the background backfill
-- (lib/leads/screening.ts, started with the server and run before every screening) fills them in.
CREATE TYPE "PhoneStatus" AS ENUM (
  'clear', 'tps', 'ctps', 'not_a_uk_number', 'invalid_number', 'unscreened', 'valid_number'
);

ALTER TABLE "leads"
  ADD COLUMN "phone_e164" TEXT,
  ADD COLUMN "phone_status" "PhoneStatus" NOT NULL DEFAULT 'unscreened',
  -- The file date of the older of the two registers the phone was screened against.
  ADD COLUMN "phone_screened_at" DATE;

-- The backfill finds the rows still to normalise without reading the others.
CREATE INDEX "leads_phone_pending_idx" ON "leads" ("id") WHERE "phone_e164" IS NULL;

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

-- The category page shows these figures: a screening flushes the cached pages.
CREATE TRIGGER "category_phone_screens_catalogue_version"
  AFTER INSERT OR UPDATE OR DELETE ON "category_phone_screens"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();
