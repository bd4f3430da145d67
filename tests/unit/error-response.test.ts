// What a handler's failure becomes: a database that cannot be reached, or a transaction that could
// not get a connection in time, is a 503 to retry, never a 500.
import { describe, expect, it } from "vitest";
import { toErrorResponse } from "@/lib/api/errors";
import { tooManyRequests } from "@/lib/errors";

const prismaError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe("toErrorResponse", () => {
  it("answers 503 with Retry-After when a transaction cannot start or outlives its limit", async () => {
    const response = toErrorResponse(
      prismaError("P2028", "Transaction API error: Unable to start a transaction in the given time."),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.json()).toEqual({
      success: false,
      message: "The service is temporarily unavailable. Please try again shortly.",
    });
  });

  it("keeps a 429's wait and message", async () => {
    const response = toErrorResponse(tooManyRequests("Slow down. Try again in 2 minutes.", 120));
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("120");
    expect((await response.json()).message).toBe("Slow down. Try again in 2 minutes.");
  });
});
