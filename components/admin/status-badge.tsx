import { Badge } from "@/components/ui/badge";
import { isClosedStatus } from "@/lib/payments/status";
import { isConfirmed, REQUEST_STATUS_LABELS } from "@/components/admin/format";

export function SaleStatusBadge({ status }: { status: string }) {
  if (isConfirmed(status)) return <Badge variant="success">confirmed</Badge>;
  // A checkout that ended unpaid is no open sale: shown muted, not as a warning.
  if (isClosedStatus(status)) return <Badge variant="secondary">{status}</Badge>;
  return <Badge variant="warning">{status || "pending"}</Badge>;
}

export function RequestStatusBadge({ status }: { status: string }) {
  const variant = status === "completed" ? "success" : status === "in_progress" ? "default" : "warning";
  return <Badge variant={variant}>{REQUEST_STATUS_LABELS[status] ?? status}</Badge>;
}
