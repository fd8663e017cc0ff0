import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from './clock.js';
import { DeadlineTimer } from './deadline_timer.js';

describe('DeadlineTimer', () => {
  it('fires at the earliest time asked; a later request leaves it, an earlier one moves it; cancel stops it', () => {
    const clock = new FakeClock(0);
    const fired: number[] = [];
    const t = new DeadlineTimer(clock, () => fired.push(clock.now()));
    t.wakeBy(100);
    t.wakeBy(300);
    t.wakeBy(50);
    clock.advance(200);
    assert.deepEqual(fired, [50], 'one call, at the earliest');
    t.wakeBy(250);
    clock.advance(100);
    assert.deepEqual(fired, [50, 250], 'after firing it takes new requests');
    t.wakeBy(400);
    t.cancel();
    clock.advance(1_000);
    assert.deepEqual(fired, [50, 250]);
  });
});
