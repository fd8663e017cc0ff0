import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../util/clock.js';
import { TokenBucketRateLimiter, rateLimiterFor, unlimited } from './rate_limiter.js';

const flush = () => new Promise<void>((r) => setImmediate(r));

test('a burst passes at once, then requests go out at qps', async () => {
  const clock = new FakeClock(0);
  const rl = new TokenBucketRateLimiter(10, 3, clock);
  const passed: number[] = [];
  for (let i = 0; i < 6; i++) void rl.wait().then(() => passed.push(clock.now()));
  await flush();
  assert.deepEqual(passed, [0, 0, 0]);
  for (let t = 0; t < 300; t += 10) {
    clock.advance(10);
    await flush();
  }
  // The 4th, 5th and 6th wait one token each: 100ms, 200ms, 300ms at 10 qps.
  assert.deepEqual(passed, [0, 0, 0, 100, 200, 300]);
});

test('tokens refill up to burst while idle', () => {
  const clock = new FakeClock(0);
  const rl = new TokenBucketRateLimiter(2, 2, clock);
  assert.ok(rl.tryAccept());
  assert.ok(rl.tryAccept());
  assert.ok(!rl.tryAccept());
  clock.advance(10_000);
  assert.ok(rl.tryAccept());
  assert.ok(rl.tryAccept());
  assert.ok(!rl.tryAccept(), 'never more than burst after a long idle period');
});

test('negative qps turns rate limiting off, as client-go does', () => {
  const clock = new FakeClock(0);
  assert.equal(rateLimiterFor(-1, 10, clock), unlimited);
  assert.ok(rateLimiterFor(50, 100, clock) instanceof TokenBucketRateLimiter);
  assert.throws(() => new TokenBucketRateLimiter(0, 1, clock), /qps must be positive/);
});
