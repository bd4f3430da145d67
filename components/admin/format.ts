// Display helpers shared by the admin screens (client-only rendering, en-US).
import { INDUSTRIES, PLATFORMS, ROLES } from "@/lib/schemas/custom-request";

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

/** The product's sales rule: confirmed, or anything else counts as pending. */
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

type Option = { value: string; label: string };

function labelFrom(options: readonly Option[], value: string): string {
  const key = value.trim().toLowerCase();
  return options.find((option) => option.value === key || option.label.toLowerCase() === key)?.label ?? value;
}

/** The form's label for a stored industry ("saas" -> "SaaS"); unknown values are shown as stored. */
export const industryLabel = (value: string) => labelFrom(INDUSTRIES, value);

/** The form's label for a stored role ("ceo" -> "CEO / Founder"). */
export const roleLabel = (value: string) => labelFrom(ROLES, value);

/** The stored platform list ("linkedin, slack") with the form's labels ("LinkedIn, Slack"). */
export function platformLabels(value: string): string {
  return value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => labelFrom(PLATFORMS, item))
    .join(", ");
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit" });
}

export const formatKilobytes = (size: number) => `${(size / 1024).toFixed(1)} KB`;
