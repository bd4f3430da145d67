-- Attachments are written a chunk at a time as they arrive, and assembled into their attachments
-- row when the request is stored (lib/custom-requests/staged-files.ts).
CREATE TABLE "upload_chunks" (
    "upload_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "upload_chunks_pkey" PRIMARY KEY ("upload_id","seq")
);

CREATE INDEX "upload_chunks_created_at_idx" ON "upload_chunks"("created_at");
