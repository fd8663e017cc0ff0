// Exponential backoff with jitter for reconnecting watches and retrying lists, shaped like the
// reflector's backoff manager in client-go (tools/cache/reflector.go: 800ms doubling to 30s,
// reset after two quiet minutes), and a sleep that `stop` can cut short.
import type { Clock, TimerHandle } from '../../util/clock.js';

export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  /** A quiet period after which the next delay starts from `initialMs` again. */
  resetAfterMs?: number;
  /** Adds up to this fraction of the delay at random (client-go's jitter 1.0). */
  jitter?: number;
  random?: () => number;
}

export class Backoff {
  private current = 0;
  private lastAt = -Infinity;
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly resetAfterMs: number;
  private readonly jitter: number;
  private readonly random: () => number;

  constructor(private readonly clock: Clock, o: BackoffOptions = {}) {
    this.initialMs = o.initialMs ?? 800;
    this.maxMs = o.maxMs ?? 30_000;
    this.resetAfterMs = o.resetAfterMs ?? 120_000;
    this.jitter = o.jitter ?? 1.0;
    this.random = o.random ?? Math.random;
  }

  /** The next delay (ms). */
  next(): number {
    const now = this.clock.now();
    if (now - this.lastAt > this.resetAfterMs) this.current = 0;
    this.lastAt = now;
    this.current = this.current === 0 ? this.initialMs : Math.min(this.maxMs, this.current * 2);
    return Math.round(this.current * (1 + this.jitter * this.random()));
  }
}

/** Sleeps on the injected clock; `cancelAll` wakes every sleeper at once (used on stop). */
export class Sleeper {
  private readonly pending = new Map<TimerHandle, () => void>();

  constructor(private readonly clock: Clock) {}

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const h = this.clock.setTimeout(() => {
        this.pending.delete(h);
        resolve();
      }, ms);
      this.pending.set(h, resolve);
    });
  }

  cancelAll(): void {
    for (const [h, resolve] of this.pending) {
      this.clock.clearTimeout(h);
      resolve();
    }
    this.pending.clear();
  }
}
