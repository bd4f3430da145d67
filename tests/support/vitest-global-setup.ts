// One fresh, migrated database per `vitest run`, dropped afterwards. Test files share it and
// create the rows they need, so they never depend on each other's data.
import { createTestDatabase } from "./database";

export default async function setup(): Promise<() => Promise<void>> {
  const database = await createTestDatabase();
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    APP_SECRET: "test-secret-0123456789-0123456789-abcdef",
    NODE_ENV: "test",
    PUBLIC_BASE_URL: "http://localhost:3999",
    // In-process calls have no socket: the tests stand in for one proxy and name each client
    // in X-Forwarded-For.
    TRUST_PROXY_HOPS: "1",
    // No resolver on this machine answers the demo's domains: domain checks off unless a test
    // points DNS_SERVERS at its own server.
    DNS_SERVERS: "off",
  });
  return () => database.drop();
}
