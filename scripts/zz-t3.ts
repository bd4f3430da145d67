import { Pool } from "pg";
import { createTestDatabase } from "../tests/support/database";
import { createCategoryWithLeads } from "../prisma/demo-data";
const db = await createTestDatabase("leadmarket_trig");
const pool = new Pool({ connectionString: db.url, max: 1 });
for (let i = 0; i < 3; i++) await createCategoryWithLeads(pool, { title: "T" + i }, 33000, i + 1);
await pool.query("ANALYZE leads");
for (const n of [10000, 40000, 90000]) {
  const t = performance.now();
  await pool.query(`UPDATE leads SET email_checked_at = now() - interval '${n} seconds' WHERE id IN (SELECT id FROM leads ORDER BY id LIMIT ${n})`);
  console.log(n, Math.round(performance.now() - t), "ms");
}
await pool.end(); await db.drop();
