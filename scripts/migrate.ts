// `npm run db:migrate`: applies pending migrations to DATABASE_URL (what `npm start` does first).
import { env } from "@/lib/env";
import { migrate } from "@/lib/migrate";

const url = env().DATABASE_URL;
if (!url) {
  console.error("DATABASE_URL is not set.");
  process.exit(1);
}
const applied = await migrate(url);
console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date.");
