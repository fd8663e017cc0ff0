// What upstream's MetricAsyncRecorder keeps (pkg/scheduler/metrics/metric_recorder.go): the
// plugin durations of sampled cycles (and Sign's) go through a channel of 1,000 that a goroutine
// drains once a second; an observation that finds the channel full is dropped. So at most 1,000
// are kept per second, the first ones of each second, however many cycles are sampled.

/** Observations kept between two flushes (NewMetricsAsyncRecorder(1000, time.Second, ...)). */
const asyncRecorderBufferSize = 1000;
/** The flushes' period (ms), counted from the recorder's creation. */
const asyncRecorderFlushMs = 1000;

export class AsyncRecorderBuffer {
  private readonly createdMs: number;
  /** The flush period `room` belongs to. */
  private period = 0;
  private room = asyncRecorderBufferSize;

  constructor(private readonly nowMs: () => number) {
    this.createdMs = nowMs();
  }

  /**
   * Whether an observation made now would be kept. While there is room the clock is not read (the
   * answer may be a period late; `take` settles it), so that a call asked about needs no clock.
   */
  hasRoom(): boolean {
    return this.room > 0 || this.flushedSince();
  }

  /** Takes a place for an observation made now: false when it is dropped. */
  take(): boolean {
    this.flushedSince();
    if (this.room === 0) return false;
    this.room--;
    return true;
  }

  /** Moves to the current flush period (its room whole again); true when that happened. */
  private flushedSince(): boolean {
    const period = Math.floor((this.nowMs() - this.createdMs) / asyncRecorderFlushMs);
    if (period === this.period) return false;
    this.period = period;
    this.room = asyncRecorderBufferSize;
    return true;
  }
}
