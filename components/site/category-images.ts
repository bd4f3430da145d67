// Spec: category card images cycle through a list of 8 (our own SVGs in public/categories).
export const CATEGORY_IMAGES = Array.from(
  { length: 8 },
  (_, index) => `/categories/category-${index + 1}.svg`,
);

export function categoryImage(index: number): string {
  return CATEGORY_IMAGES[
    ((index % CATEGORY_IMAGES.length) + CATEGORY_IMAGES.length) % CATEGORY_IMAGES.length
  ];
}

/** A stable image for a category page, where the card's list position is unknown. */
export function categoryImageFor(id: string): string {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return categoryImage(Math.abs(hash));
}
