// The RateLimit-* headers a request's limits report: the limit closest to refusing wins, and a
// limit counted outside a request (a background job) reports to nobody.
import { describe, expect, it } from "vitest";
import { LimitReport, reportLimit, runReported } from "@/lib/limits/rate-limit-headers";

describe("LimitReport", () => {
  it("sends the limit with the fewest remaining, then the longest reset", async () => {
    const report = new LimitReport();
    await runReported(report, async () => {
      reportLimit({ limit: 30, remaining: 12, resetSeconds: 500 });
      await Promise.resolve();
      reportLimit({ limit: 10, remaining: 3, resetSeconds: 60 });
      reportLimit({ limit: 20, remaining: 3, resetSeconds: 900 });
      reportLimit({ limit: 5, remaining: 4, resetSeconds: 10 });
    });
    expect(report.headers()).toEqual({
      "RateLimit-Limit": "20",
      "RateLimit-Remaining": "3",
      "RateLimit-Reset": "900",
    });
  });

  it("keeps concurrent requests' reports apart, and reports nothing outside a request", async () => {
    const first = new LimitReport();
    const second = new LimitReport();
    reportLimit({ limit: 1, remaining: 0, resetSeconds: 5 });
    await Promise.all([
      runReported(first, async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        reportLimit({ limit: 10, remaining: 9, resetSeconds: 3600 });
      }),
      runReported(second, async () => reportLimit({ limit: 3, remaining: 0, resetSeconds: 0.2 })),
    ]);
    expect(first.headers()["RateLimit-Remaining"]).toBe("9");
    // Never below 0 remaining or 1 second.
    expect(second.headers()).toEqual({
      "RateLimit-Limit": "3",
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": "1",
    });
    expect(new LimitReport().headers()).toEqual({});
  });
});
