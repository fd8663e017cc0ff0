// capacity's gang questions (GenericWorkload on): how many more groups fit all or nothing, what
// stops the next, the nodes to add for one group, and the extended resources left on the nodes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { admitPod } from '../../cluster/memory/admission.js';
import { defaultConfiguration } from '../../config/index.js';
import { FeatureGates } from '../../config/feature_gates.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import type { PodGroup } from '../../api/scheduling.js';
import type { Pod } from '../../api/types.js';
import { BadInputError } from '../../util/bad_input.js';
import { parseScenario } from '../scenario/scenario.js';
import { nodesNeeded, removableNodes } from './capacity.js';
import { checkGangTemplate, countGangFits, gangMemberKeys, podGroupGang, withGang, type GangTemplate } from './capacity_gangs.js';

const registry = inTreeRegistry();
const on = FeatureGates.parse(['GenericWorkload=true']);
const opts = { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, admitPod, featureGates: on };

/** `n` nodes of 8 GPUs and 64 cpu; `busy` GPUs already taken on the first node. */
function cluster(n: number, busy = 0) {
  const nodes = Array.from({ length: n }, (_, i) => `
- metadata: { name: gpu-${i} }
  status: { allocatable: { cpu: "64", memory: 256Gi, pods: "110", nvidia.com/gpu: "8" } }`).join('');
  const pods = busy === 0 ? '[]' : `
- metadata: { name: busy }
  spec: { nodeName: gpu-0, containers: [{ name: c, image: x, resources: { requests: { nvidia.com/gpu: "${busy}" }, limits: { nvidia.com/gpu: "${busy}" } } }] }`;
  return parseScenario(`nodes:${nodes}\npods: ${pods}\n`, 'gpus.yaml');
}

const worker = (gpus: number, name = 'worker'): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'w', image: 'x', resources: { requests: { cpu: '4', 'nvidia.com/gpu': String(gpus) }, limits: { 'nvidia.com/gpu': String(gpus) } } }] },
});

const gang = (minCount: number | null, gpus: number, members: number): GangTemplate => podGroupGang(
  { apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name: 'train', namespace: 'default' }, spec: { schedulingPolicy: minCount === null ? { basic: {} } : { gang: { minCount } } } },
  worker(gpus), members);

/** The members of a lone gang's PodGroup. */
const countOf = (g: GangTemplate): number => [...g.members.values()][0]!.count;

describe('capacity --gang', () => {
  const cases: { name: string; nodes: number; busy?: number; gang: GangTemplate; fits: number; stoppedBy: string | null; gpusFree: number }[] = [
    // 4 nodes x 8 GPUs: 2 groups of 4 x 4-GPU workers fill them exactly.
    { name: 'gangs that fill the cluster exactly', nodes: 4, gang: gang(4, 4, 4), fits: 2, stoppedBy: 'GangScheduling', gpusFree: 0 },
    // 6 GPUs taken on gpu-0: 3 whole 8-GPU nodes left, a gang of 2 fits once; the second has 1 node.
    { name: 'a gang stopped with one member short', nodes: 4, busy: 6, gang: gang(2, 8, 2), fits: 1, stoppedBy: 'NodeResourcesFit', gpusFree: 10 },
    // A gang needing more than the cluster holds never fits, and nothing is left taken.
    { name: 'a gang larger than the cluster', nodes: 2, gang: gang(3, 8, 3), fits: 0, stoppedBy: 'NodeResourcesFit', gpusFree: 16 },
    // --max stops the count.
    { name: 'a basic group counted to --max', nodes: 2, gang: gang(null, 1, 2), fits: 3, stoppedBy: null, gpusFree: 10 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await countGangFits(cluster(c.nodes, c.busy), c.gang, { ...opts, max: (c.gang.root as PodGroup).spec.schedulingPolicy.basic ? 3 : undefined });
      assert.equal(r.fits, c.fits);
      assert.equal(r.placements.reduce((s, p) => s + p.members, 0), c.fits * countOf(c.gang));
      if (c.stoppedBy === null) assert.equal(r.stoppedBy, null);
      else {
        assert.notEqual(r.stoppedBy, null);
        assert.equal(r.stoppedBy!.outcome, 'Unschedulable');
        // The plugin that judged the group, or the one that rejected its first member.
        const sb = r.stoppedBy!;
        assert.ok(!('children' in sb) && (sb.stoppedBy?.plugin === c.stoppedBy || sb.firstRejected?.plugins.includes(c.stoppedBy)), JSON.stringify(sb));
      }
      const gpu = r.free.find((f) => f.resource === 'nvidia.com/gpu')!;
      assert.equal(gpu.free, c.gpusFree);
      assert.equal(gpu.allocatable, c.nodes * 8);
    });
  }

  it('explains the copy that stopped the count with upstream\'s message', async () => {
    const r = await countGangFits(cluster(2), gang(3, 8, 3), opts);
    // Two members were placed before the third found no node: the group's verdict, PodGroupPostFilter's answers appended.
    assert.deepEqual(r.stoppedBy?.stoppedBy, {
      plugin: '',
      message: 'pod group is unschedulable, minCount (3) cannot be satisfied: 2 scheduled, 0 remaining, deallocation and deletion of ResourceClaims completed, pod group preemption: not eligible due to preemptionPolicy=Never.',
    });
    assert.ok(r.stoppedBy !== null && !('children' in r.stoppedBy));
    assert.deepEqual(r.stoppedBy.firstRejected, { pod: 'default/train-copy-0-2', plugins: ['NodeResourcesFit'], message: '0/2 nodes are available: 2 Insufficient nvidia.com/gpu.' });
    assert.deepEqual(r.free.map((f) => f.resource), ['cpu', 'memory', 'pods', 'nvidia.com/gpu']);
  });

  it('refuses the question with the gate off', async () => {
    await assert.rejects(countGangFits(cluster(1), gang(1, 1, 1), { ...opts, featureGates: FeatureGates.parse([]) }), /GenericWorkload=true/);
  });

  it('refuses fewer members than minCount and a priority unlike the group\'s', () => {
    assert.throws(() => checkGangTemplate(gang(4, 1, 3), 'g.yaml'), (e: Error) => e instanceof BadInputError && /^g.yaml: members: Invalid value: 3: fewer than the gang's minCount \(4\)/.test(e.message));
    const g = gang(1, 1, 1);
    g.members.get('train')!.pod.spec.priority = 5;
    assert.throws(() => checkGangTemplate(g, 'g.yaml'), /spec.priority: Invalid value: 5: must equal the PodGroup's priority \(0\)/);
  });
});

describe('capacity --gang --add-nodes-like', () => {
  it('adds the nodes one whole gang needs', async () => {
    // Two free 8-GPU nodes; a gang of 4 x 8-GPU workers needs two more.
    const g = gang(4, 8, 4);
    const sc = withGang(cluster(2), g);
    const r = await nodesNeeded(sc, sc.nodes[0]!, { ...opts, only: new Set(gangMemberKeys(g)) });
    assert.equal(r.nodes, 2);
    assert.equal(r.unschedulableWithout, 4);
  });

  it('asks only about the gang, not the pods that can never fit', async () => {
    const g = gang(2, 4, 2);
    const sc = withGang(cluster(1, 8), g);
    // A pending pod no node like these can hold stays left out: the gang's answer is still found.
    const huge = parseScenario(`pending: [{ metadata: { name: huge }, spec: { containers: [{ name: c, image: x, resources: { requests: { nvidia.com/gpu: "16" }, limits: { nvidia.com/gpu: "16" } } }] } }]`, 'h.yaml');
    const r = await nodesNeeded({ ...sc, pending: [...huge.pending, ...sc.pending] }, sc.nodes[0]!, { ...opts, only: new Set(gangMemberKeys(g)) });
    assert.equal(r.nodes, 1);
  });
});

describe('capacity --removable keeps gangs whole', () => {
  /** Three 2-cpu nodes; a gang of 2 x 2-cpu members placed on two of them; `third` the third node's cpu. */
  const scenario = (third: string) => parseScenario(`
objects:
- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: g }, spec: { schedulingPolicy: { gang: { minCount: 2 } } } }
nodes:
- { metadata: { name: n1 }, status: { allocatable: { cpu: "2", memory: 8Gi, pods: "10" } } }
- { metadata: { name: n2 }, status: { allocatable: { cpu: "2", memory: 8Gi, pods: "10" } } }
- { metadata: { name: n3 }, status: { allocatable: { cpu: "${third}", memory: 8Gi, pods: "10" } } }
pending:
${[0, 1].map((i) => `- { metadata: { name: m${i} }, spec: { schedulingGroup: { podGroupName: g }, containers: [{ name: c, image: x, resources: { requests: { cpu: "2" } } }] } }`).join('\n')}
`, 'gang-removal.yaml');

  it('moves every member of a gang with one on the node, together', async () => {
    const out = await removableNodes(scenario('2'), { ...opts, nodes: ['n1', 'n2'] });
    const placedOn = new Map(out.map((r) => [r.node, r]));
    // Whichever nodes hold the gang: removing one reschedules both members, on the other two nodes.
    for (const r of out) {
      if (r.pods.length === 0) continue;
      assert.equal(r.removable, true, JSON.stringify(r));
      assert.equal(r.decidedBy, 'scheduler');
      assert.deepEqual(r.pods.map((p) => p.pod).sort(), ['default/m0', 'default/m1']);
      assert.ok(r.pods.every((p) => p.node !== r.node && p.node !== ''));
    }
    assert.equal(placedOn.size, 2);
  });

  it('is not removable when the whole gang no longer fits', async () => {
    const out = await removableNodes(scenario('1'), { ...opts });
    const holding = out.filter((r) => r.pods.length > 0);
    assert.ok(holding.length > 0);
    for (const r of holding) {
      assert.equal(r.removable, false, JSON.stringify(r));
      assert.ok(r.pods.some((p) => p.node === '' && p.message !== ''));
    }
  });
});

describe('capacity --gang with a CompositePodGroup tree', () => {
  const treeGates = FeatureGates.parse(['GenericWorkload=true', 'TopologyAwareWorkloadScheduling=true', 'CompositePodGroup=true']);
  const treeOpts = { ...opts, featureGates: treeGates };
  const ref = { workloadName: 'w', templateName: 't' };
  /** Composite `job` over PodGroups a and b, each a gang of `members` workers of `gpus` GPUs (b: `bGpus`). */
  const tree = (o: { minGroupCount: number; members: number; gpus: number; bGpus?: number; rack?: boolean }): GangTemplate => ({
    root: {
      apiVersion: 'scheduling.k8s.io/v1alpha3', kind: 'CompositePodGroup', metadata: { name: 'job', namespace: 'default' },
      spec: { workloadRef: ref, schedulingPolicy: { gang: { minGroupCount: o.minGroupCount } }, ...(o.rack ? { schedulingConstraints: { topology: [{ key: 'rack' }] } } : {}) },
    },
    below: ['a', 'b'].map((n): PodGroup => ({ apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name: n, namespace: 'default' }, spec: { parentCompositePodGroupName: 'job', workloadRef: ref, schedulingPolicy: { gang: { minCount: o.members } } } })),
    members: new Map([['a', { pod: worker(o.gpus, 'a'), count: o.members }], ['b', { pod: worker(o.bGpus ?? o.gpus, 'b'), count: o.members }]]),
  });
  /** `n` 8-GPU nodes, node i on rack r<i/2>. */
  const racked = (n: number) => parseScenario(`nodes:${Array.from({ length: n }, (_, i) => `
- metadata: { name: gpu-${i}, labels: { rack: r${Math.floor(i / 2)} } }
  status: { allocatable: { cpu: "64", memory: 256Gi, pods: "110", nvidia.com/gpu: "8" } }`).join('')}\n`, 'racks.yaml');

  const cases: { name: string; nodes: number; tree: GangTemplate; fits: number; placedPerTree: number; gpusFree: number }[] = [
    // Each tree takes 2 x 2 x 4 = 16 GPUs: two fill four nodes, the third finds none.
    { name: 'trees that fill the cluster', nodes: 4, tree: tree({ minGroupCount: 2, members: 2, gpus: 4 }), fits: 2, placedPerTree: 4, gpusFree: 0 },
    // minGroupCount 1: b (16-GPU workers) never fits, a's 8 GPUs are placed per tree.
    { name: 'a tree placed by its quorum, one child left out', nodes: 2, tree: tree({ minGroupCount: 1, members: 2, gpus: 4, bGpus: 16 }), fits: 2, placedPerTree: 2, gpusFree: 0 },
    // One rack per tree: r0 holds one tree; r1 has a single node, 8 GPUs stay free.
    { name: 'a rack-constrained tree', nodes: 3, tree: tree({ minGroupCount: 2, members: 1, gpus: 8, rack: true }), fits: 1, placedPerTree: 2, gpusFree: 8 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await countGangFits(racked(c.nodes), c.tree, treeOpts);
      assert.equal(r.kind, 'CompositePodGroup');
      assert.equal(r.fits, c.fits);
      assert.equal(r.placements.reduce((s, p) => s + p.members, 0), c.fits * c.placedPerTree);
      assert.equal(r.free.find((f) => f.resource === 'nvidia.com/gpu')!.free, c.gpusFree);
      const t = r.stoppedBy;
      assert.ok(t !== null && 'children' in t, JSON.stringify(t));
      assert.equal(t.group, `default/job-copy-${c.fits}`);
      assert.equal(t.outcome, 'Unschedulable');
      assert.equal(t.placed, 0);
      assert.deepEqual(t.children.map((g) => g.group), [`default/a-copy-${c.fits}`, `default/b-copy-${c.fits}`]);
      assert.notEqual(t.stoppedBy, null);
      // The placements the stopped copy was tried on: all nodes, or each rack under the constraint; none feasible.
      assert.deepEqual(t.placements?.map((p) => [p.placement, p.feasible]), c.tree.root.spec.schedulingConstraints ? [['r0', false], ['r1', false]] : [['', false]]);
      assert.equal(t.chosenPlacement, null);
    });
  }

  it('explains the tree that stopped the count, child by child', async () => {
    const r = await countGangFits(racked(3), tree({ minGroupCount: 2, members: 2, gpus: 4, bGpus: 16 }), treeOpts);
    assert.equal(r.fits, 0);
    const t = r.stoppedBy;
    assert.ok(t !== null && 'children' in t);
    const [a, b] = t.children;
    assert.ok(a !== undefined && !('children' in a) && b !== undefined && !('children' in b));
    // b's members fit no node; the composite's quorum of 2 children is not met, so a binds nothing either.
    assert.deepEqual(b.firstRejected?.plugins, ['NodeResourcesFit']);
    assert.ok(a.members.every((m) => m.outcome !== 'Scheduled'));
    assert.match(t.stoppedBy!.message, /minCount \(2\) cannot be satisfied|Insufficient nvidia.com\/gpu/);
  });

  it('adds the nodes one whole tree needs', async () => {
    // One 8-GPU node; the tree needs 2 x 2 workers of 8 GPUs: three more nodes.
    const t = tree({ minGroupCount: 2, members: 2, gpus: 8 });
    const sc = withGang(racked(1), t);
    assert.deepEqual(gangMemberKeys(t), ['default/a-0', 'default/a-1', 'default/b-0', 'default/b-1']);
    const r = await nodesNeeded(sc, sc.nodes[0]!, { ...treeOpts, only: new Set(gangMemberKeys(t)) });
    assert.equal(r.nodes, 3);
    assert.equal(r.unschedulableWithout, 4);
  });

  it('refuses a tree no cycle could place', () => {
    const t = tree({ minGroupCount: 3, members: 1, gpus: 1 });
    assert.throws(() => checkGangTemplate(t, 't.yaml'), /^Error: t.yaml: CompositePodGroup "job": spec.schedulingPolicy.gang.minGroupCount: Invalid value: 3: more than its 2 child group\(s\)/);
    const few = tree({ minGroupCount: 2, members: 2, gpus: 1 });
    (few.members as Map<string, { pod: Pod; count: number }>).set('b', { pod: worker(1, 'b'), count: 1 });
    assert.throws(() => checkGangTemplate(few, 't.yaml'), /t.yaml: PodGroup "b": members: Invalid value: 1: fewer than the gang's minCount \(2\)/);
  });

  it('refuses a tree with the CompositePodGroup gate off', async () => {
    await assert.rejects(countGangFits(racked(1), tree({ minGroupCount: 1, members: 1, gpus: 1 }), opts), /CompositePodGroup=true/);
  });

  describe('--removable keeps trees whole', () => {
    /** Three 2-cpu nodes (the third `third`); composite `job` over PodGroups a and b, one 2-cpu member each. */
    const scenario = (third: string) => parseScenario(`
objects:
- { apiVersion: scheduling.k8s.io/v1alpha3, kind: CompositePodGroup, metadata: { name: job }, spec: { workloadRef: { workloadName: w, templateName: t }, schedulingPolicy: { gang: { minGroupCount: 2 } } } }
${['a', 'b'].map((n) => `- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: ${n} }, spec: { parentCompositePodGroupName: job, workloadRef: { workloadName: w, templateName: t }, schedulingPolicy: { gang: { minCount: 1 } } } }`).join('\n')}
nodes:
- { metadata: { name: n1 }, status: { allocatable: { cpu: "2", memory: 8Gi, pods: "10" } } }
- { metadata: { name: n2 }, status: { allocatable: { cpu: "2", memory: 8Gi, pods: "10" } } }
- { metadata: { name: n3 }, status: { allocatable: { cpu: "${third}", memory: 8Gi, pods: "10" } } }
pending:
${['a', 'b'].map((n) => `- { metadata: { name: ${n}0 }, spec: { schedulingGroup: { podGroupName: ${n} }, containers: [{ name: c, image: x, resources: { requests: { cpu: "2" } } }] } }`).join('\n')}
`, 'tree-removal.yaml', { gates: { topologyAwareWorkloadScheduling: true, draWorkloadResourceClaims: false, podGroupPreemptionPolicy: false, compositePodGroup: true } });

    it('moves every member of the tree, of both groups, together', async () => {
      const out = await removableNodes(scenario('2'), treeOpts);
      const holding = out.filter((r) => r.pods.length > 0);
      assert.equal(holding.length, 2);
      for (const r of holding) {
        assert.equal(r.removable, true, JSON.stringify(r));
        assert.equal(r.decidedBy, 'scheduler');
        assert.deepEqual(r.pods.map((p) => p.pod).sort(), ['default/a0', 'default/b0']);
        assert.ok(r.pods.every((p) => p.node !== r.node && p.node !== ''));
      }
    });

    it('is not removable when the whole tree no longer fits', async () => {
      const out = await removableNodes(scenario('1'), treeOpts);
      const holding = out.filter((r) => r.pods.length > 0);
      assert.equal(holding.length, 2);
      for (const r of holding) {
        assert.equal(r.removable, false, JSON.stringify(r));
        assert.deepEqual(r.pods.map((p) => p.pod).sort(), ['default/a0', 'default/b0']);
        assert.ok(r.pods.every((p) => p.node === '' && p.message !== ''));
      }
    });
  });
});
