import type { SaleFilter } from "@/lib/schemas/admin";

// Every TanStack Query key in one place, so a mutation invalidates exactly what a query reads.

export const adminKeys = {
  all: ["admin"] as const,
  stats: ["admin", "stats"] as const,
  sales: (page: number, order: "asc" | "desc", status: SaleFilter | "all") =>
    ["admin", "sales", page, order, status] as const,
  salesAll: ["admin", "sales"] as const,
  sale: (id: string) => ["admin", "sale", id] as const,
  saleAll: ["admin", "sale"] as const,
  categories: ["admin", "categories"] as const,
  requests: (page: number) => ["admin", "requests", page] as const,
  requestsAll: ["admin", "requests"] as const,
  settings: ["admin", "settings"] as const,
  quarantine: ["admin", "quarantine"] as const,
  quarantineClaims: (categoryId: string, page: number) =>
    ["admin", "quarantine-claims", categoryId, page] as const,
  quarantineClaimsAll: ["admin", "quarantine-claims"] as const,
  rechecks: ["admin", "rechecks"] as const,
  verification: ["admin", "verification"] as const,
  privacyRequests: ["admin", "privacy-requests"] as const,
  phoneRegisters: ["admin", "phone-registers"] as const,
};

/** One run of a purchase card's automatic status checks (its data is the run's progress). */
export const paymentPollKey = (paymentId: string, run: number) => ["payment-poll", paymentId, run] as const;

/** What an exclusion list removes from a category's country and segment (`filters`: the query string). */
export const suppressionKeys = {
  availability: (listId: string, categoryId: string, location: string, filters: string) =>
    ["suppression-availability", listId, categoryId, location, filters] as const,
};
