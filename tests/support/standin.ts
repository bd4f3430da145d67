// A stand-in for an outside HTTP service, listening on loopback only.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Standin = { url: string; close: () => Promise<void> };

export async function startStandin(
  handler: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>,
): Promise<Standin> {
  const server = createServer((request, response) => {
    Promise.resolve(handler(request, response)).catch((error: Error) => {
      response.statusCode = 500;
      response.end(error.message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
