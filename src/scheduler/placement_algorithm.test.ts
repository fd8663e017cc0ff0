// Topology-aware placement of pod groups end to end through simulate (GenericWorkload and
// TopologyAwareWorkloadScheduling on): a gang is placed whole inside one rack, the racks it does
// not fit are skipped, PodGroupPodsCount prefers the rack holding more members, scheduled members
// pin their rack, and upstream's messages when no rack fits.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfiguration } from '../config/index.js';
import { FeatureGates } from '../config/feature_gates.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import { parseScenario } from '../sim/scenario/scenario.js';
import { runSimulation } from '../sim/simulate/simulate.js';

const registry = inTreeRegistry();
const tas = FeatureGates.parse(['GenericWorkload=true,TopologyAwareWorkloadScheduling=true']);
const rackKey = 'topology.example.com/rack';

interface Case {
  policy: string;
  /** Free CPUs per node, by node name (each node has 4; the rest is taken by a running pod). */
  free: Record<string, number>;
  members: number;
  cpu: number;
  topology?: boolean;
  /** Members already bound: node names. */
  bound?: string[];
}

/** Nodes a1, a2 on rack-a and b1, b2 on rack-b (4 CPUs each), the group g and its members. */
function scenario(c: Case): string {
  const nodes = Object.keys(c.free).map((n) => `
- metadata: { name: ${n}, labels: { ${rackKey}: rack-${n[0]} } }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }`).join('');
  const load = Object.entries(c.free).filter(([, f]) => f < 4).map(([n, f]) => `
- metadata: { name: load-${n} }
  spec: { nodeName: ${n}, containers: [{ name: c, image: x, resources: { requests: { cpu: "${4 - f}" } } }] }`);
  const bound = (c.bound ?? []).map((n, i) => `
- metadata: { name: bound-${i} }
  spec: { nodeName: ${n}, schedulingGroup: { podGroupName: g }, containers: [{ name: c, image: x, resources: { requests: { cpu: "${c.cpu}" } } }] }`);
  const pending = Array.from({ length: c.members }, (_, i) => `
- metadata: { name: m${i} }
  spec: { schedulingGroup: { podGroupName: g }, containers: [{ name: c, image: x, resources: { requests: { cpu: "${c.cpu}" } } }] }`).join('');
  const constraints = c.topology === false ? '' : `, schedulingConstraints: { topology: [{ key: ${rackKey} }] }`;
  return `
objects:
- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: g }, spec: { schedulingPolicy: ${c.policy}${constraints} } }
nodes:${nodes}
pods:${[...load, ...bound].join('') || ' []'}
pending:${pending}
`;
}

async function outcomes(c: Case, gates = tas, seed = 1, tieBreakByName = false) {
  const report = await runSimulation(parseScenario(scenario(c), 'tas.yaml'), {
    config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, featureGates: gates, seed, tieBreakByName,
  });
  const members = report.pods.filter((p) => /^default\/m\d+$/.test(p.pod));
  return members.map((p) => ({ outcome: p.outcome, node: p.node, message: p.message }));
}

const all = { a1: 4, a2: 4, b1: 4, b2: 4 };

describe('topology-aware pod group placement', () => {
  it('places a gang whole inside the one rack where it fits', async () => {
    // rack-a has 5 free CPUs, rack-b 8: four 2-CPU members fit only on rack-b.
    const got = await outcomes({ policy: '{ gang: { minCount: 4 } }', free: { a1: 4, a2: 1, b1: 4, b2: 4 }, members: 4, cpu: 2 });
    for (const p of got) assert.equal(p.outcome, 'Scheduled');
    assert.deepEqual(got.map((p) => p.node).sort(), ['b1', 'b1', 'b2', 'b2']);
  });

  it('without the topology gate the same gang spreads over both racks', async () => {
    const got = await outcomes({ policy: '{ gang: { minCount: 4 } }', free: { a1: 4, a2: 1, b1: 4, b2: 4 }, members: 4, cpu: 2 }, FeatureGates.parse(['GenericWorkload=true']));
    for (const p of got) assert.equal(p.outcome, 'Scheduled');
    assert.ok(got.some((p) => p.node.startsWith('a')), JSON.stringify(got));
  });

  it('rejects a gang that fits the cluster but no single rack, with upstream\'s message', async () => {
    const got = await outcomes({ policy: '{ gang: { minCount: 4 } }', free: { a1: 4, a2: 2, b1: 4, b2: 2 }, members: 4, cpu: 2 });
    for (const p of got) assert.equal(p.outcome, 'Unschedulable');
    // Members the first placement's trial placed carry the group's verdict; the one it could not place, its FitError over that rack.
    assert.equal(got[0]!.message, 'pod group is unschedulable, pod group is unschedulable, 0/2 placements are available, first placement status: minCount (4) cannot be satisfied: 3 scheduled, 0 remaining, pod group preemption: No preemption victims found for incoming preemptor');
    assert.match(got[3]!.message, /^0\/2 nodes are available: 2 Insufficient cpu\./);
  });

  it('prefers the rack holding more members of a basic group (PodGroupPodsCount)', async () => {
    // rack-a fits three 2-CPU members, rack-b two.
    for (const seed of [1, 2, 3]) {
      const got = await outcomes({ policy: '{ basic: {} }', free: { a1: 4, a2: 2, b1: 2, b2: 2 }, members: 4, cpu: 2 }, tas, seed);
      assert.deepEqual(got.map((p) => p.outcome), ['Scheduled', 'Scheduled', 'Scheduled', 'Unschedulable']);
      assert.ok(got.slice(0, 3).every((p) => p.node.startsWith('a')), JSON.stringify(got));
    }
  });

  it('keeps a group in the rack of its scheduled members', async () => {
    const got = await outcomes({ policy: '{ basic: {} }', free: all, members: 2, cpu: 1, bound: ['b2'] });
    for (const p of got) assert.equal(p.outcome, 'Scheduled');
    assert.ok(got.every((p) => p.node.startsWith('b')), JSON.stringify(got));
  });

  it('tries all nodes as one placement when the group has no topology constraint', async () => {
    const got = await outcomes({ policy: '{ gang: { minCount: 4 } }', free: { a1: 4, a2: 2, b1: 4, b2: 2 }, members: 4, cpu: 2, topology: false });
    for (const p of got) assert.equal(p.outcome, 'Scheduled');
  });

  it('breaks ties between equally good racks at random', async () => {
    const racks = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const got = await outcomes({ policy: '{ gang: { minCount: 2 } }', free: all, members: 2, cpu: 2 }, tas, seed);
      const rack = new Set(got.map((p) => p.node[0]));
      assert.equal(rack.size, 1, JSON.stringify(got));
      racks.add([...rack][0]!);
    }
    assert.deepEqual([...racks].sort(), ['a', 'b']);
  });

  it('packs a group into the fuller rack (NodeResourcesFit scores placements MostAllocated)', async () => {
    // Both racks hold the gang; rack-a's nodes are half used, so the gang leaves it fuller.
    for (const seed of [1, 2, 3, 4]) {
      const got = await outcomes({ policy: '{ gang: { minCount: 2 } }', free: { a1: 2, a2: 2, b1: 4, b2: 4 }, members: 2, cpu: 1 }, tas, seed);
      assert.ok(got.every((p) => p.outcome === 'Scheduled' && p.node.startsWith('a')), JSON.stringify(got));
    }
  });

  it('with --tie-break name, equally good racks are won by the first name', async () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const got = await outcomes({ policy: '{ gang: { minCount: 2 } }', free: all, members: 2, cpu: 2 }, tas, seed, true);
      assert.ok(got.every((p) => p.node.startsWith('a')), JSON.stringify(got));
    }
  });

  it('with --tie-break name, the first placement of an infeasible group is the first by name', async () => {
    // The scenario lists rack-b's nodes first: without the name order rack-b would be tried first.
    const got = await outcomes({ policy: '{ gang: { minCount: 3 } }', free: { b1: 4, b2: 4, a1: 4, a2: 2 }, members: 3, cpu: 3 }, tas, 1, true);
    assert.match(got[0]!.message, /0\/2 placements are available, first placement status: minCount \(3\) cannot be satisfied: 1 scheduled/);
  });
});
