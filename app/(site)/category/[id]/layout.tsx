import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { CategoryHero } from "@/components/category/category-hero";
import { loadCategory, loadCategoryImage } from "@/lib/categories/load";

// The existence check lives above the page's loading state, so it runs before anything is sent:
// an unknown category answers with a real 404 status (category/not-found.tsx), and a database
// failure reaches category/error.tsx.
// The hero (breadcrumb, title, description, list facts) needs nothing but the category, so it is
// rendered here too: it arrives with the first bytes of the document and paints at once, while the
// rest of the page (purchase card, sections, sample table) streams in behind the loading state.
export default async function CategoryLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ id: string }>;
}) {
  const { id } = await params;
  const category = await loadCategory(id);
  if (!category) notFound();
  return (
    <>
      <CategoryHero
        title={category.title}
        description={category.description}
        countByLocation={category.countByLocation}
        percentByLocation={category.verifiedRecentlyPercentByLocation}
        updatedAt={category.updatedAt}
        image={await loadCategoryImage(category._id)}
      />
      {children}
    </>
  );
}
