-- The people a paid order delivered who were erased (or opted out) after its purchase
-- (docs/product-rules.md, "Opt-outs reach earlier buyers"): the hash of their normalised email,
-- recorded by the erasure before it takes their rows out of the order's file.
CREATE TABLE "order_opt_outs" (
  "order_id" UUID NOT NULL,
  "email_hash" TEXT NOT NULL,
  "opted_out_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "order_opt_outs_pkey" PRIMARY KEY ("order_id", "email_hash"),
  CONSTRAINT "order_opt_outs_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id")
    ON DELETE CASCADE ON UPDATE CASCADE
);
