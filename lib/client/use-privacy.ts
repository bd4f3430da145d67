import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/fetcher";
import type { NoticeOptOutAnswer, PrivacyConfirmAnswer, PrivacyRequestBody } from "@/lib/schemas/privacy";

// Client calls of the privacy requests pages.

export function usePrivacyRequest() {
  return useMutation({
    mutationFn: (body: PrivacyRequestBody) =>
      apiFetch<{ success: true }>("/api/privacy/requests", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
  });
}

export function usePrivacyConfirm() {
  return useMutation({
    mutationFn: (token: string) =>
      apiFetch<PrivacyConfirmAnswer>("/api/privacy/requests/confirm", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token }),
      }),
  });
}

export function useNoticeOptOut() {
  return useMutation({
    mutationFn: (token: string) =>
      apiFetch<NoticeOptOutAnswer>("/api/privacy/notices/opt-out", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token }),
      }),
  });
}
