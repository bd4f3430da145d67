import "server-only";
import { db } from "@/lib/db";
import type { CategoryDto } from "@/lib/schemas/category";

export const categorySelect = {
  id: true,
  title: true,
  description: true,
  count: true,
  createdAt: true,
} as const;

export function toCategoryDto(row: {
  id: string;
  title: string;
  description: string;
  count: number;
  createdAt: Date;
}): CategoryDto {
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    count: row.count,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listCategories(): Promise<CategoryDto[]> {
  const rows = await db().category.findMany({
    select: categorySelect,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toCategoryDto);
}

export async function findCategory(id: string): Promise<CategoryDto | null> {
  const row = await db().category.findUnique({ where: { id }, select: categorySelect });
  return row ? toCategoryDto(row) : null;
}
