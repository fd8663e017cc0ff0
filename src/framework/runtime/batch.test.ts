// OpportunisticBatch (runtime/batch_test.go): when a stored ranking gives a hint, every reason it
// is flushed for, and the rescoring of the node last chosen.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CycleState } from '../cycle_state.js';
import type { BatchFlushReason, MetricsRecorder } from '../metrics_recorder.js';
import { NodeInfo } from '../node_info.js';
import { PodInfo } from '../pod_info.js';
import { Status } from '../status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { OpportunisticBatch, type BatchHandle } from './batch.js';
import { SortedScoredNodes, type ScoredCandidate } from './sorted_scored_nodes.js';

interface Fake {
  batch: OpportunisticBatch;
  now: number;
  flushes: BatchFlushReason[];
  attempts: string[];
  /** The Filter verdict per node name (absent: fits). */
  filter: Map<string, Status>;
  /** The Score answer per node name for rescoring. */
  fresh: Map<string, number>;
  nodes: Map<string, NodeInfo>;
}

function fake(names: string[]): Fake {
  const f: Fake = { batch: null!, now: 0, flushes: [], attempts: [], filter: new Map(), fresh: new Map(), nodes: new Map() };
  for (const n of names) f.nodes.set(n, new NodeInfo(makeNode(n)));
  const metrics = {
    observeBatchAttempt: (_p: string, r: string) => void f.attempts.push(r),
    observeBatchCacheFlush: (_p: string, r: BatchFlushReason) => void f.flushes.push(r),
    observeBatchRescore: () => {},
    observeGetNodeHint: () => {},
    observeStoreScheduleResults: () => {},
  } as unknown as MetricsRecorder;
  const handle: BatchHandle = {
    profileName: 'default-scheduler',
    nodeInfo: (n) => f.nodes.get(n),
    runFilterPlugins: (_s, _p, ni) => f.filter.get(ni.name) ?? null,
    runPreScorePlugins: () => null,
    runRawScorePlugins: (_s, _p, ni) => candidate(ni.name, f.fresh.get(ni.name) ?? 0),
    // One plugin, no NormalizeScore, weight 1: the total is the answer.
    normalizeScores: (_s, _p, cs) => {
      for (const c of cs) c.totalScore = c.rawValues[0]!;
      return null;
    },
    now: () => f.now,
    monotonicSeconds: () => 0,
    metrics,
  };
  f.batch = new OpportunisticBatch(handle);
  return f;
}

const candidate = (name: string, score: number): ScoredCandidate => ({ name, rawNames: ['P'], rawValues: Float64Array.of(score), totalScore: score });
const ranking = (...c: [string, number][]) => new SortedScoredNodes(c.map(([n, s]) => candidate(n, s)), true);
const pod = (nominated = '') => {
  const p = makePod('p');
  return new PodInfo(nominated ? { ...p, status: { nominatedNodeName: nominated } } : p);
};

/** A full cycle (cycle 1) chose `a`, leaving b (50), c (40), d (30). */
function afterFullCycle(): Fake {
  const f = fake(['a', 'b', 'c', 'd']);
  f.filter.set('a', Status.unschedulable('full'));
  f.batch.storeScheduleResults('sig', '', 'a', ranking(['b', 50], ['c', 40], ['d', 30]), 3, 1);
  return f;
}

describe('OpportunisticBatch', () => {
  it('gives the next node of the ranking to the next pod with the signature, and counts the hint used', () => {
    const f = afterFullCycle();
    assert.equal(f.batch.getNodeHint(pod(), 'sig', new CycleState(), 2), 'b');
    f.batch.storeScheduleResults('sig', 'b', 'b', null, 0, 2);
    assert.equal(f.batch.getNodeHint(pod(), 'sig', new CycleState(), 3), 'c');
    assert.deepEqual(f.attempts, ['hint_used']);
    assert.equal(f.batch.batchedPods, 1);
    assert.deepEqual(f.flushes, []);
  });

  it('rescores the node last chosen when it still fits, so it competes with the stored nodes', () => {
    const f = afterFullCycle();
    f.filter.delete('a');
    f.fresh.set('a', 45);
    assert.equal(f.batch.getNodeHint(pod(), 'sig', new CycleState(), 2), 'b');
    f.batch.storeScheduleResults('sig', 'b', 'b', null, 0, 2);
    // b is now the last chosen; it still fits and rescores 10: a (45) comes next.
    f.fresh.set('b', 10);
    assert.equal(f.batch.getNodeHint(pod(), 'sig', new CycleState(), 3), 'a');
  });

  const flushCases: { name: string; change: (f: Fake) => void; pod?: PodInfo; signature?: string | null; cycle?: number; want: BatchFlushReason | null }[] = [
    { name: 'another cycle came in between', change: () => {}, cycle: 3, want: 'pod_skipped' },
    { name: 'the pod is nominated', change: () => {}, pod: pod('c'), want: 'pod_nominated' },
    { name: 'the signature differs', change: () => {}, signature: 'other', want: 'pod_incompatible' },
    { name: 'the pod has no signature', change: () => {}, signature: null, want: 'pod_incompatible' },
    { name: 'the ranking is older than 500 ms', change: (f) => (f.now = 501), want: 'expired' },
    { name: 'the ranking is exactly 500 ms old (still used)', change: (f) => (f.now = 500), want: null },
    { name: 'the node last chosen is gone', change: (f) => f.nodes.delete('a'), want: 'node_missing' },
    { name: 'a stored node is gone while the last chosen one is rescored', change: (f) => (f.filter.delete('a'), f.nodes.delete('c')), want: 'node_missing' },
    { name: 'filtering the node last chosen failed', change: (f) => f.filter.set('a', Status.error('boom')), want: 'filter_error' },
  ];
  for (const c of flushCases) {
    it(`${c.want === null ? 'keeps' : 'flushes'} the ranking when ${c.name}`, () => {
      const f = afterFullCycle();
      c.change(f);
      const hint = f.batch.getNodeHint(c.pod ?? pod(), c.signature === undefined ? 'sig' : c.signature, new CycleState(), c.cycle ?? 2);
      assert.equal(hint, c.want === null ? 'b' : '');
      assert.deepEqual(f.flushes, c.want === null ? [] : [c.want]);
      assert.deepEqual(f.attempts, c.want === null ? [] : ['no_hint']);
    });
  }

  it('stores nothing for an unsigned pod or a single feasible node, and counts a hint not taken', () => {
    const f = afterFullCycle();
    f.batch.storeScheduleResults(null, '', 'a', null, 3, 2);
    f.batch.storeScheduleResults('sig', '', 'a', null, 0, 3);
    f.batch.storeScheduleResults('sig', 'b', 'c', ranking(['d', 1]), 1, 4);
    assert.deepEqual(f.flushes, ['pod_not_batchable', 'empty_list']);
    assert.deepEqual(f.attempts, ['hint_not_used']);
    // The last store kept d for cycle 5.
    f.filter.set('c', Status.unschedulable('full'));
    assert.equal(f.batch.getNodeHint(pod(), 'sig', new CycleState(), 5), 'd');
  });
});

describe('SortedScoredNodes', () => {
  it('pops by total, then by name when asked; remove takes a node out of the middle', () => {
    const byName = ranking(['d', 5], ['b', 9], ['a', 5], ['c', 9], ['e', 1]);
    byName.remove('c');
    const order: string[] = [];
    while (byName.length > 0) order.push(byName.pop().name);
    assert.deepEqual(order, ['b', 'a', 'd', 'e']);
  });

  it('without names, equal totals come out in Go container/heap order', () => {
    // heap.Init over [x1 x2 x3 x4] with equal totals moves nothing; each Pop swaps the last to the top.
    const h = new SortedScoredNodes(['x1', 'x2', 'x3', 'x4'].map((n) => candidate(n, 7)), false);
    const order: string[] = [];
    while (h.length > 0) order.push(h.pop().name);
    assert.deepEqual(order, ['x1', 'x4', 'x3', 'x2']);
  });
});
