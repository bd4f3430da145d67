import "server-only";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { badRequest } from "@/lib/errors";

// Multipart uploads, streamed through busboy with the caller's limits: nothing is buffered here.

/** Whether the body is an upload (multipart/form-data), as opposed to a small JSON body. */
export function isMultipart(request: Request): boolean {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  return mediaType === "multipart/form-data";
}

/**
 * A parser for the request's multipart body and the body as a Node stream (not yet piped: the
 * caller attaches its listeners first). Throws 400 when there is no body or busboy refuses the
 * content type.
 */
export function openMultipart(
  request: Request,
  limits: busboy.Limits,
): { parser: busboy.Busboy; source: Readable } {
  if (!request.body) throw badRequest("The multipart body is empty");
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      defParamCharset: "utf8",
      limits,
    });
  } catch {
    throw badRequest("Malformed multipart body");
  }
  const source = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
  source.on("error", (error) => parser.destroy(error));
  return { parser, source };
}

/**
 * Streams the first file part named `field` into `consume` and answers what it answers; other
 * parts are skipped. `maxBytes` ends the file stream with `tooLarge` once passed. 400 with
 * `missing` (as the field's error) when no such file arrives.
 */
export function consumeUploadedFile<T>(
  request: Request,
  options: { field: string; maxBytes: number; missing: string; tooLarge: () => Error },
  consume: (file: Readable) => Promise<T>,
): Promise<T> {
  const { field, maxBytes, missing, tooLarge } = options;
  if (!isMultipart(request)) {
    throw badRequest(`Upload the file as multipart/form-data in the field "${field}"`, { [field]: missing });
  }
  const { parser, source } = openMultipart(request, { files: 1, fileSize: maxBytes });
  return new Promise<T>((resolve, reject) => {
    let job: Promise<T> | undefined;
    parser.on("file", (name, stream) => {
      if (name !== field || job) {
        stream.resume();
        return;
      }
      stream.on("limit", () => stream.destroy(tooLarge()));
      job = consume(stream);
      job.then(resolve, reject);
    });
    parser.on("error", () => {
      if (!job) reject(badRequest("Malformed multipart body", { [field]: missing }));
    });
    parser.on("close", () => {
      if (!job) reject(badRequest("No file was uploaded", { [field]: missing }));
    });
    source.pipe(parser);
  });
}
