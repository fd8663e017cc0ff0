// One timer for the earliest of several deadlines (Events to expire, Jobs to delete): a request
// for a later time leaves an earlier wake-up standing.
import type { Clock, TimerHandle } from './clock.js';

export class DeadlineTimer {
  private handle: TimerHandle | null = null;
  private at = Infinity;

  constructor(private readonly clock: Clock, private readonly fire: () => void) {}

  /** Calls `fire` at `time`, unless a call is already due by then. */
  wakeBy(time: number): void {
    if (time >= this.at) return;
    if (this.handle !== null) this.clock.clearTimeout(this.handle);
    this.at = time;
    this.handle = this.clock.setTimeout(() => {
      this.handle = null;
      this.at = Infinity;
      this.fire();
    }, Math.max(0, time - this.clock.now()));
  }

  cancel(): void {
    if (this.handle !== null) this.clock.clearTimeout(this.handle);
    this.handle = null;
    this.at = Infinity;
  }
}
