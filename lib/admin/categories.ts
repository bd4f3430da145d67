import "server-only";
import { db } from "@/lib/db";
import { conflict, notFound } from "@/lib/api/errors";
import { categorySelect, toCategoryDto } from "@/lib/leads/categories";
import type { CategoryDto } from "@/lib/schemas/category";

export async function createCategory(input: { title: string; description?: string }): Promise<CategoryDto> {
  const row = await db().category.create({
    data: { title: input.title, description: input.description ?? "" },
    select: categorySelect,
  });
  return toCategoryDto(row);
}

export async function updateCategory(
  id: string,
  input: { title?: string; description?: string },
): Promise<CategoryDto> {
  const exists = await db().category.findUnique({ where: { id }, select: { id: true } });
  if (!exists) throw notFound("Category not found");
  return toCategoryDto(await db().category.update({ where: { id }, data: input, select: categorySelect }));
}

/** Deletes a category and its leads; refused while any sale refers to it (sales are records). */
export async function deleteCategory(id: string): Promise<void> {
  const exists = await db().category.findUnique({ where: { id }, select: { id: true } });
  if (!exists) throw notFound("Category not found");
  const sales = await db().order.count({ where: { categoryId: id } });
  if (sales > 0) {
    throw conflict(
      `This category has ${sales} sale${sales === 1 ? "" : "s"} and cannot be deleted. Rename it instead.`,
    );
  }
  try {
    await db().category.delete({ where: { id }, select: { id: true } });
  } catch (error) {
    // A sale created since the check above: the foreign key refuses, and so do we.
    if ((error as { code?: unknown }).code === "P2003")
      throw conflict("This category has sales and cannot be deleted.");
    throw error;
  }
}
