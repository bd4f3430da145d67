// Admin tokens must carry an expiry and a UUID subject, and none is honoured past 12 hours.
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOwnDatabase, signToken } from "./admin-helpers";
import { callJson } from "../support/routes";

const database = await createOwnDatabase();
const { db, pool } = await import("@/lib/db");
const stats = await import("@/app/api/admin/stats/route");

let admin: { id: string; passwordChangedAt: Date };

beforeAll(async () => {
  admin = await db().admin.create({
    data: {
      email: "claims@example.com",
      passwordHash: "$2b$04$unused.unused.unused.unused.unused.unused.unu",
    },
    select: { id: true, passwordChangedAt: true },
  });
});

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
  await database.drop();
});

const secret = () => new TextEncoder().encode(process.env.APP_SECRET);
const base = () =>
  new SignJWT({ pwv: admin.passwordChangedAt.getTime() })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer("leadmarket")
    .setAudience("leadmarket-admin");
const now = () => Math.floor(Date.now() / 1000);
const statusWith = async (token: string) => (await callJson(stats.GET, "/api/admin/stats", { token })).status;

describe("admin token claims", () => {
  it("accepts a token as the app issues it", async () => {
    expect(await statusWith(await signToken({ sub: admin.id, pwv: admin.passwordChangedAt.getTime() }))).toBe(
      200,
    );
  });

  it("refuses a token without an expiry", async () => {
    const token = await base().setSubject(admin.id).setIssuedAt().sign(secret());
    expect(await statusWith(token)).toBe(401);
  });

  it("refuses a token without a subject, or with one that is not a UUID", async () => {
    const noSubject = await base().setIssuedAt().setExpirationTime("1h").sign(secret());
    const notUuid = await base().setSubject("admin").setIssuedAt().setExpirationTime("1h").sign(secret());
    expect(await statusWith(noSubject)).toBe(401);
    expect(await statusWith(notUuid)).toBe(401);
  });

  it("refuses a token older than 12 hours or without an issue time, whatever its expiry says", async () => {
    const old = await base()
      .setSubject(admin.id)
      .setIssuedAt(now() - 13 * 3600)
      .setExpirationTime(now() + 3600)
      .sign(secret());
    const longLived = await base().setSubject(admin.id).setExpirationTime("30d").sign(secret());
    expect(await statusWith(old)).toBe(401);
    expect(await statusWith(longLived)).toBe(401);
  });
});
