import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

// The standard rate-limit headers (RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset) of the
// limits a visitor's request is counted against. A limit reports its state where it is counted,
// deep in domain code; route() (lib/api/handler.ts) runs each handler inside a LimitReport and puts
// its headers on whatever it answers, success or error. So no domain function sees a Response, and
// a limit counted through assertWithinLimit() sends the headers without more code.

/** A limit as the caller stands after this request: `resetSeconds` until one more is allowed. */
export type LimitState = { limit: number; remaining: number; resetSeconds: number };

/** The limits one request was counted against: the one closest to refusing is sent. */
export class LimitReport {
  private state: LimitState | undefined;

  add(state: LimitState): void {
    const kept = this.state;
    if (
      !kept ||
      state.remaining < kept.remaining ||
      (state.remaining === kept.remaining && state.resetSeconds > kept.resetSeconds)
    ) {
      this.state = state;
    }
  }

  headers(): Record<string, string> {
    if (!this.state) return {};
    return {
      "RateLimit-Limit": String(this.state.limit),
      "RateLimit-Remaining": String(Math.max(0, this.state.remaining)),
      "RateLimit-Reset": String(Math.max(1, Math.ceil(this.state.resetSeconds))),
    };
  }
}

const reports = new AsyncLocalStorage<LimitReport>();

/** Runs `work` with `report` as the current request's report. */
export function runReported<T>(report: LimitReport, work: () => Promise<T>): Promise<T> {
  return reports.run(report, work);
}

/** Records a limit's state for the current request's response (nothing outside a request). */
export function reportLimit(state: LimitState): void {
  reports.getStore()?.add(state);
}
