// capacity: how many more copies of a pod fit and why the next does not; how many nodes of a
// template make every pending pod fit.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfiguration } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import type { Pod } from '../../api/types.js';
import { countFits, nodesNeeded, removableNodes } from './capacity.js';
import { parseScenario } from '../scenario/scenario.js';

const registry = inTreeRegistry();
const opts = { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins };
const node = (name: string, cpu: string, extra = '') => `
- metadata: { name: ${name}, labels: { kubernetes.io/hostname: ${name} } }
  status: { allocatable: { cpu: "${cpu}", memory: 8Gi, pods: "110" } }${extra}`;
const pod = (name: string, cpu: string, extra = '') => `
- metadata: { name: ${name} }
  spec: { ${extra}containers: [{ name: c, image: x, resources: { requests: { cpu: "${cpu}" } } }] }`;
const copyOf = (cpu: string, extra: Partial<Pod['spec']> = {}): Pod =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'worker', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu } } }], ...extra } });

describe('capacity: copies that fit', () => {
  const sc = () => parseScenario(`
nodes:${node('a', '4')}${node('b', '4')}${node('c', '4', '\n  spec: { taints: [{ key: gpu, value: "y", effect: NoSchedule }] }')}
pods:
- metadata: { name: load }
  spec: { nodeName: a, containers: [{ name: c, image: x, resources: { requests: { cpu: "3" } } }] }
pending:${pod('first', '1')}
`, 'cap.yaml');

  it('counts copies after the pending pods and names what stops the next one, per node', async () => {
    const r = await countFits(sc(), copyOf('1'), opts);
    // a: 4 - 3 (load) = 1 free; b: 4 free; first takes one of them; 5 - 1 = 4 copies.
    assert.equal(r.fits, 4);
    assert.deepEqual(r.pending, { scheduled: 1, unschedulable: 0 });
    assert.equal(r.placements.reduce((n, p) => n + p.copies, 0), 4);
    assert.match(r.stoppedBy!.message, /^0\/3 nodes are available: 1 node\(s\) had untolerated taint\(s\), 2 Insufficient cpu\./);
    assert.deepEqual(r.stoppedBy!.nodes.map((n) => [n.node, n.plugin, n.reasons]), [
      ['a', 'NodeResourcesFit', ['Insufficient cpu']],
      ['b', 'NodeResourcesFit', ['Insufficient cpu']],
      ['c', 'TaintToleration', ['node(s) had untolerated taint(s)']],
    ]);
  });

  it('stops at max', async () => {
    const r = await countFits(sc(), copyOf('1'), { ...opts, max: 2 });
    assert.equal(r.fits, 2);
    assert.equal(r.stoppedBy, null);
  });

  it('copies never preempt, whatever their priority', async () => {
    const r = await countFits(sc(), copyOf('1', { priority: 1_000_000 }), opts);
    assert.equal(r.fits, 4, 'the 3-cpu load pod is not evicted to make room');
  });
});

describe('capacity: nodes to add', () => {
  it('finds the fewest copies of a node that let every pending pod fit', async () => {
    const sc = parseScenario(`
nodes:${node('n1', '2')}
pending:${pod('p1', '1')}${pod('p2', '1')}${pod('p3', '1')}${pod('p4', '1')}${pod('p5', '1')}
`, 'grow.yaml');
    const r = await nodesNeeded(sc, sc.nodes[0]!, opts);
    assert.equal(r.nodes, 2, 'n1 holds two; the other three need two more 2-cpu nodes');
    assert.equal(r.unschedulableWithout, 3);
    // The packing guess (three 1-cpu pods on 2-cpu nodes: two) is checked, then one fewer.
    assert.deepEqual(r.probes.map((p) => [p.nodes, p.unschedulable]), [[0, 3], [2, 0], [1, 1]]);
  });

  it('a guess from requests alone that is too low is corrected by the simulations', async () => {
    // One per node (required anti-affinity on the hostname): requests alone would pack three on one node.
    const apart = 'affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: w } }, topologyKey: kubernetes.io/hostname }] } }, ';
    const sc = parseScenario(`
nodes:${node('n1', '4')}
pending:${['w1', 'w2', 'w3', 'w4'].map((n) => pod(n, '1', apart).replace(`name: ${n} }`, `name: ${n}, labels: { app: w } }`)).join('')}
`, 'apart.yaml');
    const r = await nodesNeeded(sc, sc.nodes[0]!, opts);
    assert.equal(r.nodes, 3);
    assert.deepEqual(r.probes.map((p) => [p.nodes, p.unschedulable]), [[0, 3], [1, 2], [2, 1], [3, 0]]);
  });

  it('says when nodes like the template do not help, and which pods are left out', async () => {
    const sc = parseScenario(`
nodes:${node('n1', '2')}
pending:${pod('fits', '1')}${pod('picky', '1', 'nodeSelector: { disk: ssd }, ')}
`, 'picky.yaml');
    const r = await nodesNeeded(sc, sc.nodes[0]!, opts);
    assert.equal(r.nodes, null);
    assert.deepEqual(r.leftOut.map((p) => p.pod), ['default/picky']);
    assert.match(r.leftOut[0]!.message, /didn't match Pod's node affinity\/selector/);
    assert.ok(r.probes.length <= 3, 'an added node left empty ends the search early');
  });

  it("counts the template's DaemonSet pods on every added node, as their controller runs one there", async () => {
    const daemon = (nodeName: string) => `
- metadata: { name: agent-${nodeName}, ownerReferences: [{ apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: u1, controller: true }] }
  spec:
    nodeName: ${nodeName}
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: metadata.name, operator: In, values: [${nodeName}] }] }] } } }
    containers: [{ name: c, image: x, resources: { requests: { cpu: 500m } } }]`;
    const sc = parseScenario(`
nodes:${node('n1', '2')}
pods:${daemon('n1')}
pending:${pod('p1', '1')}${pod('p2', '1')}${pod('p3', '1')}${pod('p4', '1')}
`, 'daemons.yaml');
    const r = await nodesNeeded(sc, sc.nodes[0]!, opts);
    // n1 holds one beside its agent; every added node too (two without the agent): three, not two.
    assert.equal(r.nodes, 3);
    assert.deepEqual(r.probes.map((p) => [p.nodes, p.unschedulable]), [[0, 3], [3, 0], [2, 1]], "the guess counts the agent too");
  });

  describe("a template's DaemonSet pods, from the scenario's DaemonSets", () => {
    const tolerant = 'tolerations: [{ key: dedicated, operator: Exists, effect: NoSchedule }], ';
    const daemonSet = (name: string, extra = '') => `
- apiVersion: apps/v1
  kind: DaemonSet
  metadata: { name: ${name}, namespace: default, uid: ds-${name} }
  spec:
    selector: { matchLabels: { app: ${name} } }
    template:
      metadata: { labels: { app: ${name} } }
      spec: { ${extra}containers: [{ name: c, image: x, resources: { requests: { cpu: 500m } } }] }`;
    // agent runs on the template (it tolerates its taint); logger does not tolerate it, gpu selects
    // other nodes, pinned selects the template by hostname, which its copies do not have.
    const objects = [
      daemonSet('agent', tolerant), daemonSet('logger'), daemonSet('gpu', `${tolerant}nodeSelector: { gpu: "y" }, `),
      daemonSet('pinned', `${tolerant}nodeSelector: { kubernetes.io/hostname: big }, `),
    ].join('');
    const scenario = (controllers: boolean) => parseScenario(`
controllers: ${controllers}
nodes:${node('n1', '2')}
pending:${['p1', 'p2', 'p3', 'p4'].map((n) => pod(n, '1', tolerant)).join('')}
objects:${objects}
`, 'template.yaml');
    const template = parseScenario(`nodes:${node('big', '2', '\n  spec: { taints: [{ key: dedicated, value: x, effect: NoSchedule }] }')}\n`, 'big.yaml').nodes[0]!;

    it('a node from a template file gets the pod of each DaemonSet that would run on it', async () => {
      const r = await nodesNeeded(scenario(false), template, opts);
      // n1 holds two (no daemon pods in this snapshot); each added node holds one beside agent's 500m.
      assert.equal(r.nodes, 2);
      assert.deepEqual(r.probes.map((p) => [p.nodes, p.unschedulable]), [[0, 2], [2, 0], [1, 1]], 'the guess counts agent, not logger, gpu nor pinned');
    });

    it('with the workload controllers on, their DaemonSet pods are counted and not added twice', async () => {
      const r = await nodesNeeded(scenario(true), template, opts);
      // The controller runs agent on n1 too (n1 holds one), and on every added node.
      assert.equal(r.nodes, 3);
      assert.deepEqual(r.probes.map((p) => [p.nodes, p.unschedulable]), [[0, 3], [3, 0], [2, 1]]);
    });

    it("a cluster node as template: its DaemonSet's pod is made from the DaemonSet, its other daemon pods copied", async () => {
      const running = (name: string, owner: string, cpu: string) => `
- metadata: { name: ${name}, ownerReferences: [{ apiVersion: apps/v1, kind: DaemonSet, name: ${owner}, uid: ds-${owner}, controller: true }] }
  spec: { nodeName: n1, ${tolerant}containers: [{ name: c, image: x, resources: { requests: { cpu: ${cpu} } } }] }`;
      const sc = parseScenario(`
nodes:${node('n1', '3', '\n  spec: { taints: [{ key: dedicated, value: x, effect: NoSchedule }] }')}
pods:${running('agent-old', 'agent', '100m')}${running('orphan-n1', 'orphan', '400m')}
pending:${Array.from({ length: 15 }, (_, i) => pod(`p${i}`, '500m', tolerant)).join('')}
objects:${objects}
`, 'like.yaml');
      const r = await nodesNeeded(sc, sc.nodes[0]!, opts);
      // n1 (2.5 free) holds five, ten are left. An added node gets agent as its DaemonSet makes it now
      // (500m) and the orphan's copy (400m): 2.1 free, four each, three nodes. Copying the old agent
      // pod (100m) would make it two nodes; counting agent twice, four.
      assert.equal(r.unschedulableWithout, 10);
      assert.equal(r.nodes, 3);
    });
  });

  it('needs none when everything fits', async () => {
    const sc = parseScenario(`nodes:${node('n1', '2')}\npending:${pod('p', '1')}\n`, 'fits.yaml');
    assert.equal((await nodesNeeded(sc, sc.nodes[0]!, opts)).nodes, 0);
  });
});

describe('capacity: nodes that could be removed', () => {
  it('a node is removable when its pods fit elsewhere; each node is tried alone on the original cluster', async () => {
    const sc = parseScenario(`
nodes:${node('a', '4')}${node('b', '4')}${node('c', '4')}
pods:
- metadata: { name: a1 }
  spec: { nodeName: a, containers: [{ name: c, image: x, resources: { requests: { cpu: "3" } } }] }
- metadata: { name: b1 }
  spec: { nodeName: b, containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] }
- metadata: { name: c1 }
  spec: { nodeName: c, containers: [{ name: c, image: x, resources: { requests: { cpu: "3" } } }] }
pending:${pod('too-big', '5')}
`, 'shrink.yaml');
    const r = await removableNodes(sc, opts);
    assert.deepEqual(r.map((x) => [x.node, x.removable]), [['a', true], ['b', true], ['c', true]]);
    assert.deepEqual(r[0]!.pods, [{ pod: 'default/a1', node: 'b', message: '' }], 'a1 (3 cpu) fits only on b');
    const twoBig = await removableNodes(parseScenario(`
nodes:${node('a', '4')}${node('b', '4')}
pods:
- metadata: { name: a1 }
  spec: { nodeName: a, containers: [{ name: c, image: x, resources: { requests: { cpu: "3" } } }] }
- metadata: { name: b1 }
  spec: { nodeName: b, containers: [{ name: c, image: x, resources: { requests: { cpu: "3" } } }] }
`, 'full.yaml'), opts);
    assert.deepEqual(twoBig.map((x) => x.removable), [false, false]);
    assert.match(twoBig[0]!.pods[0]!.message, /^0\/2 nodes are available: 1 Insufficient cpu, 1 node\(s\) were unschedulable\./);
  });

  it('a pod that tolerates the cordon is still not put back on the node being removed', async () => {
    // q tolerates every taint, the cordon's too; b has no room for it, so a cannot go.
    const sc = parseScenario(`
nodes:${node('a', '2')}${node('b', '2')}
pods:
- metadata: { name: q }
  spec: { nodeName: a, tolerations: [{ operator: Exists }], containers: [{ name: c, image: x, resources: { requests: { cpu: 1500m } } }] }
- metadata: { name: r }
  spec: { nodeName: b, containers: [{ name: c, image: x, resources: { requests: { cpu: 1500m } } }] }
`, 'tolerant.yaml');
    for (const placements of [false, true]) {
      const [a] = await removableNodes(sc, { ...opts, nodes: ['a'], placements });
      assert.equal(a!.removable, false, `placements: ${placements}`);
      assert.equal(a!.pods[0]!.node, '');
      assert.match(a!.pods[0]!.message, /^0\/2 nodes are available: 1 Insufficient cpu, 1 node\(s\) didn't match Pod's node affinity\/selector\./);
    }
  });
});
