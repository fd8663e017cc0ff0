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
import { checkGangTemplate, countGangFits, gangMemberKeys, withGang, type GangTemplate } from './capacity_gangs.js';

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

const gang = (minCount: number | null, gpus: number, members: number): GangTemplate => ({
  podGroup: { apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name: 'train', namespace: 'default' }, spec: { schedulingPolicy: minCount === null ? { basic: {} } : { gang: { minCount } } } } as PodGroup,
  pod: {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'worker', namespace: 'default' },
    spec: { containers: [{ name: 'w', image: 'x', resources: { requests: { cpu: '4', 'nvidia.com/gpu': String(gpus) }, limits: { 'nvidia.com/gpu': String(gpus) } } }] },
  } as Pod,
  members,
});

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
      const r = await countGangFits(cluster(c.nodes, c.busy), c.gang, { ...opts, max: c.gang.podGroup.spec.schedulingPolicy.basic ? 3 : undefined });
      assert.equal(r.fits, c.fits);
      assert.equal(r.placements.reduce((s, p) => s + p.members, 0), c.fits * c.gang.members);
      if (c.stoppedBy === null) assert.equal(r.stoppedBy, null);
      else {
        assert.notEqual(r.stoppedBy, null);
        assert.equal(r.stoppedBy!.outcome, 'Unschedulable');
        // The plugin that judged the group, or the one that rejected its first member.
        assert.ok(r.stoppedBy!.stoppedBy?.plugin === c.stoppedBy || r.stoppedBy!.firstRejected?.plugins.includes(c.stoppedBy), JSON.stringify(r.stoppedBy));
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
    assert.deepEqual(r.stoppedBy?.firstRejected, { pod: 'default/train-copy-0-2', plugins: ['NodeResourcesFit'], message: '0/2 nodes are available: 2 Insufficient nvidia.com/gpu.' });
    assert.deepEqual(r.free.map((f) => f.resource), ['cpu', 'memory', 'pods', 'nvidia.com/gpu']);
  });

  it('refuses the question with the gate off', async () => {
    await assert.rejects(countGangFits(cluster(1), gang(1, 1, 1), { ...opts, featureGates: FeatureGates.parse([]) }), /GenericWorkload=true/);
  });

  it('refuses fewer members than minCount and a priority unlike the group\'s', () => {
    assert.throws(() => checkGangTemplate(gang(4, 1, 3), 'g.yaml'), (e: Error) => e instanceof BadInputError && /members: Invalid value: 3: fewer than the gang's minCount \(4\)/.test(e.message));
    const g = gang(1, 1, 1);
    g.pod.spec.priority = 5;
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
