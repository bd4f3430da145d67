"use client";

import { ExternalLink, Pencil, Plus, Upload } from "lucide-react";
import { useState } from "react";
import { CategoryDialog } from "@/components/admin/category-dialog";
import { formatCount } from "@/components/admin/format";
import { ImportDialog } from "@/components/admin/import-dialog";
import { QuarantineActions } from "@/components/admin/quarantine-actions";
import { QuarantineReviewDialog } from "@/components/admin/quarantine-review-dialog";
import { RecheckActions } from "@/components/admin/recheck-actions";
import { allCountries, statusMixText } from "@/components/category/freshness";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useAdminCategories, useAdminQuarantine } from "@/lib/client/use-admin";
import { useAdminRechecks } from "@/lib/client/use-admin-verification";
import type { CategoryDto } from "@/lib/schemas/category";

export function CategoriesTab() {
  const categories = useAdminCategories();
  const quarantine = useAdminQuarantine();
  const awaiting = new Map(quarantine.data?.map((entry) => [entry.categoryId, entry]));
  const rechecks = useAdminRechecks();
  const recheckOf = new Map(rechecks.data?.map((entry) => [entry.categoryId, entry]));
  const [reviewing, setReviewing] = useState<CategoryDto | undefined>();
  const [editing, setEditing] = useState<CategoryDto | undefined>();
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState<CategoryDto | undefined>();

  return (
    <div className="space-y-4">
      <div className="flex justify-end">
        <Button onClick={() => setAdding(true)}>
          <Plus />
          Add Category
        </Button>
      </div>
      {categories.isLoading && (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} className="h-40" />
          ))}
        </div>
      )}
      {categories.data?.length === 0 && <p className="text-muted-foreground">No categories yet</p>}
      <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
        {categories.data?.map((category) => (
          <li key={category._id}>
            <Card className="h-full" data-category-id={category._id}>
              <CardHeader>
                <CardTitle asChild>
                  <h2 className="text-lg">{category.title}</h2>
                </CardTitle>
              </CardHeader>
              <CardContent className="flex-1 space-y-3">
                <div>
                  <p className="text-2xl font-bold">{formatCount(category.count)}</p>
                  <p className="text-sm text-muted-foreground">available leads</p>
                </div>
                <p className="text-sm text-muted-foreground" data-testid="status-mix">
                  Email status: {statusMixText(allCountries(category.statusMixByLocation))}
                </p>
                <RecheckActions category={category} overview={recheckOf.get(category._id)} />
                <QuarantineActions
                  category={category}
                  flagged={awaiting.get(category._id)?.flagged ?? 0}
                  held={awaiting.get(category._id)?.held ?? 0}
                  onReview={() => setReviewing(category)}
                />
              </CardContent>
              <CardFooter className="flex flex-wrap gap-2">
                <Button variant="outline" size="sm" onClick={() => setEditing(category)}>
                  <Pencil />
                  Edit
                </Button>
                <Button variant="outline" size="sm" onClick={() => setImporting(category)}>
                  <Upload />
                  Import Leads
                </Button>
                <Button variant="ghost" size="sm" asChild>
                  <a href={`/category/${category._id}`} target="_blank" rel="noopener noreferrer">
                    <ExternalLink />
                    View
                  </a>
                </Button>
              </CardFooter>
            </Card>
          </li>
        ))}
      </ul>
      <CategoryDialog open={adding} onOpenChange={setAdding} />
      <CategoryDialog
        open={Boolean(editing)}
        category={editing}
        onOpenChange={(open) => !open && setEditing(undefined)}
      />
      <ImportDialog category={importing} onOpenChange={(open) => !open && setImporting(undefined)} />
      <QuarantineReviewDialog
        category={reviewing}
        onOpenChange={(open) => !open && setReviewing(undefined)}
      />
    </div>
  );
}
