-- The TPS and CTPS registers (docs/product-rules.md, "UK compliance"). Each register's numbers
-- (E.164) live in their own table, loaded by COPY into a staging table that replaces it in one
-- transaction (lib/leads/registers.ts); a number may appear twice (two spellings in one file), so
-- the index is not unique. phone_registers keeps each register's file date and load report.
CREATE TYPE "PhoneRegister" AS ENUM ('tps', 'ctps');

CREATE TABLE "phone_registers" (
  "register" "PhoneRegister" PRIMARY KEY,
  "file_date" DATE NOT NULL,
  "file_name" TEXT NOT NULL DEFAULT '',
  "numbers" INTEGER NOT NULL,
  "rejected" INTEGER NOT NULL,
  "loaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

CREATE TABLE "tps_numbers" ("e164" TEXT NOT NULL);
CREATE INDEX "tps_numbers_e164_idx" ON "tps_numbers" ("e164");
CREATE TABLE "ctps_numbers" ("e164" TEXT NOT NULL);
CREATE INDEX "ctps_numbers_e164_idx" ON "ctps_numbers" ("e164");
