import "server-only";
import { db, transaction } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { conflict, notFound } from "@/lib/errors";
import { revalidateCatalogue } from "@/lib/categories/cache";
import { findAnyCategory } from "@/lib/categories/public";
import type { CategoryDto } from "@/lib/schemas/category";

/**
 * Refuses a title another category already has (ignoring case): buyers tell categories apart by
 * title. The transaction lock makes two admins' simultaneous saves check one after the other.
 */
async function assertTitleFree(
  tx: Prisma.TransactionClient,
  title: string,
  exceptId?: string,
): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('categories.title'))`;
  const taken = await tx.category.findFirst({
    where: { title: { equals: title, mode: "insensitive" }, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  if (taken) throw conflict(`A category named "${title}" already exists. Choose another title.`);
}

export async function createCategory(input: { title: string; description?: string }): Promise<CategoryDto> {
  const id = await transaction(async (tx) => {
    await assertTitleFree(tx, input.title);
    const row = await tx.category.create({
      data: { title: input.title, description: input.description ?? "" },
      select: { id: true },
    });
    return row.id;
  });
  revalidateCatalogue();
  return (await findAnyCategory(id))!;
}

export async function updateCategory(
  id: string,
  input: { title?: string; description?: string },
): Promise<CategoryDto> {
  await transaction(async (tx) => {
    const exists = await tx.category.findUnique({ where: { id }, select: { id: true } });
    if (!exists) throw notFound("Category not found");
    if (input.title !== undefined) await assertTitleFree(tx, input.title, id);
    await tx.category.update({ where: { id }, data: input, select: { id: true } });
  });
  revalidateCatalogue();
  const category = await findAnyCategory(id);
  if (!category) throw notFound("Category not found");
  return category;
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
  revalidateCatalogue();
}
