-- An Article 14 notice's mail tells its lead what became of it (docs/product-rules.md, "UK
-- compliance"). lib/privacy/notices.ts queues the mail (kind 'privacy-notice') and marks the lead
-- `queued`; the mail outbox (lib/mail/outbox.ts) only records how delivery went, and this trigger
-- carries that to the notice and its lead in the same transaction:
--   sent or logged  the notice was handed over: the lead is `sent`, so it may be sold;
--   refused         the SMTP server refused the address for good: the address is invalid;
--   failed          not delivered within the outbox's 24 hours: the lead is due again.
CREATE OR REPLACE FUNCTION "privacy_notice_mail_outcome"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('sent', 'logged') THEN
    WITH notice AS (UPDATE privacy_notices SET sent_at = now() WHERE mail_id = NEW.id RETURNING lead_id)
    UPDATE leads SET notice_status = 'sent' FROM notice WHERE leads.id = notice.lead_id;
  ELSIF NEW.status = 'refused' THEN
    WITH notice AS (UPDATE privacy_notices SET bounced_at = now() WHERE mail_id = NEW.id RETURNING lead_id)
    UPDATE leads SET email_status = 'invalid', email_checked_at = now(),
           email_status_reason = left('Privacy notice refused: ' || COALESCE(NEW.last_error, ''), 200)
      FROM notice WHERE leads.id = notice.lead_id;
  ELSIF NEW.status = 'failed' THEN
    UPDATE leads SET notice_status = 'due' FROM privacy_notices notice
     WHERE notice.mail_id = NEW.id AND leads.id = notice.lead_id AND leads.notice_status = 'queued';
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "mail_outbox_privacy_notice" ON "mail_outbox";
CREATE TRIGGER "mail_outbox_privacy_notice" AFTER UPDATE OF "status" ON "mail_outbox"
  FOR EACH ROW WHEN (NEW."kind" = 'privacy-notice' AND OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION "privacy_notice_mail_outcome"();
