// The one scheduling loop every mode drives (scheduler.go Run: wait.UntilWithContext(ScheduleOne)).
// Its rules: no pod is popped while a scheduling cycle waits for an extender; binding cycles run
// on beside the next scheduling cycles; between two pods, pending I/O (watch events, HTTP
// requests, binding answers) gets its turn. `start`/`stop` run it in real time, asleep until the
// queue has a pod to offer; `drain` runs it in a simulation until nothing is left to do.

/** What the loop drives: the Scheduler. */
export interface SchedulingCycles {
  /**
   * Pops one pod and runs its scheduling cycle, starting its binding cycle in the background:
   * false when there was no pod; a promise while the cycle waits for an extender.
   */
  scheduleOne(): boolean | Promise<void>;
  readonly bindingsInFlight: number;
  /** Plugins' work started outside a cycle (evictions of asynchronous preemption) still running. */
  readonly backgroundInFlight: number;
  /** Resolves once every binding cycle and background work in flight has finished. */
  waitForBindings(): Promise<void>;
}

/** Lets timers, sockets and settled promises run before the next pod (a macrotask turn). */
const yieldToIO = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class SchedulingLoop {
  private running = false;
  private waker: (() => void) | null = null;
  private finished: Promise<void> = Promise.resolve();

  constructor(private readonly cycles: SchedulingCycles) {}

  /** Whether `start` is in effect (stop not called since). */
  get isRunning(): boolean {
    return this.running;
  }

  /** Whether the real-time loop is asleep, waiting for the queue to offer a pod. */
  get isIdle(): boolean {
    return this.waker !== null;
  }

  /** Schedules in real time until `stop`; sleeps while the queue has nothing to pop. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.finished = this.run();
  }

  /**
   * Stops before the next pod; resolves once the current scheduling cycle has ended (binding
   * cycles in flight go on: see waitForBindings).
   */
  stop(): Promise<void> {
    this.running = false;
    this.wake();
    return this.finished;
  }

  /** The queue has a pod to offer (its onActive hook). */
  wake(): void {
    const w = this.waker;
    this.waker = null;
    w?.();
  }

  /**
   * Runs until no pod can be popped and no cycle is in flight (a simulation's step); binding
   * cycles overlap the next pods as in real time, and their outcomes may requeue pods.
   */
  async drain(): Promise<void> {
    for (;;) {
      const cycle = this.cycles.scheduleOne();
      if (cycle !== false) {
        if (cycle !== true) await cycle;
        await yieldToIO();
        continue;
      }
      if (this.cycles.bindingsInFlight === 0 && this.cycles.backgroundInFlight === 0) return;
      await this.cycles.waitForBindings();
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      const cycle = this.cycles.scheduleOne();
      if (cycle === false) {
        // Set synchronously after the empty pop, so no onActive in between can be missed.
        await new Promise<void>((resolve) => {
          this.waker = resolve;
        });
        continue;
      }
      if (cycle !== true) await cycle;
      await yieldToIO();
    }
  }
}
