// By design: category card images cycle through a list of 8 (our own SVGs in public/categories).
export const CATEGORY_IMAGES = Array.from(
  { length: 8 },
  (_, index) => `/categories/category-${index + 1}.svg`,
);

export function categoryImage(index: number): string {
  return CATEGORY_IMAGES[
    ((index % CATEGORY_IMAGES.length) + CATEGORY_IMAGES.length) % CATEGORY_IMAGES.length
  ];
}
