import { db } from "@/lib/db";

// GET /api/health - liveness and database reachability, for load balancers
export async function GET(): Promise<Response> {
  try {
    await db().$executeRaw`SELECT 1`;
    return Response.json({ status: "ok", database: "up" });
  } catch {
    return Response.json(
      { status: "degraded", database: "down" },
      { status: 503, headers: { "Retry-After": "5" } },
    );
  }
}
