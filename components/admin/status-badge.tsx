import { Badge } from "@/components/ui/badge";
import { isConfirmed, REQUEST_STATUS_LABELS } from "@/components/admin/format";

export function SaleStatusBadge({ status }: { status: string }) {
  return isConfirmed(status) ? (
    <Badge variant="success">confirmed</Badge>
  ) : (
    <Badge variant="warning">{status || "pending"}</Badge>
  );
}

export function RequestStatusBadge({ status }: { status: string }) {
  const variant = status === "completed" ? "success" : status === "in_progress" ? "default" : "warning";
  return <Badge variant={variant}>{REQUEST_STATUS_LABELS[status] ?? status}</Badge>;
}
