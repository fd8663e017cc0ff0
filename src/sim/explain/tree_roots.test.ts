// The differential convention for groups created after their tree's members (createAfterMembers):
// the tree is attempted once the late group arrives, which only its add event's hint can bring
// about when the members already wait at PreEnqueue for it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { admitPod } from '../../cluster/memory/admission.js';
import { defaultConfiguration } from '../../config/index.js';
import { FeatureGates } from '../../config/feature_gates.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { parseScenario } from '../scenario/scenario.js';
import { runExplain } from './explain.js';
import { createAfterMembers, treeRoots } from './tree_roots.js';

const registry = inTreeRegistry();
const gates = { topologyAwareWorkloadScheduling: true, draWorkloadResourceClaims: false, podGroupPreemptionPolicy: false, compositePodGroup: true };
const parse = (yaml: string) => parseScenario(yaml, 'late.yaml', { gates });
const opts = {
  config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, tieBreakByName: true, admitPod, diagnose: true,
  featureGates: FeatureGates.parse(['GenericWorkload=true', 'TopologyAwareWorkloadScheduling=true', 'CompositePodGroup=true']),
};

/**
 * A root needing both its children: `part` (one pending member) and `done` (a PodGroup whose
 * member already runs, or a composite over such a PodGroup), the latter maybe held back.
 */
function scenario(doneKind: 'PodGroup' | 'CompositePodGroup', held: boolean): string {
  const annotations = held ? `, annotations: { ${createAfterMembers}: "true" }` : '';
  const ref = 'workloadRef: { workloadName: w, templateName: t }';
  const done = doneKind === 'PodGroup'
    ? `- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: done, namespace: default${annotations} }, spec: { ${ref}, parentCompositePodGroupName: root, schedulingPolicy: { basic: {} } } }`
    : `- { apiVersion: scheduling.k8s.io/v1alpha3, kind: CompositePodGroup, metadata: { name: done-tree, namespace: default${annotations} }, spec: { ${ref}, parentCompositePodGroupName: root, schedulingPolicy: { basic: {} } } }
- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: done, namespace: default }, spec: { ${ref}, parentCompositePodGroupName: done-tree, schedulingPolicy: { basic: {} } } }`;
  return `
nodes:
- metadata: { name: n1 }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
objects:
- { apiVersion: scheduling.k8s.io/v1alpha3, kind: CompositePodGroup, metadata: { name: root, namespace: default }, spec: { ${ref}, schedulingPolicy: { gang: { minGroupCount: 2 } } } }
- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: part, namespace: default }, spec: { ${ref}, parentCompositePodGroupName: root, schedulingPolicy: { basic: {} } } }
${done}
pods:
- metadata: { name: done-0, namespace: default }
  spec: { nodeName: n1, schedulingGroup: { podGroupName: done }, containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] }
pending:
- metadata: { name: part-0, namespace: default }
  spec: { schedulingGroup: { podGroupName: part }, containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] }
`;
}

describe('groups created after their tree\'s members (createAfterMembers)', () => {
  const cases = [
    { name: 'a PodGroup whose member runs, created with the objects', kind: 'PodGroup' as const, held: false },
    { name: 'the same PodGroup held back: its add event frees the tree', kind: 'PodGroup' as const, held: true },
    { name: 'a composite over it held back: its add event frees the tree', kind: 'CompositePodGroup' as const, held: true },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { pods } = await runExplain(parse(scenario(c.kind, c.held)), opts);
      assert.deepEqual(pods.map((p) => [p.pod, p.outcome, p.node]), [['default/part-0', 'Scheduled', 'n1']]);
    });
  }

  it('finds the root of a member and of a group object through the scenario\'s parents', () => {
    const sc = parse(scenario('CompositePodGroup', true));
    const roots = treeRoots(sc, true);
    assert.equal(roots.ofPod(sc.pending[0]!), 'default/root');
    assert.deepEqual(sc.objects.map((o) => roots.ofGroup(o)), ['default/root', 'default/root', 'default/root', 'default/root']);
    assert.equal(treeRoots(sc, false).ofPod(sc.pending[0]!), 'default/part');
  });
});
