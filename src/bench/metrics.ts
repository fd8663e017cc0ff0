// The figures upstream's harness reports for a measured createPods op
// (test/integration/scheduler_perf/util.go: throughputCollector, DataItem percentiles):
// SchedulingThroughput sampled over 1-second windows of wall time, and scheduling attempt
// durations; plus peak memory, which upstream leaves to the profiler.
import { memoryUsage } from 'node:process';

const throughputSampleIntervalMs = 1000;

export interface ThroughputSummary {
  average: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  /** How many windows the figures are computed from; 0 when they are the whole op's average. */
  samples: number;
}

export interface AttemptSummary {
  p50: number;
  p90: number;
  p99: number;
  count: number;
}

/**
 * The value at percentile `pct` of ascending `sorted` values, taken as upstream does: the element
 * at ceil(n * pct / 100) - 1, no interpolation.
 */
export function percentile(sorted: ArrayLike<number>, pct: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const idx = Math.ceil((n * pct) / 100) - 1;
  return sorted[idx < 0 ? 0 : idx]!;
}

/**
 * Samples how many measured pods are scheduled, once per window of wall time, as upstream's
 * throughputCollector: sampling starts at the first tick that finds a measured pod scheduled, and
 * that first (partial) window is discarded; a window in which no pod was scheduled is not recorded
 * as zero but merged into the next one that saw progress, which then counts once per merged window.
 */
export class ThroughputCollector {
  private readonly samples: number[] = [];
  private started = false;
  /** When the last window with progress ended. */
  private lastSampleAt: number;
  private lastCount: number;
  /** Windows without progress since lastSampleAt. */
  private skipped = 0;
  private nextDueAt: number;
  private readonly startedAt: number;
  private readonly startCount: number;

  constructor(now: number, count: number) {
    this.lastSampleAt = now;
    this.lastCount = count;
    this.startedAt = now;
    this.startCount = count;
    this.nextDueAt = now + throughputSampleIntervalMs;
  }

  /** True when the current window has ended. */
  due(now: number): boolean {
    return now >= this.nextDueAt;
  }

  /** Closes the current window; `now` is when it is observed, which may be a little late. */
  sample(now: number, count: number): void {
    // A fixed-rate ticker, as upstream's; if a long attempt overran a whole window, restart from now.
    this.nextDueAt += throughputSampleIntervalMs;
    if (this.nextDueAt <= now) this.nextDueAt = now + throughputSampleIntervalMs;
    if (count === this.startCount && !this.started) return;
    if (!this.started) {
      this.started = true;
      this.lastSampleAt = now;
      this.lastCount = count;
      return;
    }
    const scheduled = count - this.lastCount;
    if (scheduled === 0) {
      this.skipped++;
      return;
    }
    const rate = (scheduled * 1000) / (now - this.lastSampleAt);
    for (let i = 0; i <= this.skipped; i++) this.samples.push(rate);
    this.skipped = 0;
    this.lastSampleAt = now;
    this.lastCount = count;
  }

  /**
   * The summary at the end of the op. The last, partial window is dropped as upstream drops it.
   * An op too short for one full window after the first (where upstream reports nothing) gets one
   * sample: its pods over its whole wall time, creation included.
   */
  finish(now: number, count: number): ThroughputSummary {
    if (this.samples.length > 0) return summarizeThroughput(this.samples);
    const elapsed = now - this.startedAt;
    const scheduled = count - this.startCount;
    const whole = summarizeThroughput(scheduled > 0 && elapsed > 0 ? [(scheduled * 1000) / elapsed] : []);
    return { ...whole, samples: 0 };
  }
}

export function summarizeThroughput(samples: readonly number[]): ThroughputSummary {
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (let i = 0; i < sorted.length; i++) sum += sorted[i]!;
  return {
    average: sorted.length > 0 ? sum / sorted.length : 0,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    samples: sorted.length,
  };
}

/** Scheduling attempt durations in seconds, kept in a growing typed array (no per-sample objects). */
export class DurationRecorder {
  private values = new Float64Array(1024);
  private n = 0;

  add(seconds: number): void {
    if (this.n === this.values.length) {
      const next = new Float64Array(this.values.length * 2);
      next.set(this.values);
      this.values = next;
    }
    this.values[this.n++] = seconds;
  }

  get count(): number {
    return this.n;
  }

  summary(): AttemptSummary {
    const sorted = this.values.slice(0, this.n).sort();
    return { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), count: this.n };
  }
}

/** The highest resident set size and V8 heap use seen at the sampling points. */
export class MemorySampler {
  peakRssBytes = 0;
  peakHeapUsedBytes = 0;

  sample(): void {
    const m = memoryUsage();
    if (m.rss > this.peakRssBytes) this.peakRssBytes = m.rss;
    if (m.heapUsed > this.peakHeapUsedBytes) this.peakHeapUsedBytes = m.heapUsed;
  }
}
