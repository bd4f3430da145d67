// Upload slots per kind, the 408 for a body slower than 2 KB/s, and what an aborted body logs:
// slow list uploads from many addresses never block the admin's import, and are dropped once
// their first 10 seconds show them slower than the floor.
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const { db, pool } = await import("@/lib/db");
const { signAdminToken } = await import("@/lib/auth/session");
const lists = await import("@/app/api/suppression-lists/route");
const customRequest = await import("@/app/api/custom-request/route");
const categoryLeads = await import("@/app/api/admin/categories/[id]/leads/route");
const { UPLOAD_POOLS, MAX_UPLOADS_PER_ADDRESS } = await import("@/lib/limits/uploads");

const BOUNDARY = "----leadmarket-pools";
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
const encoder = new TextEncoder();
const fileHead = (name: string, fileName: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n`;
const END = `\r\n--${BOUNDARY}--\r\n`;

let token: string;
let categoryId: string;

beforeAll(async () => {
  const admin = await db().admin.create({
    data: { email: `pools-${Date.now()}@example.com`, passwordHash: "x" },
    select: { id: true, passwordChangedAt: true },
  });
  token = await signAdminToken(admin);
  const category = await db().category.create({
    data: { title: `Pools ${Date.now()}` },
    select: { id: true },
  });
  categoryId = category.id;
});

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
});

type Trickle = { stream: ReadableStream<Uint8Array>; started: () => boolean; stop: () => void };

/** A body that sends `head` and then one byte every `everyMs`, until stopped (then it ends). */
function trickle(head: string, everyMs: number): Trickle {
  let started = false;
  let stopped = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          return controller.enqueue(encoder.encode(head));
        }
        await new Promise((resolve) => setTimeout(resolve, everyMs));
        if (stopped) return controller.close();
        controller.enqueue(encoder.encode("a"));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, started: () => started, stop: () => (stopped = true) };
}

type StreamInit = ConstructorParameters<typeof NextRequest>[1] & { duplex: "half" };

function request(url: string, body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string>) {
  return new NextRequest(`http://localhost:3999${url}`, {
    method: "POST",
    headers: { "content-type": MULTIPART, ...headers },
    body,
    duplex: "half",
  } as StreamInit);
}

const noParams = { params: Promise.resolve({}) };

describe("upload pools", () => {
  it("keeps the admin's import and other kinds open while slow list uploads fill their pool, and drops them with 408", async () => {
    const addresses = Math.ceil(UPLOAD_POOLS.lists / MAX_UPLOADS_PER_ADDRESS);
    const slow = Array.from({ length: UPLOAD_POOLS.lists }, (_, index) => {
      const body = trickle(fileHead("file", "slow.csv"), 2000);
      const ip = `198.51.100.${10 + (index % addresses)}`;
      const started = Date.now();
      const answer = lists.POST(
        request("/api/suppression-lists", body.stream, { "x-forwarded-for": ip }),
        noParams,
      );
      return {
        body,
        answer: answer.then((response) => ({ status: response.status, ms: Date.now() - started })),
      };
    });
    while (!slow.every((upload) => upload.body.started()))
      await new Promise((resolve) => setTimeout(resolve, 10));

    // The list pool is full: one more list waits its turn.
    const more = await lists.POST(
      request("/api/suppression-lists", new Blob([fileHead("file", "l.csv"), "a@example.com", END]), {
        "x-forwarded-for": "198.51.100.99",
      }),
      noParams,
    );
    expect(more.status).toBe(503);

    // The admin's import has its own pool.
    const csv = "email,first_name,last_name,company,job_title,country\nx@example.com,A,B,C,D,US\n";
    const imported = await categoryLeads.POST(
      request(
        `/api/admin/categories/${categoryId}/leads`,
        new Blob([fileHead("file", "leads.csv"), csv, END]),
        {
          authorization: `Bearer ${token}`,
          "x-forwarded-for": "198.51.100.10",
        },
      ),
      { params: Promise.resolve({ id: categoryId }) },
    );
    expect(imported.status).not.toBe(503);
    expect(imported.status).toBeLessThan(500);

    // So has a custom request.
    const form = new FormData();
    form.append("name", "Pool Tester");
    form.append("email", `pool-${Date.now()}@example.com`);
    form.append("platforms", "linkedin");
    const custom = await customRequest.POST(
      new NextRequest("http://localhost:3999/api/custom-request", {
        method: "POST",
        body: form,
        headers: { "x-forwarded-for": "198.51.100.10" },
      }),
      noParams,
    );
    expect(custom.status).toBe(201);

    // One byte every 2 s is far below 2 KB/s: each is answered 408 soon after its first 10 s.
    const answers = await Promise.all(slow.map((upload) => upload.answer));
    for (const upload of slow) upload.body.stop();
    for (const { status, ms } of answers) {
      expect(status).toBe(408);
      expect(ms).toBeLessThan(14_000);
    }
  }, 40_000);

  it("logs an aborted body as the client's, never as the database's", async () => {
    const logged: string[] = [];
    const capture = (...args: unknown[]) => void logged.push(args.map(String).join(" "));
    const error = vi.spyOn(console, "error").mockImplementation(capture);
    const warn = vi.spyOn(console, "warn").mockImplementation(capture);
    try {
      // What Node's request stream fails with when the client goes away mid-body.
      const aborted = () =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(encoder.encode('{"name":"Gone'));
          },
          pull(controller) {
            controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
          },
        });
      const json = await customRequest.POST(
        new NextRequest("http://localhost:3999/api/custom-request", {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.120" },
          body: aborted(),
          duplex: "half",
        } as StreamInit),
        noParams,
      );
      expect(json.status).toBe(400);
      const upload = await lists.POST(
        request("/api/suppression-lists", aborted(), { "x-forwarded-for": "198.51.100.121" }),
        noParams,
      );
      expect(upload.status).toBe(400);
    } finally {
      error.mockRestore();
      warn.mockRestore();
    }
    expect(logged.join("\n")).not.toMatch(/\[db\]/);
    expect(logged.filter((line) => /aborted/.test(line))).toHaveLength(2);
  });
});
