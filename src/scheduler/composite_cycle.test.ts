// CompositePodGroups end to end through simulate (GenericWorkload, TopologyAwareWorkloadScheduling
// and CompositePodGroup on): a tree scheduled as one entity, all or nothing by minGroupCount over
// its children, each child a gang of its own, members held until the whole chain is observed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfiguration } from '../config/index.js';
import { FeatureGates } from '../config/feature_gates.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import { parseScenario } from '../sim/scenario/scenario.js';
import { runSimulation } from '../sim/simulate/simulate.js';

const registry = inTreeRegistry();
const gates = FeatureGates.parse(['GenericWorkload=true', 'TopologyAwareWorkloadScheduling=true', 'CompositePodGroup=true']);

interface Child {
  readonly name: string;
  readonly members: number;
  readonly cpu: string;
  readonly minCount: number;
}

/** Two 4-CPU nodes on racks r1 and r2; composite `job` (minGroupCount) over PodGroups `children`. */
function scenario(o: { minGroupCount: number; children: readonly Child[]; withComposite?: boolean; rack?: boolean }): string {
  const constraint = o.rack ? ', schedulingConstraints: { topology: [{ key: rack }] }' : '';
  const groups = o.children.map((c) =>
    `- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: ${c.name} }, spec: { parentCompositePodGroupName: job, workloadRef: { workloadName: w, templateName: t }, schedulingPolicy: { gang: { minCount: ${c.minCount} } } } }`).join('\n');
  const pods = o.children.flatMap((c) => Array.from({ length: c.members }, (_, i) =>
    `- metadata: { name: ${c.name}${i} }\n  spec: { schedulingGroup: { podGroupName: ${c.name} }, containers: [{ name: c, image: x, resources: { requests: { cpu: "${c.cpu}" } } }] }`)).join('\n');
  return `
objects:
- { apiVersion: scheduling.k8s.io/v1beta1, kind: Workload, metadata: { name: w }, spec: { compositePodGroupTemplates: [{ name: job, schedulingPolicy: { basic: {} }, podGroupTemplates: [{ name: t, schedulingPolicy: { basic: {} } }] }] } }
${o.withComposite === false ? '' : `- { apiVersion: scheduling.k8s.io/v1alpha3, kind: CompositePodGroup, metadata: { name: job }, spec: { workloadRef: { workloadName: w, templateName: job }, schedulingPolicy: { gang: { minGroupCount: ${o.minGroupCount} } }${constraint} } }`}
${groups}
nodes:
- metadata: { name: n1, labels: { rack: r1 } }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
- metadata: { name: n2, labels: { rack: r2 } }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
pending:
${pods}
`;
}

async function outcomes(yaml: string) {
  const report = await runSimulation(parseScenario(yaml, 'composite.yaml', { gates: { topologyAwareWorkloadScheduling: true, draWorkloadResourceClaims: false, podGroupPreemptionPolicy: false, compositePodGroup: true } }), {
    config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, featureGates: gates,
  });
  return Object.fromEntries(report.pods.map((p) => [p.pod.replace('default/', ''), { outcome: p.outcome, node: p.node, message: p.message }]));
}

describe('composite pod group cycle', () => {
  it('schedules a tree whose children all fit', async () => {
    const got = await outcomes(scenario({ minGroupCount: 2, children: [{ name: 'a', members: 2, cpu: '2', minCount: 2 }, { name: 'b', members: 2, cpu: '2', minCount: 2 }] }));
    assert.deepEqual(Object.values(got).map((p) => p.outcome), ['Scheduled', 'Scheduled', 'Scheduled', 'Scheduled']);
  });

  it('places none of a tree when fewer than minGroupCount children fit', async () => {
    const got = await outcomes(scenario({ minGroupCount: 2, children: [{ name: 'a', members: 2, cpu: '2', minCount: 2 }, { name: 'b', members: 2, cpu: '3', minCount: 2 }] }));
    for (const p of Object.values(got)) assert.equal(p.outcome, 'Unschedulable');
  });

  it('places the children that fit when minGroupCount is met', async () => {
    const got = await outcomes(scenario({ minGroupCount: 1, children: [{ name: 'a', members: 2, cpu: '2', minCount: 2 }, { name: 'b', members: 2, cpu: '3', minCount: 2 }] }));
    assert.deepEqual([got.a0!.outcome, got.a1!.outcome, got.b0!.outcome, got.b1!.outcome], ['Scheduled', 'Scheduled', 'Unschedulable', 'Unschedulable']);
  });

  it('keeps the tree on one rack under its topology constraint', async () => {
    const got = await outcomes(scenario({ rack: true, minGroupCount: 2, children: [{ name: 'a', members: 1, cpu: '2', minCount: 1 }, { name: 'b', members: 1, cpu: '2', minCount: 1 }] }));
    assert.equal(got.a0!.node, got.b0!.node);
  });

  it('holds members until every composite above their group is observed', async () => {
    const got = await outcomes(scenario({ withComposite: false, minGroupCount: 1, children: [{ name: 'a', members: 1, cpu: '1', minCount: 1 }] }));
    assert.equal(got.a0!.outcome, 'Pending');
  });
});
