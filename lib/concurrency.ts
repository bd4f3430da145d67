import "server-only";

// A counting semaphore with a bounded queue, for work that must not all run at once in one
// process (password hashing on the event loop, a client address's expensive queries). No imports:
// the start script uses it outside Next through lib/auth/password.ts.

/** Thrown when every slot is taken and the queue is full; answered as 503 with Retry-After. */
export class BusyError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  /** `maxWaitMs`: a caller still queued after it gets the busy error. */
  constructor(
    private readonly slots: number,
    private readonly maxWaiting: number,
    private readonly busy: () => Error,
    private readonly maxWaitMs?: number,
  ) {}

  /** Whether a new caller would be refused right now. */
  get full(): boolean {
    return this.active >= this.slots && this.waiting.length >= this.maxWaiting;
  }

  /** Whether nothing runs or waits. */
  get idle(): boolean {
    return this.active === 0;
  }

  /** Runs `work` once a slot is free; throws the busy error at once when the queue is full. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.slots) {
      this.active += 1;
    } else {
      if (this.waiting.length >= this.maxWaiting) throw this.busy();
      // The releasing caller hands its slot over, so `active` does not change here.
      await new Promise<void>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const turn = () => {
          clearTimeout(timer);
          resolve();
        };
        if (this.maxWaitMs !== undefined) {
          timer = setTimeout(() => {
            this.waiting.splice(this.waiting.indexOf(turn), 1);
            reject(this.busy());
          }, this.maxWaitMs);
        }
        this.waiting.push(turn);
      });
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
