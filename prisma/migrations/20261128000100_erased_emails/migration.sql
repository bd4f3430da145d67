-- The erased people's email hashes are named for what they are: "suppression" means only the
-- buyers' exclusion lists.
ALTER TABLE "suppressed_emails" RENAME TO "erased_emails";
ALTER TABLE "erased_emails" RENAME CONSTRAINT "suppressed_emails_pkey" TO "erased_emails_pkey";
