-- Fair allocation (docs/product-rules.md, "Fair allocation"): how many of the category's leads an
-- order left out at its allocation because its buyer's email had bought them before.
ALTER TABLE "orders" ADD COLUMN "excluded_bought" INTEGER;
