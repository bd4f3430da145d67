// The custom server's first limit (lib/http/in-flight-limit.mjs): one client address has at most
// IN_FLIGHT_PER_ADDRESS requests in progress; one more is answered 429 before any handler runs, and
// a place comes back when its response ends or its client goes away.
import { once } from "node:events";
import { request as httpRequest, type ClientRequest, type ServerResponse } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { IN_FLIGHT_PER_ADDRESS, inFlightLimit } from "@/lib/http/in-flight-limit.mjs";
import { startStandin, type Standin } from "../support/standin";

let server: Standin;
/** Admitted requests' responses, held open until the test ends them. */
const held: ServerResponse[] = [];
let handled = 0;

beforeAll(async () => {
  const admitted = inFlightLimit(1);
  server = await startStandin((request, response) => {
    if (!admitted(request, response)) return;
    handled += 1;
    held.push(response);
  });
});

afterAll(() => server.close());

type Answer = { status: number; retryAfter?: string; body: string };

/** Sends a GET as `address` (behind one trusted proxy); `answer` settles when a response arrives. */
function send(address: string): { request: ClientRequest; answer: Promise<Answer> } {
  const request = httpRequest(server.url, {
    agent: false,
    headers: { "x-forwarded-for": address },
  });
  request.on("error", () => undefined);
  const answer = new Promise<Answer>((resolve) =>
    request.on("response", (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, retryAfter: response.headers["retry-after"], body }),
      );
    }),
  );
  request.end();
  return { request, answer };
}

async function untilHandled(count: number): Promise<void> {
  while (handled < count) await new Promise((resolve) => setTimeout(resolve, 5));
}

it("answers 429 past the places of one address, never another's, and gives places back", async () => {
  const first = Array.from({ length: IN_FLIGHT_PER_ADDRESS }, () => send("192.0.2.50"));
  await untilHandled(IN_FLIGHT_PER_ADDRESS);

  const refused = await send("192.0.2.50").answer;
  expect(refused.status).toBe(429);
  expect(refused.retryAfter).toBe("1");
  expect(JSON.parse(refused.body)).toEqual({
    success: false,
    message: "Too many requests at once from your address. Please wait for one to finish.",
  });
  expect(handled).toBe(IN_FLIGHT_PER_ADDRESS);

  // Another client is not held back by this one.
  send("192.0.2.51");
  await untilHandled(IN_FLIGHT_PER_ADDRESS + 1);

  // An answered request gives its place back...
  held[0].end("done");
  expect((await first[0].answer).status).toBe(200);
  send("192.0.2.50");
  await untilHandled(IN_FLIGHT_PER_ADDRESS + 2);
  expect((await send("192.0.2.50").answer).status).toBe(429);

  // ...and so does a client that goes away before its answer.
  first[1].request.destroy();
  await once(held[1], "close");
  send("192.0.2.50");
  await untilHandled(IN_FLIGHT_PER_ADDRESS + 3);
});
