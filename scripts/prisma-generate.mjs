// `prisma generate` without network: the client generator is WebAssembly, but the CLI insists on
// a schema-engine binary being present. Any existing file satisfies that check for `generate`.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ||= fileURLToPath(import.meta.url);
const result = spawnSync(process.execPath, ["node_modules/prisma/build/index.js", "generate"], {
  stdio: ["ignore", "ignore", "inherit"],
  env,
});
process.exit(result.status ?? 1);
