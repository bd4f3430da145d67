import { useMemo, useSyncExternalStore } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import type { Location } from "@/lib/location";
import { apiFetch } from "@/lib/client/fetcher";
import { suppressionKeys } from "@/lib/client/query-keys";
import type { ListAvailability, SuppressionListAnswer } from "@/lib/schemas/suppression";
import { segmentQueryString, type Segment } from "@/lib/segments/vocabularies";
import { withEmailQuality, type EmailQuality } from "@/lib/email-quality";

// Client calls of "Exclude contacts I already have": the upload, what the list removes from a
// category, and the list this tab uploaded, kept in session storage so that switching packages or
// categories keeps it (the server keeps it 24 hours).

export type StoredList = SuppressionListAnswer & { fileName: string };

const STORAGE_KEY = "exclusionList";

export function useUploadList() {
  return useMutation({
    mutationFn: async (file: File): Promise<StoredList> => {
      const form = new FormData();
      form.append("file", file);
      const answer = await apiFetch<SuppressionListAnswer>("/api/suppression-lists", {
        method: "POST",
        body: form,
      });
      return { ...answer, fileName: file.name };
    },
  });
}

export function useListAvailability(
  list: StoredList | null,
  scope: { categoryId: string; location: Location; segment?: Segment | null; emailQuality?: EmailQuality },
) {
  const filters = withEmailQuality(segmentQueryString(scope.segment), scope.emailQuality);
  const id = list?.suppressionListId ?? "";
  return useQuery({
    queryKey: suppressionKeys.availability(id, scope.categoryId, scope.location, filters),
    enabled: list !== null,
    queryFn: () => {
      const query = `categoryId=${scope.categoryId}&location=${scope.location}${filters ? `&${filters}` : ""}`;
      return apiFetch<ListAvailability>(
        `/api/suppression-lists/${encodeURIComponent(id)}/availability?${query}`,
        { cache: "no-store" },
      );
    },
  });
}

// The stored list as an external store: every card of the tab sees an upload or a removal at once.
const listeners = new Set<() => void>();
// Where the list lives when session storage is disabled: this page view.
let memory: string | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function storedText(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return memory;
  }
}

export function saveList(list: StoredList | null): void {
  memory = list && JSON.stringify(list);
  try {
    if (memory) sessionStorage.setItem(STORAGE_KEY, memory);
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage disabled: `memory` keeps it.
  }
  for (const listener of listeners) listener();
}

/** This tab's list (null in the server render); the server answers 404 once it no longer keeps it. */
export function useStoredList(): StoredList | null {
  const text = useSyncExternalStore(subscribe, storedText, () => null);
  return useMemo(() => {
    try {
      return JSON.parse(text ?? "null") as StoredList | null;
    } catch {
      return null;
    }
  }, [text]);
}
