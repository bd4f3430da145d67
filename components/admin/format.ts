// Display helpers shared by the admin screens (client-only rendering, en-US).
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const integer = new Intl.NumberFormat("en-US");

export const formatUsd = (value: number) => usd.format(value);
export const formatCount = (value: number) => integer.format(value);

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" });
}

export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}

/** The spec's sales rule: confirmed, or anything else counts as pending. */
export function isConfirmed(status: string): boolean {
  return status === "confirmed";
}

export function packageLabel(packageType: string): string {
  return packageType.charAt(0).toUpperCase() + packageType.slice(1);
}

export const REQUEST_STATUS_LABELS: Record<string, string> = {
  pending: "Pending",
  in_progress: "In Progress",
  completed: "Completed",
};
