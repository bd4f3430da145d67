// Password hashing, also used by the start script (outside Next) to create the first admin.
import bcrypt from "bcryptjs";
import type { Pool } from "pg";

export const BCRYPT_COST = 12;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

/** Creates the admin account when none exists yet; returns whether it did. */
export async function ensureAdmin(pool: Pool, email: string, password: string): Promise<boolean> {
  const { rows } = await pool.query("SELECT 1 FROM admins LIMIT 1");
  if (rows.length > 0) return false;
  const result = await pool.query(
    "INSERT INTO admins (email, password_hash) VALUES ($1, $2) ON CONFLICT (email) DO NOTHING",
    [email.toLowerCase(), await hashPassword(password)],
  );
  return result.rowCount === 1;
}
