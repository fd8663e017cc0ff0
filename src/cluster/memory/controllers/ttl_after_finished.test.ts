import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/types.js';
import { FakeClock, rfc3339 } from '../../../util/clock.js';
import { MemoryCluster } from '../store.js';
import { jobExpiry, TtlAfterFinished } from './ttl_after_finished.js';

const start = Date.parse('2026-01-01T00:00:00Z');
const job = (name: string, ttl: number | undefined, finishedAt: number | null, type = 'Complete'): KubeObject => ({
  apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace: 'default' },
  spec: { ...(ttl === undefined ? {} : { ttlSecondsAfterFinished: ttl }), template: { spec: { containers: [{ name: 'c', image: 'x' }], restartPolicy: 'Never' } } },
  ...(finishedAt === null ? {} : { status: { conditions: [{ type, status: 'True', lastTransitionTime: rfc3339(finishedAt) }] } }),
} as KubeObject);

function setup() {
  const clock = new FakeClock(start);
  const cluster = new MemoryCluster({ clock, volumeController: false, resourceClaimController: false });
  return { clock, cluster, ttl: new TtlAfterFinished(cluster, clock) };
}
const jobs = (c: MemoryCluster) => c.list('Job').map((j) => j.metadata?.name).sort();

describe('TTL after finished (Jobs)', () => {
  it('jobExpiry: the finish condition\'s time plus the TTL; none without either', () => {
    assert.equal(jobExpiry(job('a', 30, start) as never), start + 30_000);
    assert.equal(jobExpiry(job('f', 0, start, 'Failed') as never), start);
    assert.equal(jobExpiry(job('b', undefined, start) as never), null);
    assert.equal(jobExpiry(job('c', 30, null) as never), null);
  });

  it('deletes a finished Job its TTL after it finished; leaves running and TTL-less ones', () => {
    const { clock, cluster, ttl } = setup();
    cluster.create(job('old', 60, start - 30_000));
    cluster.create(job('keep', undefined, start));
    cluster.create(job('running', 60, null));
    ttl.start();
    clock.advance(29_999);
    assert.deepEqual(jobs(cluster), ['keep', 'old', 'running']);
    clock.advance(1);
    assert.deepEqual(jobs(cluster), ['keep', 'running']);
    // It finishes now: gone a minute later.
    const running = cluster.get('Job', 'default', 'running')!;
    cluster.update({ ...running, status: { conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: rfc3339(clock.now()) }] } } as KubeObject);
    clock.advance(59_000);
    assert.deepEqual(jobs(cluster), ['keep', 'running']);
    clock.advance(1_000);
    assert.deepEqual(jobs(cluster), ['keep']);
    ttl.stop();
  });

  it('with the workload controllers running, the Job\'s pods go with it', async () => {
    const clock = new FakeClock(start);
    const cluster = new MemoryCluster({ clock, volumeController: false, resourceClaimController: false, workloadControllers: true });
    const ttl = new TtlAfterFinished(cluster, clock);
    ttl.start();
    const j = cluster.create({ ...job('batch', 5, null), spec: { ...(job('batch', 5, null) as { spec: object }).spec, completions: 2, parallelism: 2 } } as KubeObject);
    await cluster.controllers.settled();
    assert.equal(cluster.list('Pod').length, 2);
    const finished = cluster.get('Job', 'default', 'batch') ?? j;
    cluster.update({ ...finished, status: { conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: rfc3339(clock.now()) }] } } as KubeObject);
    clock.advance(5_000);
    await cluster.controllers.settled();
    assert.deepEqual(jobs(cluster), []);
    assert.equal(cluster.list('Pod').length, 0);
    ttl.stop();
  });

  it('a TTL raised before it expires moves the deletion', () => {
    const { clock, cluster, ttl } = setup();
    const j = cluster.create(job('j', 10, start));
    ttl.start();
    cluster.update({ ...j, spec: { ...(j as { spec: object }).spec, ttlSecondsAfterFinished: 100 } } as KubeObject);
    clock.advance(50_000);
    assert.deepEqual(jobs(cluster), ['j']);
    clock.advance(50_000);
    assert.deepEqual(jobs(cluster), []);
  });
});
