// Client-side rate limiting of API requests by clientConnection qps/burst: a token bucket as
// client-go's flowcontrol.NewTokenBucketRateLimiter (golang.org/x/time/rate), on an injectable clock.
import type { Clock } from '../../util/clock.js';

export interface RateLimiter {
  /** Resolves when the caller may send its request (callers are served in arrival order). */
  wait(): Promise<void>;
  /** Takes a token if one is available now, without waiting. */
  tryAccept(): boolean;
}

/**
 * Starts full with `burst` tokens and refills at `qps` per second up to `burst`. A waiting caller
 * reserves its token at once (the bucket may go negative), so later callers queue behind it.
 */
export class TokenBucketRateLimiter implements RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly clock: Clock,
  ) {
    if (!(qps > 0)) throw new Error(`rate limiter qps must be positive, got ${qps}`);
    if (!(burst >= 1)) throw new Error(`rate limiter burst must be at least 1, got ${burst}`);
    this.tokens = burst;
    this.last = clock.now();
  }

  private refill(): void {
    const now = this.clock.now();
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
      this.last = now;
    }
  }

  tryAccept(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  wait(): Promise<void> {
    this.refill();
    this.tokens -= 1;
    if (this.tokens >= 0) return Promise.resolve();
    const delayMs = Math.ceil((-this.tokens * 1000) / this.qps);
    return new Promise((resolve) => {
      this.clock.setTimeout(resolve, delayMs);
    });
  }
}

/** No limit: client-go disables rate limiting when qps is negative. */
export const unlimited: RateLimiter = {
  wait: () => Promise.resolve(),
  tryAccept: () => true,
};

/** The limiter for clientConnection qps/burst: a token bucket, or none when qps < 0. */
export function rateLimiterFor(qps: number, burst: number, clock: Clock): RateLimiter {
  if (qps < 0) return unlimited;
  return new TokenBucketRateLimiter(qps, Math.max(1, burst), clock);
}
