import type { PurchaseProps } from "@/components/category/use-purchase";
import { HttpError } from "@/lib/client/fetcher";
import { saveList, useListAvailability, useStoredList, useUploadList } from "@/lib/client/use-suppression";

/**
 * The purchase card's "Exclude contacts I already have": the list this tab uploaded (kept across
 * packages and categories), what it removes from the category's country and segment, and whether
 * a package can still be filled with what is left.
 */
export function useExclusionList({ category, location, segment }: Omit<PurchaseProps, "pkg">) {
  const stored = useStoredList();
  const upload = useUploadList();
  const availability = useListAvailability(stored, { categoryId: category._id, location, segment });
  // A list the server no longer keeps (expired, or uploaded from another connection): upload again.
  const lost = availability.error instanceof HttpError && availability.error.status === 404;
  const list = lost ? null : stored;
  const remaining = list ? availability.data?.remaining : undefined;
  return {
    list,
    lost: lost ? (availability.error as HttpError).serverMessage : undefined,
    availability: list ? availability.data : undefined,
    uploading: upload.isPending,
    uploadError: upload.error,
    choose: (file: File) => upload.mutate(file, { onSuccess: saveList }),
    remove: () => {
      saveList(null);
      upload.reset();
    },
    /** Whether the list leaves fewer than `leadCount` leads (false until that is known). */
    tooFew: (leadCount: number) => remaining !== undefined && remaining < leadCount,
  };
}

export type ExclusionList = ReturnType<typeof useExclusionList>;
