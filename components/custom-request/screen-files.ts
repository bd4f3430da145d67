import { hasAcceptedExtension, MAX_FILE_BYTES, MAX_FILES } from "@/lib/schemas/custom-request";

export type ScreenedFiles = {
  accepted: File[];
  /** Names of files refused for their type (dropped files only, by design). */
  wrongType: string[];
  /** Names of files over 10 MB. */
  tooLarge: string[];
  /** Names of files beyond the fifth. */
  overLimit: string[];
};

/**
 * Sorts newly chosen files into those the server would take and those it would refuse, so the
 * visitor hears at once instead of after uploading. The server still checks everything.
 */
export function screenFiles(attached: number, incoming: File[], checkType: boolean): ScreenedFiles {
  const screened: ScreenedFiles = { accepted: [], wrongType: [], tooLarge: [], overLimit: [] };
  for (const file of incoming) {
    if (checkType && !hasAcceptedExtension(file.name)) screened.wrongType.push(file.name);
    else if (file.size > MAX_FILE_BYTES) screened.tooLarge.push(file.name);
    else if (attached + screened.accepted.length >= MAX_FILES) screened.overLimit.push(file.name);
    else screened.accepted.push(file);
  }
  return screened;
}

/** The toast for refused files; the product's own wording when the type is the only problem. */
export function refusalMessage(screened: ScreenedFiles): { title: string; description: string } | null {
  const { wrongType, tooLarge, overLimit } = screened;
  const sentences: string[] = [];
  if (wrongType.length) sentences.push("Please upload only PDF, Word, CSV or Excel files.");
  if (tooLarge.length)
    sentences.push(
      `${tooLarge.join(", ")}: Each file must be ${MAX_FILE_BYTES / 1024 / 1024} MB or smaller.`,
    );
  if (overLimit.length)
    sentences.push(`${overLimit.join(", ")}: At most ${MAX_FILES} files can be attached.`);
  if (sentences.length === 0) return null;
  const kinds = [wrongType, tooLarge, overLimit].filter((names) => names.length).length;
  const title =
    kinds > 1
      ? "Some files were not added"
      : wrongType.length
        ? "Invalid file format"
        : tooLarge.length
          ? "File too large"
          : "Too many files";
  return { title, description: sentences.join(" ") };
}
