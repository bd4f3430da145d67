import { afterAll, describe, expect, it } from "vitest";
import { db, pool } from "@/lib/db";
import { getSettings } from "@/lib/settings";
import { createTestDatabase } from "../support/database";

// Its own database: the settings row must not exist yet.
const database = await createTestDatabase("leadmarket_settings");
process.env.DATABASE_URL = database.url;

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
  await database.drop();
});

describe("getSettings", () => {
  it("creates the row once even when many first requests arrive together", async () => {
    const { rows } = await pool().query<{ name: string }>("SELECT current_database() AS name");
    expect(rows[0].name).toBe(database.name);
    const results = await Promise.all(Array.from({ length: 20 }, () => getSettings()));
    expect(results.every((settings) => settings.id === 1 && settings.enableNotifications)).toBe(true);
    expect(await db().settings.count()).toBe(1);
  });
});
