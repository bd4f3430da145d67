-- Download keys, buyer email, provider amounts, expiry and reconciliation of orders; order status
-- history; a throttle table for per-address and per-id limits.

-- A download key is 244 random bits (two version-4 UUIDs, 122 random bits each) in base64url:
-- gen_random_uuid() is built into PostgreSQL 13+, so no extension is needed. Existing orders get
-- one when the column is added (the default is evaluated per row).
ALTER TABLE "orders"
    ADD COLUMN "download_key" TEXT NOT NULL DEFAULT translate(encode(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()), 'base64'), '+/=', '-_'),
    ADD COLUMN "buyer_email" TEXT,
    ADD COLUMN "browser_id" TEXT,
    ADD COLUMN "client_ip" TEXT,
    ADD COLUMN "pay_currency" TEXT,
    ADD COLUMN "actually_paid" DECIMAL(30,12),
    ADD COLUMN "actually_paid_at_fiat" DECIMAL(18,8),
    ADD COLUMN "receipt_sent_at" TIMESTAMPTZ(3),
    ADD COLUMN "download_expires_at" TIMESTAMPTZ(3),
    ADD COLUMN "checked_at" TIMESTAMPTZ(3);

-- Paid orders' links last 30 days from payment until the buyer asks for fresh ones (/orders).
UPDATE "orders" SET "download_expires_at" = "paid_at" + interval '30 days' WHERE "paid_at" IS NOT NULL;

CREATE UNIQUE INDEX "orders_download_key_key" ON "orders"("download_key");
CREATE INDEX "orders_client_ip_created_at_idx" ON "orders"("client_ip", "created_at");
CREATE INDEX "orders_browser_id_idx" ON "orders"("browser_id");
CREATE INDEX "orders_status_created_at_idx" ON "orders"("status", "created_at");
CREATE INDEX "orders_buyer_email_idx" ON "orders"("buyer_email");

-- CreateTable
CREATE TABLE "order_events" (
    "id" BIGSERIAL NOT NULL,
    "order_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_events_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "order_events_order_id_created_at_idx" ON "order_events"("order_id", "created_at");

ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every order so far starts its history with its creation.
INSERT INTO "order_events" ("order_id", "status", "note", "created_at")
SELECT "id", 'pending', 'Order created', "created_at" FROM "orders";

-- CreateTable
CREATE TABLE "throttle_events" (
    "id" BIGSERIAL NOT NULL,
    "bucket" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "throttle_events_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "throttle_events_bucket_created_at_idx" ON "throttle_events"("bucket", "created_at");
