import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { makeNode } from '../../testing/builders.js';
import { balancedResourceScorer } from './balanced_allocation.js';
import { ResourceAllocationScorer, type ResourceScorer } from './resource_allocation.js';
import { reqPod } from './test_helpers.js';

const resources = [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }];

/** A scorer counting how often the strategy really ran (a memo hit does not run it). */
function countingScorer(): { scorer: ResourceAllocationScorer; runs: () => number } {
  let runs = 0;
  const strategy: ResourceScorer = (requested, allocatable, podRequests) => {
    runs++;
    return balancedResourceScorer(requested, allocatable, podRequests);
  };
  return { scorer: new ResourceAllocationScorer('test', resources, strategy, true), runs: () => runs };
}

/** Scores `nodes` in windows of `window` from the front, as consecutive cycles walk them. */
function scoreInWindows(scorer: ResourceAllocationScorer, nodes: readonly NodeInfo[], window: number, podRequests: Float64Array): number[] {
  const out: number[] = [];
  for (let from = 0; from < nodes.length; from += window) {
    const part = nodes.slice(from, from + window);
    const scores = new Float64Array(part.length).fill(-1);
    assert.equal(scorer.scoreNodesInto(part, podRequests, scores), null);
    for (const s of scores) out.push(s);
  }
  return out;
}

const cases = [
  // 20 cycles of 1,000 nodes: each node comes back after 19,000 others, past a fixed 8,192-entry memo.
  { name: 'large cluster, 5% of the nodes per cycle', nodes: 20_000, window: 1_000, inSnapshot: true },
  { name: 'small cluster, every node per cycle', nodes: 300, window: 300, inSnapshot: true },
  // Copies no snapshot placed are keyed by their generation instead.
  { name: 'nodes outside a snapshot', nodes: 300, window: 100, inSnapshot: false },
];

for (const c of cases) {
  test(`score memo: ${c.name}: a second round reuses every score, and a changed node is scored again`, () => {
    const nodes: NodeInfo[] = [];
    for (let i = 0; i < c.nodes; i++) {
      nodes.push(new NodeInfo(makeNode(`n${i}`, { allocatable: { cpu: `${2 + (i % 7)}`, memory: `${4 + (i % 5)}Gi`, pods: '110' } })));
    }
    // As a snapshot lists them: each node knows its place in the list.
    if (c.inSnapshot) NodeInfo.packInListOrder(nodes);
    const { scorer, runs } = countingScorer();
    const podRequests = scorer.podRequests(new PodInfo(reqPod({}, { cpu: '500m', memory: '1Gi' })));
    const first = scoreInWindows(scorer, nodes, c.window, podRequests);
    assert.equal(runs(), c.nodes);
    assert.deepEqual(scoreInWindows(scorer, nodes, c.window, podRequests), first);
    assert.equal(runs(), c.nodes, 'every unchanged node was scored from the memo');
    // A pod added to node 0 changes its generation: it alone is scored again, to its new score.
    nodes[0]!.addPod(new PodInfo(reqPod({ node: 'n0' }, { cpu: '1', memory: '1Gi' })));
    const third = scoreInWindows(scorer, nodes, c.window, podRequests);
    assert.equal(runs(), c.nodes + 1);
    const fresh = new Float64Array(1);
    assert.equal(countingScorer().scorer.scoreNodesInto([nodes[0]!], podRequests, fresh), null);
    assert.equal(third[0], fresh[0]);
    assert.deepEqual(third.slice(1), first.slice(1));
  });
}

test('score memo: other pod requests never take a score memoized for the first ones', () => {
  const nodes = Array.from({ length: 200 }, (_, i) => new NodeInfo(makeNode(`n${i}`, { allocatable: { cpu: `${2 + (i % 7)}`, memory: `${4 + (i % 5)}Gi`, pods: '110' } })));
  NodeInfo.packInListOrder(nodes);
  const { scorer, runs } = countingScorer();
  const small = scorer.podRequests(new PodInfo(reqPod({}, { cpu: '500m', memory: '1Gi' })));
  const large = scorer.podRequests(new PodInfo(reqPod({}, { cpu: '1500m', memory: '1Gi' })));
  const first = scoreInWindows(scorer, nodes, 50, small);
  const other = scoreInWindows(scorer, nodes, 50, large);
  assert.equal(runs(), 400);
  assert.notDeepEqual(other, first, 'the requests change the scores');
  assert.deepEqual(other, scoreInWindows(countingScorer().scorer, nodes, 50, large));
  // Back to the first requests: scored again (a new epoch), to the same scores.
  assert.deepEqual(scoreInWindows(scorer, nodes, 50, small), first);
  assert.equal(runs(), 600);
});
