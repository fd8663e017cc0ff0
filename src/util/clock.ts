// An injectable clock: real time in production, a simulated clock in tests and simulations.

export interface TimerHandle {
  readonly id: number;
}

export interface Clock {
  /** Milliseconds since the epoch (or since the simulation start). */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(h: TimerHandle): void;
}

let nextTimerId = 1;

export class RealClock implements Clock {
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();

  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = nextTimerId++;
    const t = setTimeout(() => {
      this.timers.delete(id);
      fn();
    }, ms);
    t.unref?.();
    this.timers.set(id, t);
    return { id };
  }

  clearTimeout(h: TimerHandle): void {
    const t = this.timers.get(h.id);
    if (t !== undefined) clearTimeout(t);
    this.timers.delete(h.id);
  }
}

interface FakeTimer {
  id: number;
  at: number;
  fn: () => void;
}

/** A clock that moves only when told to; due timers fire in time order on `advance`/`runUntil`. */
export class FakeClock implements Clock {
  private timers: FakeTimer[] = [];

  constructor(private current = 0) {}

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const t = { id: nextTimerId++, at: this.current + Math.max(0, ms), fn };
    this.timers.push(t);
    return { id: t.id };
  }

  clearTimeout(h: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.id !== h.id);
  }

  /** When the next timer is due, or undefined when none is set. */
  nextTimerAt(): number | undefined {
    let min: number | undefined;
    for (const t of this.timers) if (min === undefined || t.at < min) min = t.at;
    return min;
  }

  /** Moves time to `to`, firing every timer due by then in order (timers may add timers). */
  runUntil(to: number): void {
    for (;;) {
      let next: FakeTimer | undefined;
      for (const t of this.timers) if (t.at <= to && (next === undefined || t.at < next.at || (t.at === next.at && t.id < next.id))) next = t;
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.current = Math.max(this.current, next.at);
      next.fn();
    }
    this.current = Math.max(this.current, to);
  }

  advance(ms: number): void {
    this.runUntil(this.current + ms);
  }
}

/** A seeded random source (mulberry32): deterministic for a seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
