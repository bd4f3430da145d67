import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { loadCategory } from "@/lib/categories/load";

// The existence check lives above the page's loading state, so it runs before anything is sent:
// an unknown category answers with a real 404 status (category/not-found.tsx), and a database
// failure reaches category/error.tsx.
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
  return <Providers>{children}</Providers>;
}
