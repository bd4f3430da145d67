// `npm run db:migrate`: applies pending migrations to DATABASE_URL (what `npm start` does first).
import { migrate } from "../lib/migrate";

if (!process.env.DATABASE_URL) {
  console.error("DATABASE_URL is not set.");
  process.exit(1);
}
const applied = await migrate(process.env.DATABASE_URL);
console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date.");
