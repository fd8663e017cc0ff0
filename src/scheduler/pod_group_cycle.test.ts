// Gangs and basic groups end to end through simulate (GenericWorkload on): all or nothing, the
// quorum barrier, upstream's messages, and the gate off ignoring spec.schedulingGroup.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfiguration } from '../config/index.js';
import { FeatureGates } from '../config/feature_gates.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import { parseScenario } from '../sim/scenario/scenario.js';
import { runSimulation } from '../sim/simulate/simulate.js';

const registry = inTreeRegistry();
const on = FeatureGates.parse(['GenericWorkload=true']);

/** Two 4-CPU nodes; `members` pods of `cpu` each in group g (gang of minCount, or basic). */
function scenario(o: { members: number; cpu: string; minCount?: number; withGroup?: boolean }): string {
  const policy = o.minCount === undefined ? '{ basic: {} }' : `{ gang: { minCount: ${o.minCount} } }`;
  const pods = Array.from({ length: o.members }, (_, i) =>
    `- metadata: { name: m${i} }\n  spec: { schedulingGroup: { podGroupName: g }, containers: [{ name: c, image: x, resources: { requests: { cpu: "${o.cpu}" } } }] }`).join('\n');
  return `
objects: ${o.withGroup === false ? '[]' : `
- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: g }, spec: { schedulingPolicy: ${policy} } }`}
nodes:
- metadata: { name: n1 }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
- metadata: { name: n2 }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
pending:
${pods}
`;
}

async function outcomes(yaml: string, gates = on) {
  const report = await runSimulation(parseScenario(yaml, 'gang.yaml'), {
    config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, featureGates: gates,
  });
  return Object.fromEntries(report.pods.map((p) => [p.pod.replace('default/', ''), { outcome: p.outcome, node: p.node, message: p.message }]));
}

describe('pod group cycle', () => {
  it('schedules a gang that fits whole', async () => {
    const got = await outcomes(scenario({ members: 4, cpu: '2', minCount: 4 }));
    assert.deepEqual(Object.values(got).map((p) => p.outcome), ['Scheduled', 'Scheduled', 'Scheduled', 'Scheduled']);
  });

  it('places none of a gang that does not fit whole, with upstream\'s message', async () => {
    const got = await outcomes(scenario({ members: 5, cpu: '2', minCount: 5 }));
    for (const p of Object.values(got)) assert.equal(p.outcome, 'Unschedulable');
    // Placed members carry the group's verdict, PodGroupPostFilter's answer appended (as upstream's harness reports).
    assert.equal(got.m0!.message, 'pod group is unschedulable, minCount (5) cannot be satisfied: 4 scheduled, 0 remaining, pod group preemption: No preemption victims found for incoming preemptor');
    assert.match(got.m4!.message, /^0\/2 nodes are available: 2 Insufficient cpu\./);
  });

  it('places the members of a basic group that fit, one by one', async () => {
    const got = await outcomes(scenario({ members: 5, cpu: '2' }));
    assert.deepEqual(Object.values(got).map((p) => p.outcome), ['Scheduled', 'Scheduled', 'Scheduled', 'Scheduled', 'Unschedulable']);
  });

  it('holds a gang below minCount members at PreEnqueue', async () => {
    const got = await outcomes(scenario({ members: 2, cpu: '1', minCount: 3 }));
    for (const p of Object.values(got)) assert.equal(p.outcome, 'Gated');
  });

  it('never tries members whose PodGroup does not exist', async () => {
    const got = await outcomes(scenario({ members: 2, cpu: '1', withGroup: false }));
    for (const p of Object.values(got)) assert.equal(p.outcome, 'Pending');
  });

  it('ignores spec.schedulingGroup with the gate off', async () => {
    const got = await outcomes(scenario({ members: 5, cpu: '2', minCount: 5 }), FeatureGates.defaults);
    assert.deepEqual(Object.values(got).map((p) => p.outcome), ['Scheduled', 'Scheduled', 'Scheduled', 'Scheduled', 'Unschedulable']);
  });
});
