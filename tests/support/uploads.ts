// Multipart bodies written by hand, uploads sent over a raw socket a byte at a time, and the rows
// the upload routes need, for the tests that drive a started server's upload routes.
import { connect } from "node:net";
import { SignJWT } from "jose";
import { Pool } from "pg";

const BOUNDARY = "----leadmarket-edge";

export const field = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
export const fileHead = (name: string, fileName: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
const END = `--${BOUNDARY}--\r\n`;
export const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
export function multipart(head: string, file: Buffer | string, tail = `\r\n${END}`): Blob {
  return new Blob([head, new Uint8Array(Buffer.from(file)), tail]);
}

export type Trickle = { status: Promise<number>; stop: () => void };

/** An upload whose file arrives one byte every `everyMs` (never, with 0) until stopped. */
export function trickle(
  url: string,
  head: string,
  headers: Record<string, string>,
  everyMs: number,
): Trickle {
  const { hostname, port, pathname } = new URL(url);
  const socket = connect(Number(port), hostname);
  let timer: NodeJS.Timeout | undefined;
  const status = new Promise<number>((resolve) => {
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (match) resolve(Number(match[1]));
    });
    socket.on("error", () => resolve(0));
    socket.on("close", () => resolve(0));
  });
  const lines = Object.entries({ "content-type": MULTIPART, "transfer-encoding": "chunked", ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
  socket.write(`POST ${pathname} HTTP/1.1\r\nhost: ${hostname}\r\n${lines}\r\n${chunk(head)}`);
  if (everyMs > 0) timer = setInterval(() => socket.writable && socket.write(chunk("a")), everyMs);
  return {
    status,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

/** What the upload routes need in a fresh database: a category, a paid order's key and an admin's token. */
export async function seedUploadTargets(
  databaseUrl: string,
  appSecret: string,
): Promise<{ categoryId: string; orderKey: string; adminToken: string }> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const category = await pool.query<{ id: string }>(
      "INSERT INTO categories (title) VALUES ('Uploads') RETURNING id",
    );
    const categoryId = category.rows[0].id;
    const order = await pool.query<{ download_key: string }>(
      `INSERT INTO orders (category_id, lead_title, package_type, lead_count, amount, status, paid_at, download_expires_at)
       VALUES ($1, 'Uploads', 'starter', 1000, 10, 'finished', now(), now() + interval '30 days')
       RETURNING download_key`,
      [categoryId],
    );
    const admin = await pool.query<{ id: string; password_changed_at: Date }>(
      "INSERT INTO admins (email, password_hash) VALUES ('uploads@example.com', 'x') RETURNING id, password_changed_at",
    );
    // Signed as lib/auth/session.ts signs it.
    const adminToken = await new SignJWT({ pwv: admin.rows[0].password_changed_at.getTime() })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(admin.rows[0].id)
      .setIssuer("leadmarket")
      .setAudience("leadmarket-admin")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(appSecret));
    return { categoryId, orderKey: order.rows[0].download_key, adminToken };
  } finally {
    await pool.end();
  }
}
