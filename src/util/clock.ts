// An injectable clock: real time in production, a simulated clock in tests and simulations.

export interface TimerHandle {
  readonly id: number;
}

export interface Clock {
  /** Milliseconds since the epoch (or since the simulation start). */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /**
   * Calls `fn` every `periodMs`, first after `firstDelayMs` (a ticker). A simulated clock that
   * jumps over several periods calls it once, at the last one, as a Go ticker drops the ticks
   * its receiver missed.
   */
  setInterval(fn: () => void, periodMs: number, firstDelayMs?: number): TimerHandle;
  /** Cancels a timeout or an interval. */
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

  setInterval(fn: () => void, periodMs: number, firstDelayMs = periodMs): TimerHandle {
    const id = nextTimerId++;
    const first = setTimeout(() => {
      const every = setInterval(fn, periodMs);
      every.unref?.();
      this.timers.set(id, every);
      fn();
    }, firstDelayMs);
    first.unref?.();
    this.timers.set(id, first);
    return { id };
  }

  clearTimeout(h: TimerHandle): void {
    const t = this.timers.get(h.id);
    // Node's clearTimeout cancels intervals too.
    if (t !== undefined) clearTimeout(t);
    this.timers.delete(h.id);
  }
}

interface FakeTimer {
  readonly id: number;
  at: number;
  /** Order among timers due at the same time: when it was (re)armed. */
  seq: number;
  /** Set for an interval. */
  readonly periodMs: number | null;
  readonly fn: () => void;
}

let nextArming = 1;

/**
 * A clock that moves only when told to; due timers fire in time order on `advance`/`runUntil`.
 * A jump costs one call per timer due, however long: an interval fires once, at its last tick
 * before the target (k8s.io/utils' fake clock does the same with tickers).
 */
export class FakeClock implements Clock {
  private timers: FakeTimer[] = [];

  constructor(private current = 0) {}

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.add(fn, ms, null);
  }

  setInterval(fn: () => void, periodMs: number, firstDelayMs = periodMs): TimerHandle {
    return this.add(fn, firstDelayMs, Math.max(1, periodMs));
  }

  private add(fn: () => void, ms: number, periodMs: number | null): TimerHandle {
    const t: FakeTimer = { id: nextTimerId++, at: this.current + Math.max(0, ms), seq: nextArming++, periodMs, fn };
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
      let nextAt = 0;
      for (const t of this.timers) {
        if (t.at > to) continue;
        const at = firesAt(t, to);
        if (next === undefined || at < nextAt || (at === nextAt && t.seq < next.seq)) {
          next = t;
          nextAt = at;
        }
      }
      if (!next) break;
      this.current = Math.max(this.current, nextAt);
      if (next.periodMs === null) {
        this.timers = this.timers.filter((t) => t !== next);
        next.fn();
        continue;
      }
      next.at = nextAt + next.periodMs;
      next.fn();
      // Re-armed after its call, as a timeout chain set again from inside the callback would be.
      next.seq = nextArming++;
    }
    this.current = Math.max(this.current, to);
  }

  advance(ms: number): void {
    this.runUntil(this.current + ms);
  }
}

/** When a due timer fires in a run up to `to`: its time, or an interval's last tick by then. */
function firesAt(t: FakeTimer, to: number): number {
  if (t.periodMs === null) return t.at;
  return t.at + Math.floor((to - t.at) / t.periodMs) * t.periodMs;
}

/**
 * A random source that can hand a run of its draws to later: `defer(n)` moves it past its next n
 * draws at once and returns a source that yields exactly those n draws when asked.
 */
export interface DeferrableRandom {
  (): number;
  defer(draws: number): () => number;
}

/** The draws a random source gives next, for later: without `defer`, drawn now and kept. */
export function deferDraws(random: () => number, draws: number): () => number {
  const deferrable = random as Partial<DeferrableRandom>;
  if (typeof deferrable.defer === 'function') return deferrable.defer(draws);
  const kept = new Float64Array(draws);
  for (let i = 0; i < draws; i++) kept[i] = random();
  let next = 0;
  return () => kept[next++]!;
}

/** The mulberry32 step: the state is advanced by a constant, so n draws are skipped in one addition. */
const mulberryIncrement = 0x6d2b79f5;

/** mulberry32's output for the (already advanced) state `a`. */
function mulberryOutput(a: number): number {
  let t = a;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function mulberry32From(state: number): () => number {
  let a = state | 0;
  return () => mulberryOutput((a = (a + mulberryIncrement) | 0));
}

/** A seeded random source (mulberry32): deterministic for a seed; `defer` skips draws in O(1). */
export function seededRandom(seed: number): DeferrableRandom {
  // Held as an int32 (same bits as the uint32 of mulberry32), so the state stays a small
  // integer instead of becoming a new heap number on every draw.
  let a = seed | 0;
  const random = (): number => mulberryOutput((a = (a + mulberryIncrement) | 0));
  random.defer = (draws: number): (() => number) => {
    const later = mulberry32From(a);
    a = (a + Math.imul(draws, mulberryIncrement)) | 0;
    return later;
  };
  return random;
}

// The last second formatted: every bind and create stamps a time, and most fall in the second before.
let lastSecond = NaN;
let lastText = '';

/** metav1.Time as the API server writes it: RFC 3339 in UTC, whole seconds. */
export function rfc3339(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    const iso = new Date(second * 1000).toISOString();
    // toISOString always ends in .sssZ, here .000Z.
    lastText = `${iso.slice(0, -5)}Z`;
    lastSecond = second;
  }
  return lastText;
}

/** A version 4 UUID (as the API server's uids) drawn from `random`: deterministic for a seeded source. */
export function randomUUID(random: () => number): string {
  let hex = '';
  for (let i = 0; i < 4; i++) hex += Math.floor(random() * 2 ** 32).toString(16).padStart(8, '0');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
