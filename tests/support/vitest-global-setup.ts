// One migrated template database per `vitest run`; each worker copies it into a database of its
// own (tests/support/vitest-worker-database.ts), so no test file sees another's rows while it
// runs. All are dropped afterwards.
import { createTestDatabase, dropTestDatabases } from "./database";

export default async function setup(): Promise<() => Promise<void>> {
  const template = await createTestDatabase();
  Object.assign(process.env, {
    TEST_DATABASE_TEMPLATE: template.name,
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
  return () => dropTestDatabases(template.name);
}
