import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../cluster/types.js';
import { discardLogger } from '../log/logger.js';
import { FakeClock } from '../util/clock.js';
import { LeaderElector, type LeaderElectorOptions } from './leader_elector.js';
import type { LeaderElectionRecord, ResourceLock } from './lease_lock.js';

/** One Lease as the API server keeps it: a record and a version for optimistic concurrency. */
class LeaseStore {
  record: LeaderElectionRecord | null = null;
  version = 0;
  /** Identities whose requests fail (a partitioned replica). */
  readonly unreachable = new Set<string>();
}

class FakeLock implements ResourceLock {
  private seen = -1;
  readonly events: string[] = [];

  constructor(private readonly store: LeaseStore, readonly identity: string) {}

  describe(): string {
    return 'kube-system/kube-scheduler';
  }

  private reach(): void {
    if (this.store.unreachable.has(this.identity)) throw new Error('dial tcp: connection refused');
  }

  async get() {
    this.reach();
    if (!this.store.record) return null;
    this.seen = this.store.version;
    return { record: { ...this.store.record }, raw: JSON.stringify(this.store.record) };
  }

  async create(r: LeaderElectionRecord) {
    this.reach();
    if (this.store.record) throw new ApiError(409, 'leases.coordination.k8s.io "kube-scheduler" already exists');
    this.store.record = { ...r };
    this.seen = ++this.store.version;
  }

  async update(r: LeaderElectionRecord) {
    this.reach();
    if (this.seen !== this.store.version) throw new ApiError(409, 'the object has been modified; please apply your changes to the latest version and try again');
    this.store.record = { ...r };
    this.seen = ++this.store.version;
  }

  recordEvent(message: string): void {
    this.events.push(`${this.identity} ${message}`);
  }
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
};

/** Moves the clock in small steps, letting the electors' promises settle between steps. */
async function advance(clock: FakeClock, ms: number): Promise<void> {
  const end = clock.now() + ms;
  while (clock.now() < end) {
    clock.advance(Math.min(100, end - clock.now()));
    await flush();
  }
}

interface Replica {
  elector: LeaderElector;
  lock: FakeLock;
  log: string[];
  run: Promise<void>;
}

function replica(store: LeaseStore, clock: FakeClock, id: string, extra: Partial<LeaderElectorOptions> = {}): Replica {
  const lock = new FakeLock(store, id);
  const log: string[] = [];
  const elector = new LeaderElector({
    lock,
    clock,
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2_000,
    name: 'kube-scheduler',
    releaseOnCancel: true,
    log: discardLogger,
    random: () => 0,
    callbacks: {
      onStartedLeading: () => log.push(`started@${clock.now()}`),
      onStoppedLeading: () => log.push(`stopped@${clock.now()}`),
      onNewLeader: (who) => log.push(`leader=${who}`),
    },
    ...extra,
  });
  return { elector, lock, log, run: elector.run() };
}

test('the first replica creates the Lease and leads; renewals keep acquireTime and move renewTime', async () => {
  const clock = new FakeClock(1_000_000);
  const store = new LeaseStore();
  const a = replica(store, clock, 'a');
  await flush();
  assert.deepEqual(a.log, ['leader=a', 'started@1000000']);
  assert.deepEqual(store.record, { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: 1_000_000, renewTime: 1_000_000, leaderTransitions: 0 });
  await advance(clock, 4_000);
  assert.equal(store.record!.renewTime, 1_004_000);
  assert.equal(store.record!.acquireTime, 1_000_000);
  assert.ok(a.elector.isLeading);
  assert.deepEqual(a.lock.events, ['a became leader']);
  a.elector.stop();
  await a.run;
});

test('a follower does not lead while the holder renews, and takes over a lease left unrenewed for leaseDuration', async () => {
  const clock = new FakeClock(0);
  const store = new LeaseStore();
  const a = replica(store, clock, 'a', { releaseOnCancel: false });
  await flush();
  const b = replica(store, clock, 'b');
  await advance(clock, 60_000);
  assert.deepEqual(b.log, ['leader=a'], 'b only observed a');
  assert.equal(store.record!.holderIdentity, 'a');

  // a stops renewing without giving the lease up (a crash): b waits a full lease duration.
  store.unreachable.add('a');
  const lostAt = clock.now();
  await advance(clock, 30_000);
  const started = b.log.find((l) => l.startsWith('started@'));
  assert.ok(started, 'b took over');
  const at = Number(started.slice('started@'.length));
  assert.ok(at - lostAt >= 15_000, `b took over ${at - lostAt}ms after a's last renewal, before the lease expired`);
  assert.equal(store.record!.holderIdentity, 'b');
  assert.equal(store.record!.leaderTransitions, 1);
  // a gave up after renewDeadline without a successful renewal.
  const stopped = a.log.find((l) => l.startsWith('stopped@'));
  assert.ok(stopped);
  assert.ok(Number(stopped.slice('stopped@'.length)) - lostAt <= 10_000 + 2_000);
  assert.ok(!a.elector.isLeading);
  b.elector.stop();
  await Promise.all([a.run, b.run]);
});

test('a leader that cannot renew stops leading within renewDeadline, not before', async () => {
  const clock = new FakeClock(0);
  const store = new LeaseStore();
  const a = replica(store, clock, 'a');
  await flush();
  await advance(clock, 2_000);
  store.unreachable.add('a');
  const cutAt = clock.now();
  await advance(clock, 9_000);
  assert.ok(a.elector.isLeading, 'still leading before the deadline');
  await advance(clock, 4_000);
  assert.ok(!a.elector.isLeading);
  const stoppedAt = Number(a.log.at(-1)!.slice('stopped@'.length));
  assert.ok(stoppedAt - cutAt <= 12_000 && stoppedAt - cutAt >= 8_000, `stopped ${stoppedAt - cutAt}ms after the cut`);
  await a.run;
});

test('stopping a leader releases the lease, so a follower acquires it without waiting for expiry', async () => {
  const clock = new FakeClock(0);
  const store = new LeaseStore();
  const a = replica(store, clock, 'a');
  await flush();
  const b = replica(store, clock, 'b');
  await advance(clock, 4_000);
  a.elector.stop();
  await a.run;
  assert.equal(store.record!.holderIdentity, '');
  assert.equal(store.record!.leaseDurationSeconds, 1);
  assert.deepEqual(a.log.slice(-1), [`stopped@${clock.now()}`]);
  const releasedAt = clock.now();
  await advance(clock, 6_000);
  const started = b.log.find((l) => l.startsWith('started@'));
  assert.ok(started);
  assert.ok(Number(started.slice('started@'.length)) - releasedAt <= 5_000);
  assert.equal(store.record!.holderIdentity, 'b');
  assert.equal(store.record!.leaderTransitions, 1);
  b.elector.stop();
  await b.run;
});

test('a release that meets a renewal landing after its read reads the Lease again and still gives it up', async () => {
  const clock = new FakeClock(0);
  const store = new LeaseStore();
  const a = replica(store, clock, 'a');
  await advance(clock, 4_000);
  const renewedVersion = store.version;
  // The renewal in flight when the leader was stopped lands between the release's read and its write.
  const get = a.lock.get.bind(a.lock);
  let landed = 0;
  a.lock.get = async () => {
    const got = await get();
    if (landed++ === 0) store.version++;
    return got;
  };
  a.elector.stop();
  await a.run;
  assert.equal(landed, 2, 'read again after the conflict');
  assert.equal(store.version, renewedVersion + 2, 'the renewal, then the release');
  assert.equal(store.record!.holderIdentity, '');
  assert.equal(store.record!.leaseDurationSeconds, 1);
});

test('healthz check fails for a leader whose lease went unrenewed past duration + tolerance', async () => {
  const clock = new FakeClock(0);
  const store = new LeaseStore();
  // A renew deadline long enough that the leader keeps believing it leads.
  const a = replica(store, clock, 'a', { leaseDurationMs: 60_000, renewDeadlineMs: 50_000 });
  await flush();
  assert.equal(a.elector.check(20_000), null);
  store.unreachable.add('a');
  await advance(clock, 40_000);
  assert.equal(a.elector.check(20_000), null);
  assert.match(String(a.elector.check(-30_000)), /failed election to renew leadership on lease kube-scheduler/);
  a.elector.stop();
  await a.run;
});

test('configuration is validated as NewLeaderElector does', () => {
  const clock = new FakeClock(0);
  const store = new LeaseStore();
  const base = { lock: new FakeLock(store, 'a'), clock, name: 'x', log: discardLogger, callbacks: { onStartedLeading() {}, onStoppedLeading() {} } };
  assert.throws(() => new LeaderElector({ ...base, leaseDurationMs: 10_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 }), /leaseDuration must be greater than renewDeadline/);
  assert.throws(() => new LeaderElector({ ...base, leaseDurationMs: 15_000, renewDeadlineMs: 2_000, retryPeriodMs: 2_000 }), /renewDeadline must be greater than retryPeriod\*JitterFactor/);
  assert.throws(() => new LeaderElector({ ...base, lock: new FakeLock(store, ''), leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 }), /Lock identity is empty/);
});
