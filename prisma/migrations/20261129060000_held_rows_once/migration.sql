-- A claim's held rows are its reports flagged `held`: the counter beside them is dropped, and the
-- count is taken from the flags (always equal to it: both moved in the same statements).
ALTER TABLE "replacement_claims" DROP COLUMN "held_for_review";
