// Lease-based leader election (client-go tools/leaderelection/leaderelection.go): acquire by retrying
// every retryPeriod (jittered); renew every retryPeriod; give up leadership when no renewal succeeds
// within renewDeadline. Expiry is judged by the local clock from when the record was last seen to
// change, never by the timestamps in the record, so clock skew between replicas does not matter.
import { ApiError } from '../cluster/types.js';
import type { Logger } from '../log/logger.js';
import type { Clock } from '../util/clock.js';
import type { LeaderElectionRecord, ResourceLock } from './lease_lock.js';

/** Acquire retries wait retryPeriod × (1 + up to 1.2) (wait.JitterUntil). */
const JitterFactor = 1.2;

interface LeaderCallbacks {
  /** We hold the lease: start working. */
  onStartedLeading(): void;
  /** We no longer hold it (lost or released): stop working at once. Called once per run. */
  onStoppedLeading(): void;
  /** A different holder was observed (including the first one seen). */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectorOptions {
  lock: ResourceLock;
  clock: Clock;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  /** The lock's name, for messages and metrics ("kube-scheduler"). */
  name: string;
  /** Give the lease up (holder cleared, 1s duration) when stopping while leading. */
  releaseOnCancel?: boolean;
  callbacks: LeaderCallbacks;
  log: Logger;
  random?: () => number;
}

class LeaderElectionConfigError extends Error {
  override name = 'LeaderElectionConfigError';
}

const emptyRecord: LeaderElectionRecord = { holderIdentity: '', leaseDurationSeconds: 0, acquireTime: 0, renewTime: 0, leaderTransitions: 0 };

export class LeaderElector {
  private observedRecord: LeaderElectionRecord = emptyRecord;
  private observedRaw = '';
  private observedTime = 0;
  private reportedLeader = '';
  private stopped = false;
  private leading = false;
  private readonly wakers = new Set<() => void>();
  private readonly random: () => number;

  constructor(private readonly o: LeaderElectorOptions) {
    if (o.leaseDurationMs <= o.renewDeadlineMs) throw new LeaderElectionConfigError('leaseDuration must be greater than renewDeadline');
    if (o.renewDeadlineMs <= JitterFactor * o.retryPeriodMs) throw new LeaderElectionConfigError('renewDeadline must be greater than retryPeriod*JitterFactor');
    if (o.leaseDurationMs < 1) throw new LeaderElectionConfigError('leaseDuration must be greater than zero');
    if (o.renewDeadlineMs < 1) throw new LeaderElectionConfigError('renewDeadline must be greater than zero');
    if (o.retryPeriodMs < 1) throw new LeaderElectionConfigError('retryPeriod must be greater than zero');
    if (!o.lock.identity) throw new LeaderElectionConfigError('Lock identity is empty');
    this.random = o.random ?? Math.random;
  }

  /** The last observed holder ('' when none was seen). */
  getLeader(): string {
    return this.observedRecord.holderIdentity;
  }

  /** Whether the last observed record names us. */
  isLeader(): boolean {
    return this.observedRecord.holderIdentity === this.o.lock.identity;
  }

  /** Whether we are leading now (between onStartedLeading and onStoppedLeading). */
  get isLeading(): boolean {
    return this.leading;
  }

  /**
   * Tries to acquire, leads until the lease is lost or `stop` is called, then gives it up.
   * Resolves after onStoppedLeading has run.
   */
  async run(): Promise<void> {
    let led = false;
    try {
      if (!(await this.acquire())) return;
      led = true;
      this.leading = true;
      this.o.callbacks.onStartedLeading();
      await this.renew();
    } finally {
      this.stopLeading();
      if (led) this.o.lock.recordEvent('stopped leading');
      if (this.o.releaseOnCancel) await this.release();
    }
  }

  /** Stops acquiring or renewing; a leader gives the lease up (releaseOnCancel) before run resolves. */
  stop(): void {
    this.stopped = true;
    for (const wake of [...this.wakers]) wake();
  }

  /** Healthz: a leader that has not renewed for leaseDuration + `maxTolerableExpiredMs` is unhealthy. */
  check(maxTolerableExpiredMs: number): Error | null {
    if (!this.isLeader()) return null;
    if (this.o.clock.now() - this.observedTime > this.o.leaseDurationMs + maxTolerableExpiredMs) {
      return new Error(`failed election to renew leadership on lease ${this.o.name}`);
    }
    return null;
  }

  private stopLeading(): void {
    if (!this.leading) return;
    this.leading = false;
    this.o.callbacks.onStoppedLeading();
  }

  /** Sleeps on the clock; `stop` (and a deadline, when given) wakes it early. */
  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        this.o.clock.clearTimeout(h);
        this.wakers.delete(wake);
        resolve();
      };
      const h = this.o.clock.setTimeout(wake, Math.max(0, ms));
      this.wakers.add(wake);
    });
  }

  /** Resolves with the attempt's result, or false when `deadline` passes first. */
  private beforeDeadline(attempt: Promise<boolean>, deadline: number): Promise<boolean> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (v: boolean) => {
        if (done) return;
        done = true;
        this.o.clock.clearTimeout(h);
        this.wakers.delete(onStop);
        resolve(v);
      };
      const onStop = () => finish(false);
      const h = this.o.clock.setTimeout(() => finish(false), Math.max(0, deadline - this.o.clock.now()));
      this.wakers.add(onStop);
      attempt.then(finish, () => finish(false));
    });
  }

  private async acquire(): Promise<boolean> {
    const desc = this.o.lock.describe();
    this.o.log.info('Attempting to acquire leader lease', { lease: desc });
    while (!this.stopped) {
      const ok = await this.tryAcquireOrRenew();
      this.maybeReportTransition();
      if (ok && !this.stopped) {
        this.o.lock.recordEvent('became leader');
        this.o.log.info('Successfully acquired lease', { lease: desc });
        return true;
      }
      if (!ok) this.o.log.v(4).info('Failed to acquire lease', { lease: desc });
      await this.sleep(this.o.retryPeriodMs * (1 + this.random() * JitterFactor));
    }
    return false;
  }

  /** Renews every retryPeriod; returns when a renewal misses renewDeadline or on stop. */
  private async renew(): Promise<void> {
    const desc = this.o.lock.describe();
    const clock = this.o.clock;
    while (!this.stopped) {
      const deadline = clock.now() + this.o.renewDeadlineMs;
      let renewed = false;
      // Poll at once, then every retryPeriod, until success or the deadline.
      while (!this.stopped) {
        renewed = await this.beforeDeadline(this.tryAcquireOrRenew(), deadline);
        if (renewed || this.stopped || clock.now() >= deadline) break;
        const wait = Math.min(this.o.retryPeriodMs, deadline - clock.now());
        await this.sleep(wait);
        if (clock.now() >= deadline) break;
      }
      this.maybeReportTransition();
      if (this.stopped) return;
      if (!renewed) {
        this.o.log.info('Failed to renew lease', { lease: desc, renewDeadline: `${this.o.renewDeadlineMs / 1000}s` });
        this.stopLeading();
        return;
      }
      this.o.log.v(5).info('Successfully renewed lease', { lease: desc });
      await this.sleep(this.o.retryPeriodMs);
    }
  }

  private setObservedRecord(r: LeaderElectionRecord): void {
    this.observedRecord = r;
    this.observedTime = this.o.clock.now();
  }

  private isLeaseValid(now: number): boolean {
    return this.observedTime + this.observedRecord.leaseDurationSeconds * 1000 > now;
  }

  /** One attempt to take or keep the lease (tryAcquireOrRenew). */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const lock = this.o.lock;
    const now = this.o.clock.now();
    const desired: LeaderElectionRecord = {
      holderIdentity: lock.identity,
      leaseDurationSeconds: Math.floor(this.o.leaseDurationMs / 1000),
      renewTime: now,
      acquireTime: now,
      leaderTransitions: 0,
    };
    // Fast path: a leader updates optimistically from the record it last saw.
    if (this.isLeader() && this.isLeaseValid(now)) {
      const r = { ...desired, acquireTime: this.observedRecord.acquireTime, leaderTransitions: this.observedRecord.leaderTransitions };
      try {
        await lock.update(r);
        this.setObservedRecord(r);
        return true;
      } catch (err) {
        this.o.log.error(err, 'Failed to update lock optimistically, falling back to slow path', { lease: lock.describe() });
      }
    }
    let current: Awaited<ReturnType<ResourceLock['get']>>;
    try {
      current = await lock.get();
    } catch (err) {
      this.o.log.error(err, 'Error retrieving resource lock', { lease: lock.describe() });
      return false;
    }
    if (current === null) {
      try {
        await lock.create(desired);
      } catch (err) {
        this.o.log.error(err, 'Error initially creating leader election record', { lease: lock.describe() });
        return false;
      }
      this.setObservedRecord(desired);
      return true;
    }
    if (current.raw !== this.observedRaw) {
      this.setObservedRecord(current.record);
      this.observedRaw = current.raw;
    }
    if (current.record.holderIdentity !== '' && this.isLeaseValid(now) && !this.isLeader()) {
      this.o.log.v(4).info('Lock is held by another and has not yet expired', { holder: current.record.holderIdentity, lease: lock.describe() });
      return false;
    }
    const r: LeaderElectionRecord = this.isLeader()
      ? { ...desired, acquireTime: current.record.acquireTime, leaderTransitions: current.record.leaderTransitions }
      : { ...desired, leaderTransitions: current.record.leaderTransitions + 1 };
    try {
      await lock.update(r);
    } catch (err) {
      this.o.log.error(err, 'Failed to update lock', { lease: lock.describe() });
      return false;
    }
    this.setObservedRecord(r);
    return true;
  }

  /**
   * Gives the lease up when we hold it (release/tryRelease): read afresh, then no holder and a 1s
   * duration. A renewal still in flight when we were stopped can move the Lease on under us; that
   * conflict is retried, all within renewDeadline, since a lease left held costs the next leader a
   * whole leaseDuration.
   */
  private async release(): Promise<boolean> {
    if (!this.isLeader()) return true;
    const deadline = this.o.clock.now() + this.o.renewDeadlineMs;
    while (this.o.clock.now() < deadline) {
      const outcome = await this.withinDeadline(this.tryRelease(), deadline);
      if (outcome !== 'conflict') return outcome === 'released';
      this.o.log.v(4).info('Conflict when releasing lease, retrying', { lease: this.o.lock.describe() });
    }
    return false;
  }

  private async tryRelease(): Promise<'released' | 'conflict' | 'failed'> {
    const lock = this.o.lock;
    let current: Awaited<ReturnType<ResourceLock['get']>>;
    try {
      current = await lock.get();
    } catch (err) {
      this.o.log.error(err, 'Error retrieving resource lock', { lease: lock.describe() });
      return 'failed';
    }
    if (current === null) {
      this.o.log.info('Lease lock not found', { lease: lock.describe() });
      return 'failed';
    }
    const now = this.o.clock.now();
    const r: LeaderElectionRecord = { holderIdentity: '', leaseDurationSeconds: 1, renewTime: now, acquireTime: now, leaderTransitions: current.record.leaderTransitions };
    try {
      await lock.update(r);
    } catch (err) {
      if (err instanceof ApiError && err.code === 409) return 'conflict';
      this.o.log.error(err, 'Failed to release lease', { lease: lock.describe() });
      return 'failed';
    }
    this.setObservedRecord(r);
    return 'released';
  }

  /** The attempt's outcome, or 'failed' once `deadline` (clock ms) passes first. */
  private withinDeadline<T extends string>(attempt: Promise<T>, deadline: number): Promise<T | 'failed'> {
    return new Promise((resolve) => {
      const h = this.o.clock.setTimeout(() => resolve('failed'), Math.max(0, deadline - this.o.clock.now()));
      attempt.then((v) => {
        this.o.clock.clearTimeout(h);
        resolve(v);
      }, () => {
        this.o.clock.clearTimeout(h);
        resolve('failed');
      });
    });
  }

  private maybeReportTransition(): void {
    if (this.observedRecord.holderIdentity === this.reportedLeader) return;
    this.reportedLeader = this.observedRecord.holderIdentity;
    this.o.callbacks.onNewLeader?.(this.reportedLeader);
  }
}
