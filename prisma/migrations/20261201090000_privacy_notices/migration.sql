-- Article 14 notices (docs/product-rules.md, "UK compliance"): a UK lead's person is mailed a
-- notice before the lead is first sold. A lead's notice_status says where it is: not_required
-- (a USA lead, or imported while notices were off), due (waiting for the pace), queued (in the
-- mail outbox) or sent. lead_sellable() (prisma/derived/10-predicates.sql) refuses due and queued
-- leads; it takes the column from this migration on, and the two indexes built on it are made
-- again there.
CREATE TYPE "NoticeStatus" AS ENUM ('not_required', 'due', 'queued', 'sent');
ALTER TABLE "leads" ADD COLUMN "notice_status" "NoticeStatus" NOT NULL DEFAULT 'not_required';
DROP INDEX "leads_unsellable_idx";
DROP INDEX "leads_recheck_due_idx";

-- Every UK lead stored before notices were sent gets one, and is off sale until it is sent. The
-- rollups' trigger of this moment cannot see the column yet: they are counted again below, with
-- the new rule written out.
ALTER TABLE "leads" DISABLE TRIGGER USER;
UPDATE "leads" SET "notice_status" = 'due' WHERE "country" = 'UK';
ALTER TABLE "leads" ENABLE TRIGGER USER;
CREATE TEMP TABLE "sellable_leads" ON COMMIT DROP AS
  SELECT "category_id", "country", "verified_at", "email_status", "email_checked_at", "source", "facet_region",
         "facet_seniority", "facet_department", "facet_size", "facet_revenue"
    FROM "leads"
   WHERE "quarantined_at" IS NULL AND "email_status" <> 'invalid' AND "notice_status" IN ('not_required', 'sent');
DELETE FROM "category_lead_days";
INSERT INTO "category_lead_days" ("category_id", "country", "verified_on", "email_status", "leads")
SELECT "category_id", "country", ("verified_at" AT TIME ZONE 'UTC')::date, "email_status", count(*)::int
  FROM "sellable_leads" GROUP BY 1, 2, 3, 4;
DELETE FROM "category_segments";
INSERT INTO "category_segments" ("category_id", "country", "email_status", "region", "seniority", "department",
                                 "size", "revenue", "leads")
SELECT "category_id", "country", "email_status", "facet_region", "facet_seniority", "facet_department",
       "facet_size", "facet_revenue", count(*)::int
  FROM "sellable_leads" GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
DELETE FROM "category_check_days";
INSERT INTO "category_check_days" ("category_id", "checked_on", "leads")
SELECT "category_id", lead_checked_on("verified_at", "email_checked_at"), count(*)::int
  FROM "sellable_leads" GROUP BY 1, 2;
DELETE FROM "category_sources";
INSERT INTO "category_sources" ("category_id", "source", "leads")
SELECT "category_id", "source", count(*)::int FROM "sellable_leads" GROUP BY 1, 2;
UPDATE "categories" c SET "count" = COALESCE(s."leads", 0)
  FROM "categories" k
  LEFT JOIN (SELECT "category_id", count(*)::int AS "leads" FROM "sellable_leads" GROUP BY 1) s
    ON s."category_id" = k."id"
 WHERE c."id" = k."id" AND c."count" <> COALESCE(s."leads", 0);
UPDATE "catalogue_version" SET "version" = "version" + 1 WHERE "id" = 1;

-- The leads waiting for their notice: the pace takes the due ones a recipient domain at a time
-- (lib/privacy/notices.ts), and the dashboard counts them.
CREATE INDEX "leads_notice_waiting_idx" ON "leads" ("notice_status", "email_domain", "id")
  WHERE "notice_status" IN ('due', 'queued');

-- One notice mailed: its lead (gone once erased), the recipient's domain (the per-domain pace),
-- its mail, and what became of it. The opt-out link names the notice.
CREATE TABLE "privacy_notices" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "lead_id" BIGINT,
  "email_domain" TEXT NOT NULL,
  "mail_id" BIGINT,
  "queued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "sent_at" TIMESTAMPTZ(3),
  "bounced_at" TIMESTAMPTZ(3),
  "opted_out_at" TIMESTAMPTZ(3),
  CONSTRAINT "privacy_notices_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "privacy_notices_lead_id_fkey" FOREIGN KEY ("lead_id") REFERENCES "leads"("id")
    ON DELETE SET NULL ON UPDATE CASCADE,
  CONSTRAINT "privacy_notices_mail_id_fkey" FOREIGN KEY ("mail_id") REFERENCES "mail_outbox"("id")
    ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "privacy_notices_lead_id_idx" ON "privacy_notices"("lead_id");
CREATE UNIQUE INDEX "privacy_notices_mail_id_key" ON "privacy_notices"("mail_id");
CREATE INDEX "privacy_notices_email_domain_queued_at_idx" ON "privacy_notices"("email_domain", "queued_at");
CREATE INDEX "privacy_notices_sent_at_idx" ON "privacy_notices"("sent_at");
CREATE INDEX "privacy_notices_opted_out_at_idx" ON "privacy_notices"("opted_out_at");

-- The admin may turn notices off: UK leads then sell without them.
ALTER TABLE "settings" ADD COLUMN "privacy_notices" BOOLEAN NOT NULL DEFAULT true;
