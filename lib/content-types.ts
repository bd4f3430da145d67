import "server-only";

/** The file types the app takes in (request attachments) and sends out (downloads, exports). */
export const CONTENT_TYPES = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  csv: "text/csv",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;

export const CSV_TYPE = `${CONTENT_TYPES.csv}; charset=utf-8`;

/** A file a domain hands the edge to send: its name, its type and its bytes. */
export type OutgoingFile = {
  fileName: string;
  contentType: string;
  body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>;
};
