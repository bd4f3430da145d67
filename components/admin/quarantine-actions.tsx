"use client";

import { ListChecks, RotateCcw, Trash2 } from "lucide-react";
import { formatCount } from "@/components/admin/format";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";
import { useQuarantineAction } from "@/lib/client/use-admin";
import type { CategoryDto } from "@/lib/schemas/category";

/**
 * A category's leads reported by buyers of two or more orders, flagged and still on sale until the
 * admin keeps them (clearing the flags) or deletes them: all at once here, or per claim in the
 * review. The review also decides the claims' rows held under the 20% cap.
 */
export function QuarantineActions({
  category,
  flagged,
  held,
  onReview,
}: {
  category: CategoryDto;
  flagged: number;
  held: number;
  onReview: () => void;
}) {
  const release = useQuarantineAction("release");
  const remove = useQuarantineAction("delete");
  const busy = release.isPending || remove.isPending;
  const fail = (error: Error) =>
    toast({ title: "Error", description: error.message, variant: "destructive" });

  if (flagged === 0 && held === 0) {
    return <p className="text-sm text-muted-foreground">No leads to review</p>;
  }
  return (
    <div className="grid gap-2 rounded-md border border-dashed p-2" data-testid="quarantine">
      {flagged > 0 && (
        <p className="text-sm">
          <strong>{formatCount(flagged)}</strong> flagged (reported by buyers of two or more orders, still on
          sale)
        </p>
      )}
      {held > 0 && (
        <p className="text-sm">
          <strong>{formatCount(held)}</strong> held for review (reported beyond a claim&apos;s 20% cap)
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={onReview}>
          <ListChecks />
          Review by claim
        </Button>
        {flagged > 0 && (
          <>
            <Button
              variant="outline"
              size="sm"
              disabled={busy}
              onClick={() =>
                release.mutate(category._id, {
                  onSuccess: () =>
                    toast({ title: "Flagged leads kept on sale", description: category.title }),
                  onError: fail,
                })
              }
            >
              <RotateCcw />
              Keep on sale
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={busy}
              onClick={() => {
                if (
                  !window.confirm(
                    `Delete the ${flagged} flagged leads of "${category.title}"? Leads in buyers' files stay there, marked invalid. This cannot be undone.`,
                  )
                )
                  return;
                remove.mutate(category._id, {
                  onSuccess: () => toast({ title: "Flagged leads deleted", description: category.title }),
                  onError: fail,
                });
              }}
            >
              <Trash2 />
              Delete
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
