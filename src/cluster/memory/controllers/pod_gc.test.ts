import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Node, Pod, PodCondition } from '../../../api/types.js';
import { FakeClock } from '../../../util/clock.js';
import { MemoryCluster } from '../store.js';
import { PodGC, podGCPeriodMs } from './pod_gc.js';

const node = (name: string): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { allocatable: { cpu: '4', pods: '10' } } });
const pod = (name: string, extra: { nodeName?: string; phase?: string; reason?: string; finalizers?: string[] } = {}): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', ...(extra.finalizers ? { finalizers: extra.finalizers } : {}) },
  spec: { ...(extra.nodeName ? { nodeName: extra.nodeName } : {}), containers: [{ name: 'c', image: 'x' }] },
  ...(extra.phase ? { status: { phase: extra.phase, ...(extra.reason ? { reason: extra.reason } : {}) } } : {}),
});

function setup(threshold?: number) {
  const clock = new FakeClock(0);
  const cluster = new MemoryCluster({ clock, volumeController: false, resourceClaimController: false });
  const seen: string[] = [];
  cluster.subscribe(({ event }) => {
    if (event.kind !== 'Pod' || event.type === 'ADDED') return;
    const p = event.object as Pod;
    const cond = p.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    seen.push(`${event.type} ${p.metadata.name} ${p.status?.phase ?? ''}${cond ? ` ${cond.reason}: ${cond.message}` : ''} @${clock.now() / 1000}`);
  });
  const gc = new PodGC(cluster, clock, threshold);
  return { clock, cluster, seen, gc };
}

const names = (c: MemoryCluster) => c.list<Pod>('Pod').map((p) => p.metadata.name).sort();
/** Moves the clock a second at a time (a jump over several periods would run the collector once, as a Go ticker does). */
const tick = (clock: FakeClock, ms: number) => {
  for (let left = ms; left > 0; left -= 1_000) clock.advance(Math.min(1_000, left));
};

describe('PodGC (kube-controller-manager pod garbage collector)', () => {
  it("a deleted node's pods are marked Failed (DisruptionTarget DeletionByPodGC) and deleted after the 40-s quarantine, at a 20-s pass", () => {
    const { clock, cluster, seen, gc } = setup();
    cluster.create(node('a'));
    cluster.create(node('b'));
    cluster.create(pod('on-a', { nodeName: 'a' }));
    cluster.create(pod('on-b', { nodeName: 'b' }));
    cluster.create(pod('pending'));
    gc.start();
    tick(clock, 5_000);
    cluster.remove('Node', '', 'a');
    tick(clock, podGCPeriodMs - 5_000 + 40_000 - 1_000);
    assert.deepEqual(names(cluster), ['on-a', 'on-b', 'pending'], 'quarantined from the pass at 20 s until 60 s');
    tick(clock, 1_000);
    assert.deepEqual(names(cluster), ['on-b', 'pending']);
    assert.deepEqual(seen, ['MODIFIED on-a Failed DeletionByPodGC: PodGC: node no longer exists @60', 'DELETED on-a Failed DeletionByPodGC: PodGC: node no longer exists @60']);
    gc.stop();
  });

  it('a node back within the quarantine keeps its pods', () => {
    const { clock, cluster, gc } = setup();
    cluster.create(node('a'));
    cluster.create(pod('on-a', { nodeName: 'a' }));
    gc.start();
    tick(clock, 1_000);
    cluster.remove('Node', '', 'a');
    tick(clock, podGCPeriodMs);
    cluster.create(node('a'));
    tick(clock, 5 * podGCPeriodMs);
    assert.deepEqual(names(cluster), ['on-a']);
  });

  it('past the threshold, terminated pods go, evicted ones first, then the oldest; a finished pod keeps its phase', () => {
    const { clock, cluster, seen, gc } = setup(2);
    cluster.create(node('a'));
    cluster.create(pod('old-done', { nodeName: 'a', phase: 'Succeeded' }));
    clock.advance(1_000);
    cluster.create(pod('evicted', { nodeName: 'a', phase: 'Failed', reason: 'Evicted' }));
    clock.advance(1_000);
    cluster.create(pod('new-done', { nodeName: 'a', phase: 'Succeeded' }));
    cluster.create(pod('new-failed', { nodeName: 'a', phase: 'Failed' }));
    cluster.create(pod('running', { nodeName: 'a', phase: 'Running' }));
    gc.collect();
    assert.deepEqual(names(cluster), ['new-done', 'new-failed', 'running']);
    assert.deepEqual(seen, ['DELETED evicted Failed @2', 'DELETED old-done Succeeded @2']);
  });

  it('a pod deleted before it was scheduled, held by a finalizer, is marked Failed; a bound one of a gone node is marked for deletion', () => {
    const { clock, cluster, gc } = setup();
    const held = cluster.create(pod('held', { finalizers: ['example.com/hold'] }));
    cluster.update({ ...held, metadata: { ...held.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } });
    const onGone = pod('held-on-gone', { nodeName: 'gone', finalizers: ['example.com/hold'] });
    cluster.create({ ...onGone, metadata: { ...onGone.metadata, generation: 2 } });
    gc.start();
    tick(clock, 20_000);
    const marked = cluster.get<Pod>('Pod', 'default', 'held');
    assert.equal(marked?.status?.phase, 'Failed');
    assert.equal(cluster.get<Pod>('Pod', 'default', 'held-on-gone')?.status?.phase, undefined, 'in quarantine');
    tick(clock, 40_000);
    const bound = cluster.get<Pod>('Pod', 'default', 'held-on-gone');
    assert.equal(bound?.status?.phase, 'Failed');
    assert.ok(bound?.metadata.deletionTimestamp, 'marked for deletion, kept for its finalizer');
    assert.equal(bound?.metadata.deletionGracePeriodSeconds, 0);
    assert.equal((bound?.status?.conditions?.find((c) => c.type === 'DisruptionTarget') as PodCondition | undefined)?.observedGeneration, 2, 'the pod generation, as upstream sets it');
  });
});
