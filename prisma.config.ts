import { defineConfig } from "prisma/config";

// `prisma migrate deploy` reads the URL from here; the app itself connects through lib/db.ts.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "" },
});
