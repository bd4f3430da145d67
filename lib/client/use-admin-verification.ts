"use client";

// The admin's verification screens: re-checks per category, flagged leads and held rows reviewed per claim, and the
// provider's status in Settings. Every mutation invalidates the cached reads it affects.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { adminJson, adminRequest } from "@/lib/client/admin-api";
import { adminKeys } from "@/lib/client/query-keys";
import type { QuarantineClaimDto, RecheckOverview, VerificationStatusDto } from "@/lib/schemas/admin";

/** How often the Categories tab asks for a running re-check's progress. */
export const RECHECK_POLL_MS = 3000;
export const CLAIMS_PAGE_SIZE = 10;

export function useAdminRechecks() {
  return useQuery({
    queryKey: adminKeys.rechecks,
    queryFn: () => adminJson<RecheckOverview[]>("/api/admin/categories/rechecks"),
    // Polled while a category's re-check runs, across instances (the progress is in the database).
    refetchInterval: (query) =>
      query.state.data?.some((entry) => entry.run && !entry.run.finishedAt) ? RECHECK_POLL_MS : false,
  });
}

export function useRecheckNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (categoryId: string) =>
      adminJson<RecheckOverview>(`/api/admin/categories/${categoryId}/recheck`, { method: "POST" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.rechecks }),
  });
}

export function useQuarantineClaims(categoryId: string | null, page: number) {
  return useQuery({
    queryKey: adminKeys.quarantineClaims(categoryId ?? "", page),
    queryFn: async () => {
      const response = await adminRequest(
        `/api/admin/categories/${categoryId}/quarantine/claims?page=${page}&pageSize=${CLAIMS_PAGE_SIZE}`,
      );
      const claims = (await response.json()) as QuarantineClaimDto[];
      return { claims, total: Number(response.headers.get("x-total-count") ?? claims.length) };
    },
    enabled: categoryId !== null,
  });
}

export type ClaimAction = "release" | "delete" | "replace-held" | "decline-held";
export type ClaimActionAnswer = { replaced?: number; stillHeld?: number };

const CLAIM_ACTIONS: Record<ClaimAction, { path: string; method: "POST" | "DELETE" }> = {
  release: { path: "/release", method: "POST" },
  delete: { path: "", method: "DELETE" },
  "replace-held": { path: "/held/replace", method: "POST" },
  "decline-held": { path: "/held/decline", method: "POST" },
};

/**
 * Release: the claim's flagged leads stay on sale, unflagged. Delete: they leave the shelf. Replace
 * held: its rows held under the 20% cap are swapped for fresh leads. Decline held: they stay.
 */
export function useClaimAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      categoryId,
      claimId,
      action,
    }: {
      categoryId: string;
      claimId: string;
      action: ClaimAction;
    }) =>
      adminJson<ClaimActionAnswer>(
        `/api/admin/categories/${categoryId}/quarantine/claims/${claimId}${CLAIM_ACTIONS[action].path}`,
        { method: CLAIM_ACTIONS[action].method },
      ),
    onSuccess: () =>
      Promise.all(
        [
          adminKeys.quarantineClaimsAll,
          adminKeys.quarantine,
          adminKeys.categories,
          adminKeys.rechecks,
          adminKeys.stats,
          adminKeys.saleAll,
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}

/** The provider's credits are asked of it: when Settings first opens, then on "Check credits". */
export function useVerificationStatus() {
  return useQuery({
    queryKey: adminKeys.verification,
    queryFn: () => adminJson<VerificationStatusDto>("/api/admin/settings/verification"),
  });
}
