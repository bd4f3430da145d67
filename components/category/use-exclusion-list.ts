import type { PurchaseProps } from "@/components/category/use-purchase";
import { HttpError } from "@/lib/client/fetcher";
import type { PackageId } from "@/lib/packages";
import { saveList, useListAvailability, useStoredList, useUploadList } from "@/lib/client/use-suppression";

/**
 * The purchase card's "Exclude contacts I already have": the list this tab uploaded (kept across
 * packages and categories), and whether each package can still be filled from the category's
 * country and segment without the list's contacts.
 */
export function useExclusionList({ category, location, segment, emailQuality }: Omit<PurchaseProps, "pkg">) {
  const stored = useStoredList();
  const upload = useUploadList();
  const availability = useListAvailability(stored, {
    categoryId: category._id,
    location,
    segment,
    emailQuality,
  });
  // A list the server no longer keeps (expired, or uploaded from another connection): upload again.
  const lost = availability.error instanceof HttpError && availability.error.status === 404;
  const list = lost ? null : stored;
  const packages = list ? availability.data?.packages : undefined;
  return {
    list,
    lost: lost ? (availability.error as HttpError).serverMessage : undefined,
    availability: list ? availability.data : undefined,
    /** Why the check failed (a limit, a busy server): the server's message, shown instead. */
    checkProblem:
      list && availability.error && !lost
        ? availability.error instanceof HttpError
          ? (availability.error.serverMessage ?? "Your list could not be checked. Please try again.")
          : "Your list could not be checked. Please try again."
        : undefined,
    uploading: upload.isPending,
    uploadError: upload.error,
    choose: (file: File) => upload.mutate(file, { onSuccess: saveList }),
    remove: () => {
      saveList(null);
      upload.reset();
    },
    /** Whether the list leaves too few leads for the package (false until that is known). */
    tooFew: (packageId: PackageId) => packages?.[packageId].available === false,
  };
}

export type ExclusionList = ReturnType<typeof useExclusionList>;
