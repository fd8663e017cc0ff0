// FakeClock and seededRandom: the injected time and randomness every deterministic test relies on.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, seededRandom } from './clock.js';
import { formatGoDuration } from './duration.js';

describe('FakeClock', () => {
  it('starts where told and moves only on advance/runUntil', () => {
    const c = new FakeClock(5000);
    assert.equal(c.now(), 5000);
    c.advance(250);
    assert.equal(c.now(), 5250);
    c.runUntil(6000);
    assert.equal(c.now(), 6000);
    // runUntil never moves time backwards
    c.runUntil(10);
    assert.equal(c.now(), 6000);
  });

  it('fires due timers in time order, equal times in the order they were set', () => {
    const c = new FakeClock();
    const fired: string[] = [];
    c.setTimeout(() => fired.push('b@20'), 20);
    c.setTimeout(() => fired.push('a@10'), 10);
    c.setTimeout(() => fired.push('c@20'), 20);
    c.setTimeout(() => fired.push('late@100'), 100);
    c.advance(50);
    assert.deepEqual(fired, ['a@10', 'b@20', 'c@20']);
    assert.equal(c.now(), 50);
    assert.equal(c.nextTimerAt(), 100);
  });

  it('a timer sees the clock at its own due time', () => {
    const c = new FakeClock();
    const seen: number[] = [];
    c.setTimeout(() => seen.push(c.now()), 30);
    c.setTimeout(() => seen.push(c.now()), 70);
    c.advance(100);
    assert.deepEqual(seen, [30, 70]);
  });

  it('runs timers that timers set when they fall due within the same run', () => {
    const c = new FakeClock();
    const fired: number[] = [];
    const tick = () => {
      fired.push(c.now());
      if (fired.length < 5) c.setTimeout(tick, 10);
    };
    c.setTimeout(tick, 10);
    c.advance(35);
    assert.deepEqual(fired, [10, 20, 30]);
    c.advance(100);
    assert.deepEqual(fired, [10, 20, 30, 40, 50]);
    assert.equal(c.nextTimerAt(), undefined);
  });

  it('clearTimeout cancels a pending timer, even from inside another timer', () => {
    const c = new FakeClock();
    const fired: string[] = [];
    const later = c.setTimeout(() => fired.push('later'), 20);
    c.setTimeout(() => {
      fired.push('first');
      c.clearTimeout(later);
    }, 10);
    const never = c.setTimeout(() => fired.push('never'), 15);
    c.clearTimeout(never);
    c.advance(100);
    assert.deepEqual(fired, ['first']);
  });

  it('an interval ticks every period from its first delay, in order with timeouts', () => {
    const c = new FakeClock();
    const fired: string[] = [];
    const h = c.setInterval(() => fired.push(`tick@${c.now()}`), 10, 5);
    c.setTimeout(() => fired.push(`once@${c.now()}`), 15);
    for (let i = 0; i < 4; i++) c.advance(5);
    // The interval was re-armed at 5, after the timeout was set: the timeout goes first at 15.
    assert.deepEqual(fired, ['tick@5', 'once@15', 'tick@15']);
    c.clearTimeout(h);
    c.advance(100);
    assert.equal(fired.length, 3, 'cleared');
  });

  it('a jump over many periods calls an interval once, at its last tick, keeping its phase', () => {
    const c = new FakeClock();
    const ticks: number[] = [];
    c.setInterval(() => ticks.push(c.now()), 1000);
    const hours = 100_000_000 * 3_600_000;
    c.runUntil(hours + 500);
    assert.deepEqual(ticks, [hours]);
    assert.equal(c.nextTimerAt(), hours + 1000);
    c.advance(500);
    assert.deepEqual(ticks, [hours, hours + 1000]);
  });

  it('timeouts due during a jump still fire at their own times, between interval ticks', () => {
    const c = new FakeClock();
    const fired: string[] = [];
    c.setInterval(() => fired.push(`tick@${c.now()}`), 30_000);
    c.setTimeout(() => fired.push(`once@${c.now()}`), 45_000);
    c.runUntil(600_000);
    assert.deepEqual(fired, ['once@45000', 'tick@600000']);
  });

  it('intervals due at the same tick fire in the order they were last armed', () => {
    const c = new FakeClock();
    const fired: string[] = [];
    c.setInterval(() => fired.push('fast'), 1000);
    c.setInterval(() => fired.push('slow'), 3000);
    for (let i = 0; i < 3; i++) c.advance(1000);
    // fast was re-armed at 2000, after slow was armed at 0: slow goes first at 3000.
    assert.deepEqual(fired, ['fast', 'fast', 'slow', 'fast']);
  });

  it('a negative delay is due immediately', () => {
    const c = new FakeClock(100);
    let fired = false;
    c.setTimeout(() => (fired = true), -5);
    assert.equal(c.nextTimerAt(), 100);
    c.advance(0);
    assert.equal(fired, true);
  });
});

describe('seededRandom', () => {
  it('repeats the same sequence for the same seed', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    for (let i = 0; i < 100; i++) assert.equal(a(), b());
  });

  it('gives different sequences for different seeds', () => {
    const a = seededRandom(1);
    const b = seededRandom(2);
    let same = 0;
    for (let i = 0; i < 20; i++) if (a() === b()) same++;
    assert.ok(same < 20);
  });

  it('stays in [0, 1) and spreads over the interval', () => {
    const r = seededRandom(7);
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) {
      const x = r();
      assert.ok(x >= 0 && x < 1, `out of range: ${x}`);
      buckets[Math.floor(x * 10)]!++;
    }
    for (const n of buckets) assert.ok(n > 800 && n < 1200, `uneven buckets: ${buckets.join(',')}`);
  });
});

describe('formatGoDuration', () => {
  const cases: [number, string][] = [
    [0, '0s'],
    [500, '500ms'],
    [1500, '1.5s'],
    [10_000, '10s'],
    [60_000, '1m0s'],
    [90_000, '1m30s'],
    [15 * 60 * 1000, '15m0s'],
    [3_723_500, '1h2m3.5s'],
    [0.25, '250µs'],
    [-2000, '-2s'],
  ];
  for (const [ms, want] of cases) it(`${ms}ms prints as ${want}`, () => assert.equal(formatGoDuration(ms), want));
});
