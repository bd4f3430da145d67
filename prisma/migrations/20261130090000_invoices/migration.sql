-- Invoices of paid orders (docs/product-rules.md, "Invoices").

-- The seller's VAT rate, in percent of the price (prices include VAT); 0 until the admin sets it.
ALTER TABLE "settings"
  ADD COLUMN "vat_rate_percent" DECIMAL(5, 2) NOT NULL DEFAULT 0,
  ADD CONSTRAINT "settings_vat_rate_percent_check" CHECK ("vat_rate_percent" BETWEEN 0 AND 100);

-- The last invoice number each seller issued. An invoice takes its number by updating this row
-- in its own transaction: concurrent invoices queue on the row, and a failed one gives its number
-- back with its rollback, so numbers have no gaps.
CREATE TABLE "invoice_counters" (
  "seller_id" INTEGER NOT NULL,
  "last_number" INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT "invoice_counters_pkey" PRIMARY KEY ("seller_id"),
  CONSTRAINT "invoice_counters_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "settings"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- One invoice per paid order: the buyer's details (corrected at most once, keeping the number) and
-- the seller's identity and VAT rate as they were when it was issued.
CREATE TABLE "invoices" (
  "order_id" UUID NOT NULL,
  "seller_id" INTEGER NOT NULL,
  "number" INTEGER NOT NULL,
  "company_name" TEXT NOT NULL,
  "address" TEXT NOT NULL,
  "country" TEXT NOT NULL,
  "vat_id" TEXT,
  "seller_legal_name" TEXT NOT NULL,
  "seller_address" TEXT NOT NULL,
  "seller_vat_number" TEXT NOT NULL,
  "vat_rate_percent" DECIMAL(5, 2) NOT NULL,
  "issued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "corrected_at" TIMESTAMPTZ(3),
  CONSTRAINT "invoices_pkey" PRIMARY KEY ("order_id"),
  CONSTRAINT "invoices_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "invoices_seller_id_fkey" FOREIGN KEY ("seller_id") REFERENCES "invoice_counters"("seller_id") ON DELETE RESTRICT ON UPDATE CASCADE
);

CREATE UNIQUE INDEX "invoices_seller_id_number_key" ON "invoices"("seller_id", "number");
