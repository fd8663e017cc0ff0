// The index of the scalar resources each listed node names, and Filter's verdicts with it: the
// same as looking both amounts up on every node, as nodes change, move and get copied.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, ResourceList } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { LeastAllocated } from './args.js';
import { Fit, fitsRequest } from './fit.js';
import { ScalarIndex } from './scalar_index.js';
import { resourcePod } from './test_helpers.js';

const ext = (i: number): string => `foo.com/bar-${i}`;
const node = (name: string, extra: ResourceList = {}): Node => {
  const list: ResourceList = { pods: '110', cpu: '4', memory: '32Gi', ...extra };
  return { apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { capacity: list, allocatable: list } };
};

describe('ScalarIndex', () => {
  it('lists each listed node under the names of its allocatable and requested amounts, until the node changes', () => {
    const nodes = [new NodeInfo(node('a', { [ext(0)]: '1' })), new NodeInfo(node('b')), new NodeInfo(node('c', { [ext(2)]: '2' }))];
    NodeInfo.packInListOrder(nodes);
    const index = new ScalarIndex();
    for (const ni of nodes) {
      assert.equal(index.fresh(ni), false);
      assert.equal(index.refresh(ni), true);
      assert.equal(index.fresh(ni), true);
    }
    assert.deepEqual([...(index.positions(ext(0)) ?? [])], [0]);
    assert.deepEqual([...(index.positions(ext(2)) ?? [])], [2]);
    nodes[1]!.addPod(new PodInfo(resourcePod({ scalar: { [ext(0)]: 1 } })));
    assert.equal(index.fresh(nodes[1]!), false, 'a new generation');
    index.refresh(nodes[1]!);
    assert.deepEqual([...(index.positions(ext(0)) ?? [])].sort(), [0, 1]);
    nodes[2]!.setNode(node('c'));
    index.refresh(nodes[2]!);
    assert.equal(index.positions(ext(2)).size, 0, "no node names it any more");
    const copy = nodes[0]!.clone();
    assert.equal(index.fresh(copy), false, 'a copy outside the list');
    assert.equal(index.refresh(copy), false);
  });
});

describe('NodeResourcesFit Filter with the scalar index', () => {
  const args = { ignoredResources: [], ignoredResourceGroups: [], scoringStrategy: { type: LeastAllocated, resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }] } };

  it('gives every node the verdict of both lookups, over walks while nodes change and move', () => {
    const plugin = new Fit(args);
    const n = 12;
    const infos = Array.from({ length: n }, (_, i) => new NodeInfo(node(`n${i}`, i % 3 === 0 ? { [ext(i)]: '1' } : {})));
    let list = infos.slice();
    NodeInfo.packInListOrder(list);
    for (let round = 0; round < 3 * n; round++) {
      const want = round % n;
      const pod = new PodInfo(resourcePod({ milliCPU: 100, scalar: { [ext(want)]: 1 } }));
      const state = new CycleState();
      plugin.preFilter(state, pod);
      let fits = 0;
      for (const ni of list) {
        const s = plugin.filter(state, pod, ni);
        const expected = fitsRequest(pod.requests.resource, ni, plugin.ignoredResources, plugin.ignoredResourceGroups);
        assert.equal(s === null, expected.length === 0, `round ${round} ${ni.name}`);
        if (s !== null) {
          assert.deepEqual([...s.reasons], expected.map((r) => r.reason));
          assert.equal(s.code === 3, expected.some((r) => r.unresolvable));
        } else {
          fits++;
          // The pod lands on the first node that fits: a new generation there.
          if (fits === 1) ni.addPod(pod);
        }
        // A copy (preemption's) gets the verdict of both lookups too, without the index.
        const copy = ni.clone();
        assert.equal(plugin.filter(state, pod, copy) === null, fitsRequest(pod.requests.resource, copy).length === 0);
      }
      // Every few rounds a node gains the resource, and the list is rebuilt in another order.
      if (round % 5 === 4) {
        const changed = list[round % list.length]!;
        changed.setNode(node(changed.name, { [ext((round + 1) % n)]: '1' }));
        list = list.slice().reverse();
        NodeInfo.packInListOrder(list);
      }
    }
  });
});
