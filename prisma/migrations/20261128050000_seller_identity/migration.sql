-- The seller's identity (docs/product-rules.md, "UK compliance"): notices, statements and invoices
-- name it. Empty until the admin fills it in; nothing refuses to start without it.
ALTER TABLE "settings"
  ADD COLUMN "seller_legal_name" TEXT NOT NULL DEFAULT '',
  ADD COLUMN "seller_address" TEXT NOT NULL DEFAULT '',
  ADD COLUMN "seller_ico_number" TEXT NOT NULL DEFAULT '',
  ADD COLUMN "seller_privacy_email" TEXT NOT NULL DEFAULT '',
  ADD COLUMN "seller_vat_number" TEXT NOT NULL DEFAULT '';
