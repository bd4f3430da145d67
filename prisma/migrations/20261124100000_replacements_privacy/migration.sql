-- AlterTable
ALTER TABLE "leads" ADD COLUMN "quarantined_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "replacement_claims" (
    "id" BIGSERIAL NOT NULL,
    "order_id" UUID NOT NULL,
    "reported" INTEGER NOT NULL,
    "counted" INTEGER NOT NULL,
    "replaced" INTEGER NOT NULL,
    "shortfall" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "replacement_claims_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "privacy_requests" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "kind" TEXT NOT NULL,
    "email" TEXT,
    "email_hash" TEXT NOT NULL,
    "email_masked" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "confirmed_at" TIMESTAMPTZ(3),

    CONSTRAINT "privacy_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "suppressed_emails" (
    "email_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "suppressed_emails_pkey" PRIMARY KEY ("email_hash")
);

-- CreateIndex
CREATE INDEX "leads_quarantined_category_id_idx" ON "leads"("category_id") WHERE "quarantined_at" IS NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "replacement_claims_order_id_key" ON "replacement_claims"("order_id");

-- CreateIndex
CREATE INDEX "replacement_claims_created_at_idx" ON "replacement_claims"("created_at");

-- CreateIndex
CREATE INDEX "privacy_requests_created_at_idx" ON "privacy_requests"("created_at");

-- CreateIndex
CREATE INDEX "privacy_requests_email_hash_idx" ON "privacy_requests"("email_hash");

-- AddForeignKey
ALTER TABLE "replacement_claims" ADD CONSTRAINT "replacement_claims_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;
