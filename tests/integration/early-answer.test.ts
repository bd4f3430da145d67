// A refusal given before a request's body has arrived (an admin import without a token: 401)
// reaches the client instead of a reset: behind scripts/server.mjs's wrapper the server reads and
// drops the rest of the body before it closes, within a bound of bytes and time (a lingering close).
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closeAfterEarlyAnswer,
  LINGER_BYTES_PER_SECOND,
  LINGER_MAX_BYTES,
  LINGER_MAX_MS,
} from "@/lib/http/early-answer.mjs";

let server: Server;
let port: number;

beforeAll(async () => {
  // As a route refusing before it reads: the answer goes out while the body still arrives.
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    closeAfterEarlyAnswer(request, response);
    response.writeHead(401, { "content-type": "application/json" });
    response.end(JSON.stringify({ success: false, message: "Authentication required" }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

type Sent = {
  answer: string;
  error?: string;
  finAfterLastByte: boolean;
  closedAfterMs: number;
  sent: number;
};

/**
 * Declares `declared` bytes and sends `chunk` bytes every `everyMs` until the body is sent, the
 * socket fails or `sendMs` pass; then waits for the server to close.
 */
async function send(declared: number, chunk: number, everyMs: number, sendMs = Infinity): Promise<Sent> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  const started = Date.now();
  let answer = "";
  let error: string | undefined;
  let sent = 0;
  let fin = -1;
  let lastByte = Infinity;
  socket.on("data", (data: Buffer) => (answer += data.toString("latin1")));
  socket.on("error", (failure: NodeJS.ErrnoException) => (error = failure.code));
  socket.on("end", () => (fin = Date.now()));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.write(
    `POST /api/admin/import HTTP/1.1\r\nhost: x\r\ncontent-type: text/csv\r\ncontent-length: ${declared}\r\n\r\n`,
  );
  const data = Buffer.alloc(chunk, 97);
  while (sent < declared && !error && fin < 0 && Date.now() - started < sendMs) {
    const part = data.subarray(0, Math.min(chunk, declared - sent));
    if (!socket.write(part))
      await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), closed]);
    sent += part.length;
    if (sent === declared) lastByte = Date.now();
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  socket.end();
  await closed;
  return { answer, error, finAfterLastByte: fin >= lastByte, closedAfterMs: Date.now() - started, sent };
}

describe("early answers", () => {
  it("wait for the rest of a body still arriving before closing, so the client reads the answer", async () => {
    for (let index = 0; index < 3; index += 1) {
      // 1 MB over about 130 ms: the answer is sent long before its end.
      const result = await send(1024 * 1024, 16 * 1024, 2);
      expect(result.answer).toMatch(/^HTTP\/1\.1 401 /);
      expect(result.answer).toContain("Authentication required");
      expect(result.error).toBeUndefined();
      expect(result.finAfterLastByte).toBe(true);
    }
  });

  it("read all refused bodies together within LINGER_BYTES_PER_SECOND, each still to its end", async () => {
    // Three bodies of 3/4 of the second's budget each, sent as fast as the server reads them: the
    // budget's one second's worth goes at once, the rest at its pace.
    const started = Date.now();
    const body = (LINGER_BYTES_PER_SECOND * 3) / 4;
    const results = await Promise.all([0, 1, 2].map(() => send(body, 256 * 1024, 0)));
    for (const result of results) {
      expect(result.answer).toMatch(/^HTTP\/1\.1 401 /);
      expect(result.error).toBeUndefined();
      expect(result.finAfterLastByte).toBe(true);
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(
      ((3 * body - LINGER_BYTES_PER_SECOND) * 1000) / LINGER_BYTES_PER_SECOND - 200,
    );
  }, 20_000);

  it("close after LINGER_MAX_MS when the body goes on arriving", async () => {
    const result = await send(1024 * 1024 * 1024, 1024, 50);
    expect(result.answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(LINGER_MAX_MS - 100);
    expect(result.closedAfterMs).toBeLessThan(LINGER_MAX_MS + 3000);
  }, 20_000);

  it("close once LINGER_MAX_BYTES have arrived", async () => {
    const result = await send(1024 * 1024 * 1024, 256 * 1024, 0, LINGER_MAX_MS - 1000);
    expect(result.answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(result.sent).toBeGreaterThan(LINGER_MAX_BYTES);
    expect(result.sent).toBeLessThan(LINGER_MAX_BYTES * 4);
    expect(result.closedAfterMs).toBeLessThan(LINGER_MAX_MS);
  }, 20_000);
});
