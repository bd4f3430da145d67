import "server-only";
import { Readable } from "node:stream";
import busboy from "busboy";
import { declaredLength, mediaType, readJsonBody } from "@/lib/api/body";
import { AppError, badRequest, ClientAbortError, tooLarge, UploadTimeoutError } from "@/lib/errors";
import { takeUploadSlot, type FormBody, type FormPart, type UploadLimits } from "@/lib/limits/uploads";

// Uploads at the edge: the body is read through a slot of lib/limits/uploads.ts, bounded on its
// bytes, its silences and its duration, and parsed by busboy into the parts domain code reads as
// they arrive. The request's own stream is never cancelled: undici closes a cancelled body again
// when its pending read ends, an uncaught exception. Reading simply stops, and scripts/server.mjs
// closes the connection after an answer given before the body's end (lib/http/early-answer.mjs).

const IDLE_MS = 15_000;
// A body slower than this on average, once it has been waited for RATE_GRACE_MS, is dropped: a
// client sending a byte now and then would otherwise hold its slot until the deadline.
const MIN_BYTES_PER_SECOND = 2048;
const RATE_GRACE_MS = 10_000;

/**
 * The request body as a Node stream that fails with a typed error at its size, rate, idle and
 * deadline limits, and when the client goes away.
 */
function boundedBody(body: ReadableStream<Uint8Array>, limits: UploadLimits): Readable {
  const reader = body.getReader();
  let received = 0;
  // Only the time spent waiting for the client counts, not the time the consumer takes.
  let waited = 0;
  let idle: NodeJS.Timeout | undefined;
  const stream: Readable = new Readable({
    read() {
      const since = Date.now();
      const slowAfter = Math.max(RATE_GRACE_MS, (received * 1000) / MIN_BYTES_PER_SECOND) - waited;
      idle =
        slowAfter < IDLE_MS
          ? setTimeout(
              () =>
                stream.destroy(
                  new UploadTimeoutError(
                    `The upload arrived slower than ${MIN_BYTES_PER_SECOND / 1024} KB per second`,
                  ),
                ),
              Math.max(0, slowAfter),
            )
          : setTimeout(
              () => stream.destroy(new UploadTimeoutError(`No data arrived for ${IDLE_MS / 1000} seconds`)),
              IDLE_MS,
            );
      reader.read().then(
        ({ done, value }) => {
          clearTimeout(idle);
          waited += Date.now() - since;
          if (stream.destroyed) return;
          if (done) return void stream.push(null);
          received += value.byteLength;
          if (received > limits.maxBytes) stream.destroy(limits.tooLarge());
          else stream.push(value);
        },
        () => {
          clearTimeout(idle);
          stream.destroy(new ClientAbortError());
        },
      );
    },
    destroy(error, callback) {
      clearTimeout(idle);
      clearTimeout(deadline);
      callback(error);
    },
  });
  const deadline = setTimeout(
    () => stream.destroy(new UploadTimeoutError("The upload took too long")),
    limits.deadlineSeconds * 1000,
  );
  return stream;
}

/** The parts of a multipart body, in order; a file part's stream must be read or left before the next. */
async function* multipartParts(request: Request, limits: UploadLimits): AsyncGenerator<FormPart> {
  if ((declaredLength(request) ?? 0) > limits.maxBytes) throw limits.tooLarge();
  if (!request.body) throw badRequest("The multipart body is empty");
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      defParamCharset: "utf8",
      limits: {
        files: limits.files,
        // busboy reports the limit once a file reaches it; one byte of slack lets exactly the limit in.
        fileSize: limits.maxFileBytes + 1,
        fields: limits.fields ?? 20,
        fieldSize: limits.fieldBytes ?? 64 * 1024,
        parts: limits.files + (limits.fields ?? 20),
      },
    });
  } catch {
    throw badRequest("Malformed multipart body");
  }
  const source = boundedBody(request.body, limits);
  const queue: (FormPart | Error | null)[] = [];
  let wake: (() => void) | undefined;
  const push = (item: FormPart | Error | null) => {
    queue.push(item);
    wake?.();
  };
  // A typed failure (size, timeout) reaches the parser, an open file stream and the loop below.
  source.on("error", (error) => parser.destroy(error));
  parser.on("field", (name, value, info) => {
    push(
      info.valueTruncated ? tooLarge("A form field is too large", { [name]: "Too long" }) : { name, value },
    );
  });
  parser.on("file", (name, file, info) => {
    // busboy skips the rest of a file past its limit without waiting for anyone: stop the body now.
    file.on("limit", () => source.destroy(limits.fileTooLarge(info.filename ?? "")));
    push({ name, fileName: info.filename ?? "", file });
  });
  parser.on("filesLimit", () =>
    push(badRequest("Invalid input", { files: `At most ${limits.files} files can be attached` })),
  );
  parser.on("fieldsLimit", () => push(badRequest("Too many form fields")));
  parser.on("partsLimit", () => push(badRequest("Too many form fields")));
  parser.on("error", (error) =>
    push(error instanceof AppError ? error : badRequest("Malformed multipart body")),
  );
  parser.on("close", () => push(null));
  source.pipe(parser);
  try {
    for (;;) {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift()!;
      if (item === null) return;
      if (item instanceof Error) throw item;
      yield item;
      // A file its reader left unread is skipped, so busboy moves on to the next part.
      if ("file" in item && !item.file.readableEnded) item.file.resume();
    }
  } finally {
    // Reading stops here; the unread rest is the server's to drop with the connection.
    source.unpipe(parser);
    source.destroy();
    parser.removeAllListeners("error");
    parser.on("error", () => undefined);
  }
}

/**
 * The body of an upload route, read through one upload slot of the caller's address (taken at the
 * first part and released when the route answers).
 */
export class RequestUpload {
  private releaseSlot?: () => void;

  constructor(
    private readonly request: Request,
    private readonly clientIp: string,
  ) {}

  /** JSON's value (bounded), or the multipart parts as they arrive; 415 for anything else. */
  async read(limits: UploadLimits): Promise<FormBody> {
    const type = mediaType(this.request);
    if (type === "multipart/form-data") return { parts: this.parts(limits) };
    if (type === "application/json") return { json: await readJsonBody(this.request, limits.jsonBytes) };
    throw limits.unsupported();
  }

  private async *parts(limits: UploadLimits): AsyncGenerator<FormPart> {
    this.releaseSlot = takeUploadSlot(limits.pool, this.clientIp);
    yield* multipartParts(this.request, limits);
  }

  /** Releases the slot (the route calls it once answered). */
  close(): void {
    this.releaseSlot?.();
  }
}
