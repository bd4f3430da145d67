import { Badge } from "@/components/ui/badge";
import { isClosedStatus } from "@/lib/payments/status";
import { isConfirmed, REQUEST_STATUS_LABELS } from "@/components/admin/format";

export function SaleStatusBadge({ status }: { status: string }) {
  if (isConfirmed(status)) return <Badge variant="success">Confirmed</Badge>;
  // A checkout that ended unpaid is no open sale: shown muted, not as a warning.
  if (isClosedStatus(status)) return <Badge variant="secondary">{statusLabel(status)}</Badge>;
  return <Badge variant="warning">{statusLabel(status || "pending")}</Badge>;
}

/** Sales and requests badges share one capitalisation: "Pending", "In Progress", "Partially Paid". */
function statusLabel(status: string): string {
  return (
    REQUEST_STATUS_LABELS[status] ??
    status
      .split(/[_\s]+/)
      .filter(Boolean)
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
      .join(" ")
  );
}

export function RequestStatusBadge({ status }: { status: string }) {
  const variant = status === "completed" ? "success" : status === "in_progress" ? "default" : "warning";
  return <Badge variant={variant}>{statusLabel(status)}</Badge>;
}
