/** How much of each of the five stars a rating fills, from 0 to 1 (4.8 fills 80% of the fifth). */
export function starFills(rating: number): number[] {
  return Array.from(
    { length: 5 },
    (_, index) => Math.round(Math.min(1, Math.max(0, rating - index)) * 100) / 100,
  );
}
