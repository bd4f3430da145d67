// The custom server's turnstile (lib/http/admission.mjs): requests enter one per event-loop turn,
// the waiting address with the least going on (requests inside, and those let in recently) first,
// so a crowd that arrives together, or clients that keep a request going back to back, can no
// longer hold the thread while a visitor's request waits behind theirs.
import { IncomingMessage, request as httpRequest, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { afterEach, expect, it } from "vitest";
import { admission } from "@/lib/http/admission.mjs";
import { startStandin, type Standin } from "../support/standin";

let server: Standin | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Answer = { status: number; retryAfter?: string; body: string };

function get(url: string, address: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { agent: false, headers: { "x-forwarded-for": address } },
      (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, retryAfter: response.headers["retry-after"], body }),
        );
      },
    );
    request.on("error", reject);
    request.end();
  });
}

/** A response to a request that never connected: it stays open. */
const response = () => new ServerResponse(new IncomingMessage(new Socket()));

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 2));
};

it("lets a visitor in before the rest of a crowd that arrived first", async () => {
  const enter = admission();
  const CROWD = 30;
  /** The addresses in the order their requests entered. */
  const entered: string[] = [];
  // Requests that arrive together, as Node.js emits them in one turn; the crowd's answers never end
  // here, so its requests stay inside.
  for (let index = 0; index < CROWD; index += 1) {
    enter("198.51.100.7", response(), () => entered.push("crowd"));
  }
  enter("192.0.2.1", response(), () => entered.push("visitor"));
  await until(() => entered.length === CROWD + 1);
  // Called at once (as Next.js's handler was before), the whole crowd was in before the visitor.
  expect(entered.indexOf("visitor")).toBe(1);
});

it("lets a visitor in before clients that each keep one request going back to back", async () => {
  const enter = admission();
  const CLIENTS = 8;
  const entered: string[] = [];
  // Each client has sent 5 requests, one after the other, each answered before the next: none is
  // inside when the next arrives, as with the visitor.
  for (let round = 1; round <= 5; round += 1) {
    for (let client = 0; client < CLIENTS; client += 1) {
      const answered = response();
      enter(`198.51.100.${client}`, answered, () => {
        entered.push("client");
        answered.emit("close");
      });
    }
    await until(() => entered.length === round * CLIENTS);
  }
  entered.length = 0;
  // Then each client's next request and a visitor's arrive together, the visitor's last.
  for (let client = 0; client < CLIENTS; client += 1) {
    enter(`198.51.100.${client}`, response(), () => entered.push("client"));
  }
  enter("192.0.2.1", response(), () => entered.push("visitor"));
  await until(() => entered.length === CLIENTS + 1);
  // On requests inside alone the visitor tied with every client, and went in last.
  expect(entered.indexOf("visitor")).toBe(0);
});

it("lets one request in per turn of the event loop", async () => {
  const enter = admission();
  const marks: string[] = [];
  enter("192.0.2.1", response(), () => {
    marks.push("first");
    setImmediate(() => marks.push("next turn"));
  });
  enter("192.0.2.2", response(), () => marks.push("second"));
  await until(() => marks.length === 3);
  expect(marks).toEqual(["first", "next turn", "second"]);
});

it("answers 503 with Retry-After to a request that waited too long", async () => {
  // No wait is short enough: every request has waited too long by its turn.
  const enter = admission(-1);
  let handled = 0;
  server = await startStandin((request, response) => enter("192.0.2.9", response, () => (handled += 1)));
  const answer = await get(server.url, "192.0.2.9");
  expect(answer.status).toBe(503);
  expect(answer.retryAfter).toBe("5");
  expect(JSON.parse(answer.body)).toEqual({
    success: false,
    message: "The server is busy. Please try again in a moment.",
  });
  expect(handled).toBe(0);
});
