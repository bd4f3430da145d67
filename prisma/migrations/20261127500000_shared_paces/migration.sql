-- Paces shared by every instance on this database (lib/leads/recheck.ts): the re-checks'
-- addresses a second and the provider's batches a minute hold in all, not per process. `next_at`
-- is when the next unit of work may start.
CREATE TABLE "paces" (
    "name" TEXT NOT NULL,
    "next_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "paces_pkey" PRIMARY KEY ("name")
);
