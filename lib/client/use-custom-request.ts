"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/fetcher";
import { adminKeys } from "@/lib/client/query-keys";
import {
  chosenPlatforms,
  type CustomRequestCreated,
  type CustomRequestFormState,
  type CustomRequestInput,
} from "@/lib/schemas/custom-request";

export type CustomRequestSubmission = {
  form: CustomRequestFormState;
  files: File[];
  /** The honeypot's value: empty for people. */
  website: string;
};

/** The text fields as the API takes them: what the form checks and what it sends. */
export function customRequestFields(form: CustomRequestFormState, website: string) {
  return {
    name: form.name,
    email: form.email,
    industry: form.industry,
    role: form.role,
    message: form.message,
    platforms: chosenPlatforms(form.platforms),
    website,
  } satisfies CustomRequestInput;
}

/** Posts to our own server only: JSON without files, multipart with them. */
export async function submitCustomRequest({
  form,
  files,
  website,
}: CustomRequestSubmission): Promise<CustomRequestCreated> {
  const fields = customRequestFields(form, website);
  if (files.length === 0) {
    return apiFetch<CustomRequestCreated>("/api/custom-request", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(fields),
    });
  }
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(key, item);
  }
  // Files last, so the server has read every text field before the uploads stream in.
  for (const file of files) body.append("files", file, file.name);
  return apiFetch<CustomRequestCreated>("/api/custom-request", { method: "POST", body });
}

export function useSubmitCustomRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitCustomRequest,
    // A submission invalidates the cached custom-requests data (the admin lists,
    // keyed under ["admin", "requests"] by lib/client/use-admin.ts).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.requestsAll }),
  });
}
