"use client";

// One hook per admin resource. Every mutation invalidates the cached lists it affects.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { adminJson, adminRequest, adminSend, getAdminToken } from "@/lib/client/admin-api";
import { adminKeys } from "@/lib/client/query-keys";
import type { CategoryDto } from "@/lib/schemas/category";
import type { PrivacyRequestDto } from "@/lib/schemas/privacy";
import type {
  ImportReport,
  QuarantineCount,
  RequestDto,
  SaleDetailDto,
  SaleDto,
  SaleFilter,
  SettingsDto,
  SettingsUpdate,
  StatsDto,
} from "@/lib/schemas/admin";

/** How often the dashboard refreshes itself when the admin turned auto-refresh on. */
export const AUTO_REFRESH_MS = 30_000;

export type Page<T> = { items: T[]; total: number };

async function fetchPage<T>(url: string): Promise<Page<T>> {
  const response = await adminRequest(url);
  const items = (await response.json()) as T[];
  return { items, total: Number(response.headers.get("x-total-count") ?? items.length) };
}

type Refresh = { refetchInterval?: number | false };

export function useAdminStats(options: Refresh = {}) {
  return useQuery({
    queryKey: adminKeys.stats,
    queryFn: () => adminJson<StatsDto>("/api/admin/stats"),
    ...options,
  });
}

export function useAdminSales(
  page: number,
  order: "asc" | "desc",
  pageSize: number,
  status: SaleFilter | "all",
  options: Refresh = {},
) {
  const query = new URLSearchParams({ page: String(page), pageSize: String(pageSize), order });
  if (status !== "all") query.set("status", status);
  return useQuery({
    queryKey: [...adminKeys.sales(page, order, status), pageSize],
    queryFn: () => fetchPage<SaleDto>(`/api/admin/sales?${query}`),
    placeholderData: (previous) => previous,
    ...options,
  });
}

export function useAdminSale(id: string | null) {
  return useQuery({
    queryKey: adminKeys.sale(id ?? ""),
    queryFn: () => adminJson<SaleDetailDto>(`/api/admin/sales/${id}`),
    enabled: id !== null,
  });
}

/** Recheck and Resend receipt: both answer the order's new detail. */
export function useSaleAction(action: "recheck" | "resend-receipt") {
  const queryClient = useQueryClient();
  return useMutation({
    // `paymentId`: Recheck of an order with no payment stored (one the buyer paid after cancelling).
    mutationFn: ({ id, paymentId }: { id: string; paymentId?: string }) =>
      adminSend<SaleDetailDto>(`/api/admin/sales/${id}/${action}`, "POST", paymentId ? { paymentId } : {}),
    onSuccess: (detail) => {
      queryClient.setQueryData(adminKeys.sale(detail._id), detail);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.salesAll }),
        queryClient.invalidateQueries({ queryKey: adminKeys.stats }),
      ]);
    },
  });
}

export function useAdminCategories(options: Refresh = {}) {
  return useQuery({
    queryKey: adminKeys.categories,
    queryFn: () => adminJson<CategoryDto[]>("/api/admin/categories"),
    ...options,
  });
}

export function useAdminRequests(page: number, pageSize: number, options: Refresh = {}) {
  return useQuery({
    queryKey: [...adminKeys.requests(page), pageSize],
    queryFn: () => fetchPage<RequestDto>(`/api/admin/requests?page=${page}&pageSize=${pageSize}`),
    placeholderData: (previous) => previous,
    ...options,
  });
}

export function useAdminSettings() {
  return useQuery({
    queryKey: adminKeys.settings,
    queryFn: () => adminJson<SettingsDto>("/api/admin/settings"),
  });
}

export function useUpdateRequestStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: "in_progress" | "completed" }) =>
      adminSend<RequestDto>(`/api/admin/requests/${id}`, "PATCH", { status }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.requestsAll }),
        queryClient.invalidateQueries({ queryKey: adminKeys.stats }),
      ]),
  });
}

export function useAdminPrivacyRequests(options: Refresh = {}) {
  return useQuery({
    queryKey: adminKeys.privacyRequests,
    queryFn: () => adminJson<PrivacyRequestDto[]>("/api/admin/privacy-requests"),
    ...options,
  });
}

export function useAdminQuarantine(options: Refresh = {}) {
  return useQuery({
    queryKey: adminKeys.quarantine,
    queryFn: () => adminJson<QuarantineCount[]>("/api/admin/categories/quarantine"),
    ...options,
  });
}

function useCategoryMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.categories }),
        queryClient.invalidateQueries({ queryKey: adminKeys.quarantine }),
        queryClient.invalidateQueries({ queryKey: adminKeys.quarantineClaimsAll }),
        queryClient.invalidateQueries({ queryKey: adminKeys.rechecks }),
        queryClient.invalidateQueries({ queryKey: adminKeys.stats }),
      ]),
  });
}

export function useCreateCategory() {
  return useCategoryMutation((input: { title: string; description?: string }) =>
    adminSend<CategoryDto>("/api/admin/categories", "POST", input),
  );
}

export function useUpdateCategory() {
  return useCategoryMutation(({ id, ...input }: { id: string; title: string; description?: string }) =>
    adminSend<CategoryDto>(`/api/admin/categories/${id}`, "PATCH", input),
  );
}

export function useDeleteCategory() {
  return useCategoryMutation((id: string) => adminJson(`/api/admin/categories/${id}`, { method: "DELETE" }));
}

/** Release: the category's flagged leads stay on sale, unflagged. Delete: they leave the shelf. */
export function useQuarantineAction(action: "release" | "delete") {
  return useCategoryMutation((categoryId: string) =>
    action === "release"
      ? adminJson<unknown>(`/api/admin/categories/${categoryId}/quarantine/release`, { method: "POST" })
      : adminJson<unknown>(`/api/admin/categories/${categoryId}/quarantine`, { method: "DELETE" }),
  );
}

/** Uploads a CSV with XMLHttpRequest, the one browser API that reports upload progress. */
export function uploadLeadsCsv(
  categoryId: string,
  source: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<ImportReport> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/admin/categories/${categoryId}/leads`);
    const token = getAdminToken();
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: { message?: string } & Partial<ImportReport> = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: reported below
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as ImportReport);
      else reject(new Error(body.message ?? `Import failed (${xhr.status})`));
    };
    xhr.onerror = () => reject(new Error("Network error during upload"));
    const form = new FormData();
    // Before the file: the server reads the parts in order.
    form.append("source", source);
    form.append("file", file);
    xhr.send(form);
  });
}

export function useImportLeads() {
  return useCategoryMutation(
    ({
      categoryId,
      source,
      file,
      onProgress,
    }: {
      categoryId: string;
      source: string;
      file: File;
      onProgress: (f: number) => void;
    }) => uploadLeadsCsv(categoryId, source, file, onProgress),
  );
}

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: SettingsUpdate) => adminSend<SettingsDto>("/api/admin/settings", "PATCH", update),
    onSuccess: (settings) => {
      queryClient.setQueryData(adminKeys.settings, settings);
      return queryClient.invalidateQueries({ queryKey: adminKeys.settings });
    },
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) =>
      adminSend<{ token: string }>("/api/admin/change-password", "POST", input),
  });
}
