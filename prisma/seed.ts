// `npm run db:seed`: loads the demo categories and leads into DATABASE_URL (after migrating it).
import { Pool } from "pg";
import { env } from "@/lib/env";
import { migrate } from "@/lib/migrate";
import { seedDemoData } from "./demo-data";

const url = env().DATABASE_URL;
if (!url) {
  console.error("DATABASE_URL is not set.");
  process.exit(1);
}
await migrate(url);
const pool = new Pool({ connectionString: url });
const started = Date.now();
const result = await seedDemoData(pool);
await pool.end();
console.log(
  `Seeded ${result.categories} categories and ${result.leads} leads in ${Date.now() - started} ms.`,
);
