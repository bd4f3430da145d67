-- Files that heal (docs/product-rules.md, "Files that heal"): sold leads found invalid wait in
-- invalidated_leads (kept by prisma/derived/50-heal-queue.sql) until every order of the last 30
-- days that delivered them has had its row swapped, or recorded as not replaceable.
CREATE TABLE "invalidated_leads" (
    "lead_id" BIGINT NOT NULL,
    "found_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "invalidated_leads_pkey" PRIMARY KEY ("lead_id")
);
ALTER TABLE "invalidated_leads" ADD CONSTRAINT "invalidated_leads_lead_id_fkey"
    FOREIGN KEY ("lead_id") REFERENCES "leads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One row per healed file row: the lead found invalid and the fresh one put in its place (null when
-- the category had none left for the order). Lead ids only: history, not a person's data.
CREATE TABLE "order_heals" (
    "id" BIGSERIAL NOT NULL,
    "order_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "old_lead_id" BIGINT NOT NULL,
    "new_lead_id" BIGINT,
    "healed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "order_heals_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "order_heals_order_id_old_lead_id_key" ON "order_heals"("order_id", "old_lead_id");
CREATE INDEX "order_heals_order_id_healed_at_idx" ON "order_heals"("order_id", "healed_at");
ALTER TABLE "order_heals" ADD CONSTRAINT "order_heals_order_id_fkey"
    FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- When the buyer was last told of swaps: at most one mail a day per order.
ALTER TABLE "orders" ADD COLUMN "heal_mailed_at" TIMESTAMPTZ(3);
