-- CreateTable
CREATE TABLE "catalogue_version" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "catalogue_version_pkey" PRIMARY KEY ("id")
);

INSERT INTO "catalogue_version" ("id", "version") VALUES (1, 0);

-- Every statement that changes the catalogue (categories, or the leads behind their counts and
-- previews) bumps the version inside its own transaction, so the bump commits with the change and
-- every app instance's page cache sees it on its next request (docs/product-rules.md, caching).
CREATE FUNCTION "bump_catalogue_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "catalogue_version" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER "categories_catalogue_version"
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "categories"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();

CREATE TRIGGER "leads_catalogue_version"
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "leads"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();
