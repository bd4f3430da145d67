"use client";

import { Button } from "@/components/ui/button";
import type { RequestDto } from "@/lib/schemas/admin";
import { cn } from "@/lib/utils";

export type SettableStatus = "in_progress" | "completed";

/** The product's In Progress and Complete buttons, each disabled while the request already has it. */
export function RequestStatusActions({
  request,
  busy,
  onSet,
  className,
}: {
  request: RequestDto;
  busy: boolean;
  onSet: (request: RequestDto, status: SettableStatus) => void;
  className?: string;
}) {
  return (
    <div className={cn("flex gap-2", className)}>
      <Button
        size="sm"
        variant="outline"
        disabled={request.status === "in_progress" || busy}
        onClick={() => onSet(request, "in_progress")}
      >
        In Progress
      </Button>
      <Button
        size="sm"
        disabled={request.status === "completed" || busy}
        onClick={() => onSet(request, "completed")}
      >
        Complete
      </Button>
    </div>
  );
}
