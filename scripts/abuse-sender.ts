// The sending side of `npm run bench:abuse`, in its own process at the lowest CPU priority. An
// attacker's client runs on its own machines; here it shares the server's few cores, and the work
// of building and sending its requests (10 MB bodies, hundreds of connections) would otherwise
// count against the server as the health probes' wait. Started by scripts/bench-abuse.ts under
// `nice`, it answers over IPC: "build" makes an input's requests (before the clock starts), "send"
// sends them from the input's clients at once, round after round until a given time has passed,
// and answers what came back.
import http from "node:http";
import { ABUSE_ENDPOINTS, type AbuseContext, type AbuseRequest } from "./abuse-endpoints";

export type Sent = { status: number | "timeout" | "reset"; ms: number; address: string };
export type SenderCommand =
  | { kind: "build"; entryIndex: number; inputName: string; context: AbuseContext }
  | {
      kind: "send";
      base: string;
      addressPrefix: string;
      timeoutMs: number;
      sustainMs: number;
      burstMs: number;
    };
export type SenderAnswer = { kind: "built"; path: string } | { kind: "sent"; sent: Sent[] };

// Connections kept for the next request, as a client's would (an early answer's are closed).
const agent = new http.Agent({ keepAlive: true });
let requests: AbuseRequest[] = [];
let clients = 0;

/**
 * Sends one request over node:http, which writes a Buffer body as it is: fetch copies it first
 * (10 MB a request, a cost of this machine's sender, never of an attacker's server).
 */
function send(base: string, request: AbuseRequest, address: string, timeoutMs: number): Promise<Sent> {
  const started = performance.now();
  const from = request.address ?? address;
  return new Promise((resolve) => {
    const done = (status: Sent["status"]) =>
      resolve({ status, ms: performance.now() - started, address: from });
    const signal = AbortSignal.timeout(timeoutMs);
    const failed = () => done(signal.aborted ? "timeout" : "reset");
    const length = request.body === undefined ? {} : { "content-length": Buffer.byteLength(request.body) };
    const outgoing = http.request(`${base}${request.path}`, {
      method: request.method,
      headers: { ...request.headers, ...length, "x-forwarded-for": from },
      agent,
      signal,
    });
    outgoing.on("response", (response) => {
      response.resume();
      response.on("end", () => done(response.statusCode!));
      response.on("error", failed);
    });
    outgoing.on("error", failed);
    outgoing.end(request.body);
  });
}

const answer = (message: SenderAnswer) => process.send!(message);

process.on("message", async (command: SenderCommand) => {
  if (command.kind === "build") {
    const input = ABUSE_ENDPOINTS[command.entryIndex].inputs.find((one) => one.name === command.inputName)!;
    requests = Array.from({ length: input.requests }, (_, index) => input.build(command.context, index));
    clients = input.clients;
    answer({ kind: "built", path: requests[0].path });
    return;
  }
  const started = Date.now();
  const deadline = started + command.burstMs;
  const sent: Sent[] = [];
  let next = 0;
  // Every request once, then round again until sustainMs have passed (or the burst's deadline).
  const more = () =>
    Date.now() < deadline && (next < requests.length || Date.now() < started + command.sustainMs);
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const address = `${command.addressPrefix}.${client + 1}`;
      while (more())
        sent.push(await send(command.base, requests[next++ % requests.length], address, command.timeoutMs));
    }),
  );
  requests = [];
  answer({ kind: "sent", sent });
});
process.on("disconnect", () => process.exit(0));
