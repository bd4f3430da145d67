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

/**
 * The category's place in listCategories' order. The home page's cards pick their image by that
 * place, so the category page uses it too and shows the same image.
 */
export async function categoryPosition(id: string): Promise<number> {
  const rows = await db().$queryRaw<{ position: number }[]>`
    SELECT count(*)::int AS position FROM categories c, categories me
    WHERE me.id = ${id}::uuid AND (c.created_at, c.id) < (me.created_at, me.id)`;
  return rows[0]?.position ?? 0;
}

export async function findCategory(id: string): Promise<CategoryDto | null> {
  const row = await db().category.findUnique({ where: { id }, select: categorySelect });
  return row ? toCategoryDto(row) : null;
}
