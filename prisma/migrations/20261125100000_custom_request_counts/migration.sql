-- CreateTable
CREATE TABLE "custom_request_counts" (
    "client_ip" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "custom_request_counts_pkey" PRIMARY KEY ("client_ip","hour")
);

-- CreateIndex
CREATE INDEX "custom_request_counts_hour_idx" ON "custom_request_counts"("hour");

-- The limit no longer counts stored requests: their per-address index has nothing left to serve.
DROP INDEX "custom_requests_client_ip_created_at_idx";
