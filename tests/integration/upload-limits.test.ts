// Upload limits that hold however the body arrives: the total is capped on the stream itself,
// reading stops at the first refused file, uploads in flight count against the address's limit,
// the process receives a bounded number of uploads at once, and a submission never waits on
// another one's lock while holding a database connection.
import { NextRequest } from "next/server";
import { afterAll, describe, expect, it } from "vitest";
import { callJson } from "../support/routes";

process.env.CUSTOM_REQUEST_LIMIT = "2";
const { POST } = await import("@/app/api/custom-request/route");
const { db, pool } = await import("@/lib/db");
const { UPLOAD_POOLS } = await import("@/lib/limits/uploads");
const MAX_CONCURRENT_UPLOADS = UPLOAD_POOLS.customRequests;

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
});

const MB = 1024 * 1024;
const BOUNDARY = "----leadmarket-upload-test";
const encoder = new TextEncoder();

const fieldPart = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (fileName: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
const fields = (email: string) =>
  fieldPart("name", "Upload Tester") + fieldPart("email", email) + fieldPart("platforms", "linkedin");

type Body = {
  stream: ReadableStream<Uint8Array>;
  pulled: () => number;
  /** Whether the server began reading it (it then holds its slot and counts as in flight). */
  started: () => boolean;
  release: () => void;
};

/**
 * A multipart body: `head`, then `fillerBytes` of CSV-like text produced on demand, then `tail`.
 * With `hold`, the filler waits for release() before its first chunk, like a slow client.
 */
function body(head: string, fillerBytes: number, tail: string, hold = false): Body {
  const chunk = encoder.encode("a,b\n".repeat(16 * 1024));
  let sent = 0;
  let stage = 0;
  let release = () => {};
  const gate = hold ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (stage === 0) {
          stage = 1;
          return controller.enqueue(encoder.encode(head));
        }
        await gate;
        if (sent < fillerBytes) {
          const part = chunk.subarray(0, Math.min(chunk.length, fillerBytes - sent));
          sent += part.length;
          return controller.enqueue(part);
        }
        if (stage === 1) {
          stage = 2;
          return controller.enqueue(encoder.encode(tail));
        }
        controller.close();
      },
    },
    // Nothing is pulled before the server reads: started() then means it is receiving.
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => sent, started: () => stage > 0, release };
}

type StreamInit = ConstructorParameters<typeof NextRequest>[1] & { duplex: "half" };

async function post(upload: Body, ip: string): Promise<Response> {
  const request = new NextRequest("http://localhost:3999/api/custom-request", {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "x-forwarded-for": ip },
    body: upload.stream,
    duplex: "half",
  } as StreamInit);
  return POST(request, { params: Promise.resolve({}) });
}

const end = `--${BOUNDARY}--\r\n`;
const unique = (label: string) =>
  `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
async function readingStarted(...uploads: Body[]): Promise<void> {
  while (!uploads.every((upload) => upload.started())) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("upload limits", () => {
  it("caps the total on the stream itself, without a Content-Length", async () => {
    // Busboy ignores text after the closing boundary, so only the byte count can stop it.
    const upload = body(fields(`${unique("epilogue")}@example.com`) + end, 80 * MB, "");
    const response = await post(upload, "192.0.2.201");
    expect(response.status).toBe(413);
    expect(upload.pulled()).toBeLessThan(53 * MB);
  });

  it("stops reading at the first refused file", async () => {
    const head = `${fields(`${unique("refused")}@example.com`)}${fileHead("tool.exe")}MZ\r\n${fileHead("big.csv")}`;
    const upload = body(head, 9 * MB, `\r\n${end}`);
    const response = await post(upload, "192.0.2.202");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: Record<string, string> }).errors.files).toContain(
      "tool.exe",
    );
    expect(upload.pulled()).toBeLessThan(2 * MB);
  });

  it("counts uploads in flight against the address's hourly limit", async () => {
    const ip = "192.0.2.203";
    const held = body(
      `${fields(`${unique("held")}@example.com`)}${fileHead("slow.csv")}`,
      MB,
      `\r\n${end}`,
      true,
    );
    const pending = post(held, ip);
    await readingStarted(held);
    const json = (email: string) =>
      callJson(POST, "/api/custom-request", {
        json: { name: "In Flight", email, platforms: ["slack"] },
        headers: { "x-forwarded-for": ip },
      });
    expect((await json(`${unique("first")}@example.com`)).status).toBe(201);
    // One stored and one still arriving: the limit of 2 is reached.
    const refused = await json(`${unique("second")}@example.com`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("30");
    held.release();
    expect((await pending).status).toBe(201);
  });

  it("answers 503 with Retry-After beyond the concurrent uploads a process receives", async () => {
    const holds = Array.from({ length: MAX_CONCURRENT_UPLOADS }, (_, index) => {
      const upload = body(
        `${fields(`${unique(`cap${index}`)}@example.com`)}${fileHead("slow.csv")}`,
        MB,
        `\r\n${end}`,
        true,
      );
      return { upload, answer: post(upload, `192.0.2.${210 + index}`) };
    });
    await readingStarted(...holds.map((hold) => hold.upload));
    const third = body(`${fields(`${unique("third")}@example.com`)}${fileHead("x.csv")}`, 1024, `\r\n${end}`);
    const refused = await post(third, "192.0.2.212");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("10");
    expect(third.pulled()).toBe(0);
    for (const hold of holds) hold.upload.release();
    for (const hold of holds) expect((await hold.answer).status).toBe(201);
  });
});
