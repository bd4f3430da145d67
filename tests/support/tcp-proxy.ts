// A TCP proxy on loopback that forwards each new connection to the next target in turn: stands
// between the app and PostgreSQL (closing it is a database outage without touching the server),
// or in front of several app instances as a round-robin load balancer.
import { createConnection, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export type TcpProxy = {
  port: number;
  /** Refuses new connections and cuts the open ones. */
  stop: () => Promise<void>;
  /** Listens again on the same port. */
  start: () => Promise<void>;
};

export async function startTcpProxy(targets: { host: string; port: number }[]): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let next = 0;
  let server: Server | undefined;
  let port = 0;

  const listen = async () => {
    server = createServer((client) => {
      const target = targets[next++ % targets.length];
      const upstream = createConnection(target);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
        socket.on("error", () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  };
  await listen();

  return {
    port,
    start: listen,
    stop: async () => {
      const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
