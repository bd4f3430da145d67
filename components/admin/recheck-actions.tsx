"use client";

import { RefreshCw } from "lucide-react";
import { formatCount, formatDateTime } from "@/components/admin/format";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { toast } from "@/components/ui/use-toast";
import { HttpError } from "@/lib/client/fetcher";
import { useRecheckNow } from "@/lib/client/use-admin-verification";
import type { RecheckOverview } from "@/lib/schemas/admin";
import type { CategoryDto } from "@/lib/schemas/category";

/**
 * A category's leads due for a re-check (last verified or checked more than 27 days ago), and
 * "Re-check now": queued for the background workers, its progress polled while it runs.
 */
export function RecheckActions({
  category,
  overview,
}: {
  category: CategoryDto;
  overview: RecheckOverview | undefined;
}) {
  const recheck = useRecheckNow();
  const run = overview?.run ?? null;
  const running = run !== null && run.finishedAt === null;

  const start = () => {
    if (
      !window.confirm(
        `Re-check all ${formatCount(category.count)} leads of "${category.title}" now? ` +
          "With a verification provider configured, this uses its credits.",
      )
    )
      return;
    recheck.mutate(category._id, {
      onSuccess: () => toast({ title: "Re-check queued", description: category.title }),
      onError: (error) =>
        toast({
          title: "Error",
          description: error instanceof HttpError ? (error.serverMessage ?? error.message) : error.message,
          variant: "destructive",
        }),
    });
  };

  return (
    <div className="grid gap-2 rounded-md border p-2 text-sm" data-testid="rechecks">
      <p>
        <strong>{overview ? formatCount(overview.due) : "…"}</strong> due for a re-check
      </p>
      {running && (
        <div className="grid gap-1" role="status">
          <p>
            {run.checked === 0
              ? `Re-check queued: ${formatCount(run.total)} leads`
              : `Re-checking: ${formatCount(run.checked)} of ${formatCount(run.total)}`}
          </p>
          <Progress value={run.checked} max={Math.max(run.total, 1)} aria-label="Re-check progress" />
        </div>
      )}
      {run?.finishedAt && (
        <p className="text-muted-foreground">
          Last re-check: {formatCount(run.checked)} leads, finished {formatDateTime(run.finishedAt)}
        </p>
      )}
      <div>
        <Button
          variant="outline"
          size="sm"
          disabled={running || recheck.isPending || !overview || category.count === 0}
          onClick={start}
        >
          <RefreshCw />
          Re-check now
        </Button>
      </div>
    </div>
  );
}
