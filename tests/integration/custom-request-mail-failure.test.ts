// A slow or dead SMTP server never delays, fails or loses a custom request: its mail waits in the
// outbox for another attempt.
import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it, vi } from "vitest";
import { callJson } from "../support/routes";

// An SMTP "server" that accepts connections and never says a word.
const sockets = new Set<Socket>();
const silent = createServer((socket) => {
  sockets.add(socket);
  socket.on("error", () => undefined);
});
await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
const port = (silent.address() as AddressInfo).port;

process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
process.env.CUSTOM_REQUEST_LIMIT = "0";

const { POST } = await import("@/app/api/custom-request/route");
const { db, pool } = await import("@/lib/db");

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
});

const email = (label: string) => `${label}-${Date.now().toString(36)}@example.com`;

function submit(address: string) {
  return callJson<{ success: boolean; _id: string }>(POST, "/api/custom-request", {
    json: { name: "Mail Failure", email: address, platforms: ["slack"] },
  });
}

describe("mail failures", () => {
  it("answers 201 while the SMTP server hangs, and only logs when it then drops the line", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const address = email("hanging");
      const { status, body } = await submit(address);
      expect(status).toBe(201);
      expect(await db().customRequest.findUnique({ where: { id: body._id } })).toMatchObject({
        email: address,
      });

      await vi.waitFor(() => expect(sockets.size).toBeGreaterThan(0));
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      await vi.waitFor(() => {
        const logged = errors.mock.calls.map((args) => String(args[0]));
        expect(logged.some((line) => line.startsWith("[mail] sending"))).toBe(true);
      });
    } finally {
      errors.mockRestore();
    }
  });

  it("stores the request when the SMTP server is down", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const address = email("down");
      const { status, body } = await submit(address);
      expect(status).toBe(201);
      expect(await db().customRequest.findUnique({ where: { id: body._id } })).toMatchObject({
        email: address,
        platform: "slack",
      });
      // The outbox worker may still be finishing the hung attempts of the test above.
      await vi.waitFor(
        () => {
          const logged = errors.mock.calls.map((args) => String(args[0]));
          expect(logged.some((line) => line.includes(`to ${address} failed`))).toBe(true);
        },
        { timeout: 40_000, interval: 200 },
      );
      expect(await db().mailOutbox.count({ where: { recipient: address, status: "pending" } })).toBe(1);
    } finally {
      errors.mockRestore();
    }
  });
});
