-- Replacement claims checked again (docs/product-rules.md, "Replacement claims"): what each claim
-- found, and every reported lead with its verdict, so a lead is quarantined only once buyers of two
-- different orders have reported it, and the admin reviews quarantine per claim.
ALTER TABLE "replacement_claims"
  ADD COLUMN "invalid_confirmed" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "verified_deliverable" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "held_for_review" INTEGER NOT NULL DEFAULT 0;

CREATE TABLE "replacement_reports" (
    "id" BIGSERIAL NOT NULL,
    "claim_id" BIGINT NOT NULL,
    "order_id" UUID NOT NULL,
    "lead_id" BIGINT NOT NULL,
    -- invalid: our checks or the provider found it invalid; valid: the provider confirmed it;
    -- unconfirmed: neither (counted on the buyer's word).
    "verdict" TEXT NOT NULL,
    "replaced" BOOLEAN NOT NULL,
    "held" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "replacement_reports_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "replacement_reports_lead_id_idx" ON "replacement_reports"("lead_id");
CREATE INDEX "replacement_reports_claim_id_idx" ON "replacement_reports"("claim_id");

ALTER TABLE "replacement_reports" ADD CONSTRAINT "replacement_reports_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "replacement_claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "replacement_reports" ADD CONSTRAINT "replacement_reports_lead_id_fkey" FOREIGN KEY ("lead_id") REFERENCES "leads"("id") ON DELETE CASCADE ON UPDATE CASCADE;
