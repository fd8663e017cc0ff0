// explain's per-group view (GenericWorkload on): members placed where, what stopped a gang and
// which member was rejected first, a gang held at PreEnqueue, in JSON, text and the timeline.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { admitPod } from '../../cluster/memory/admission.js';
import { defaultConfiguration } from '../../config/index.js';
import { FeatureGates } from '../../config/feature_gates.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { parseScenario } from '../scenario/scenario.js';
import { runExplain, runExplainTimeline } from './explain.js';
import type { ExplainGroup } from './explain_groups.js';
import { renderExplainText } from './explain_text.js';

const registry = inTreeRegistry();
const opts = {
  config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, tieBreakByName: true, admitPod,
  featureGates: FeatureGates.parse(['GenericWorkload=true']), diagnose: true,
};
const bundled = readFileSync(new URL('../../../scenarios/workload-gangs.yaml', import.meta.url), 'utf8');

/** A group's verdict without its member list, for compact expectations. */
const summary = (g: ExplainGroup) => ({ outcome: g.outcome, placed: g.placed, stoppedBy: g.stoppedBy, firstRejected: g.firstRejected });

describe('explain pod groups', () => {
  it('reports each group of the bundled GPU scenario', async () => {
    const { groups } = await runExplain(parseScenario(bundled, 'workload-gangs.yaml'), opts);
    const byName = new Map((groups ?? []).map((g) => [g.group, g]));
    assert.deepEqual([...byName.keys()], ['default/train-a', 'default/train-b', 'default/infer', 'default/tune', 'default/eval']);
    const cases: { group: string; want: ReturnType<typeof summary> }[] = [
      { group: 'default/train-a', want: { outcome: 'Scheduled', placed: 4, stoppedBy: null, firstRejected: null } },
      {
        group: 'default/train-b',
        want: {
          outcome: 'Unschedulable', placed: 0,
          stoppedBy: { plugin: 'GangScheduling', message: 'minCount (3) cannot be satisfied: 0 scheduled, 2 remaining' },
          firstRejected: { pod: 'default/train-b-0', plugins: ['NodeResourcesFit'], message: '0/4 nodes are available: 4 Insufficient nvidia.com/gpu.' },
        },
      },
      { group: 'default/infer', want: { outcome: 'Scheduled', placed: 4, stoppedBy: null, firstRejected: null } },
      // Without TopologyAwareWorkloadScheduling its rack constraint is not read: it spreads and fits.
      { group: 'default/tune', want: { outcome: 'Scheduled', placed: 4, stoppedBy: null, firstRejected: null } },
      {
        group: 'default/eval',
        want: {
          outcome: 'Waiting', placed: 0,
          stoppedBy: { plugin: 'GangScheduling', message: 'waiting for minCount pods from a gang to appear in scheduling queue' },
          firstRejected: null,
        },
      },
    ];
    for (const c of cases) assert.deepEqual(summary(byName.get(c.group)!), c.want, c.group);
    // train-a: one 4-GPU worker per 8-GPU node, each member's node named.
    const trainA = byName.get('default/train-a')!;
    assert.deepEqual(trainA.members.map((m) => m.node).sort(), ['gpu-a1', 'gpu-a2', 'gpu-b1', 'gpu-b2']);
    assert.equal(trainA.policy, 'gang');
    assert.equal(byName.get('default/infer')!.policy, 'basic');
  });

  it('names the verdict placed members of a failed gang carry', async () => {
    const yaml = `
objects:
- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: g }, spec: { schedulingPolicy: { gang: { minCount: 3 } } } }
nodes:
- { metadata: { name: n1 }, status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } } }
- { metadata: { name: n2 }, status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } } }
pending:
${[0, 1, 2].map((i) => `- { metadata: { name: m${i} }, spec: { schedulingGroup: { podGroupName: g }, containers: [{ name: c, image: x, resources: { requests: { cpu: "3" } } }] } }`).join('\n')}
`;
    const { groups } = await runExplain(parseScenario(yaml, 'g.yaml'), opts);
    const g = groups![0]!;
    assert.equal(g.outcome, 'Unschedulable');
    assert.equal(g.placed, 0);
    // Every member was tried: the verdict is the one the placed members were failed with (its
    // plugin is not carried through the group's failure), PodGroupPostFilter's answer appended.
    assert.deepEqual(g.stoppedBy, {
      plugin: '',
      message: 'pod group is unschedulable, minCount (3) cannot be satisfied: 2 scheduled, 0 remaining, pod group preemption: No preemption victims found for incoming preemptor',
    });
    assert.equal(g.firstRejected?.pod, 'default/m2');
    assert.deepEqual(g.firstRejected?.plugins, ['NodeResourcesFit']);
    // The members the cycle placed are failed with the group's verdict, bound nowhere.
    assert.deepEqual(g.members.map((m) => [m.outcome, m.node]), [['Unschedulable', ''], ['Unschedulable', ''], ['Unschedulable', '']]);
    assert.match(g.members[0]!.message, /^pod group is unschedulable, minCount \(3\) cannot be satisfied/);
  });

  it('leaves groups out when no pending pod names one', async () => {
    const yaml = `
nodes: [{ metadata: { name: n1 }, status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } } }]
pending: [{ metadata: { name: p }, spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] } }]
`;
    const result = await runExplain(parseScenario(yaml, 'p.yaml'), opts);
    assert.equal('groups' in result, false);
  });

  it('renders each group after the pods in text', async () => {
    const { pods, groups } = await runExplain(parseScenario(bundled, 'workload-gangs.yaml'), opts);
    const text = renderExplainText(pods, {}, groups);
    assert.match(text, /Pod group default\/train-b {2}\(gang, minCount 3\) {2}Unschedulable: 0\/3 member\(s\) placed/);
    assert.match(text, /Stopped by: GangScheduling: minCount \(3\) cannot be satisfied: 0 scheduled, 2 remaining/);
    assert.match(text, /First rejected: default\/train-b-0 \(NodeResourcesFit\): 0\/4 nodes are available/);
    assert.match(text, /default\/eval-1 +Waiting +waiting for minCount pods/);
    assert.match(text, /default\/train-a-0 +Scheduled +gpu-a1/);
  });

  it('explains groups over a timeline too', async () => {
    const { groups } = await runExplainTimeline(parseScenario(bundled, 'workload-gangs.yaml'), opts);
    const byName = new Map((groups ?? []).map((g) => [g.group, summary(g)]));
    assert.equal(byName.get('default/train-a')?.outcome, 'Scheduled');
    assert.equal(byName.get('default/train-b')?.outcome, 'Unschedulable');
    assert.equal(byName.get('default/eval')?.outcome, 'Waiting');
  });
});

describe('explain CompositePodGroup trees', () => {
  const treeOpts = { ...opts, featureGates: FeatureGates.parse(['GenericWorkload=true', 'TopologyAwareWorkloadScheduling=true', 'CompositePodGroup=true']) };
  const ref = '{ workloadName: w, templateName: t }';
  const group = (name: string, parent: string, minCount: number) =>
    `- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: ${name} }, spec: { parentCompositePodGroupName: ${parent}, workloadRef: ${ref}, schedulingPolicy: { gang: { minCount: ${minCount} } } } }`;
  const composite = (name: string, policy: string, parent?: string) =>
    `- { apiVersion: scheduling.k8s.io/v1alpha3, kind: CompositePodGroup, metadata: { name: ${name} }, spec: { ${parent ? `parentCompositePodGroupName: ${parent}, ` : ''}workloadRef: ${ref}, schedulingPolicy: ${policy} } }`;
  const member = (name: string, group: string, cpu: string) =>
    `- { metadata: { name: ${name} }, spec: { schedulingGroup: { podGroupName: ${group} }, containers: [{ name: c, image: x, resources: { requests: { cpu: "${cpu}" } } }] } }`;
  // Two 4-cpu nodes. `fits`: a composite over gangs a (2 x 1 cpu) and a nested composite `inner`
  // over gang b (1 x 1 cpu). `big`: both children needed, but y asks 8 cpu: nothing of it binds.
  const yaml = `
objects:
${composite('fits', '{ gang: { minGroupCount: 2 } }')}
${group('a', 'fits', 2)}
${composite('inner', '{ basic: {} }', 'fits')}
${group('b', 'inner', 1)}
${composite('big', '{ gang: { minGroupCount: 2 } }')}
${group('x', 'big', 1)}
${group('y', 'big', 1)}
nodes:
- { metadata: { name: n1 }, status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } } }
- { metadata: { name: n2 }, status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } } }
pending:
${member('a0', 'a', '1')}
${member('a1', 'a', '1')}
${member('b0', 'b', '1')}
${member('x0', 'x', '1')}
${member('y0', 'y', '8')}
`;
  const gates = { gates: { topologyAwareWorkloadScheduling: true, draWorkloadResourceClaims: false, podGroupPreemptionPolicy: false, compositePodGroup: true } };

  for (const timeline of [false, true]) {
    it(`reports each tree child by child${timeline ? ' (timeline)' : ''}`, async () => {
      const sc = parseScenario(yaml, 'trees.yaml', gates);
      const { trees, groups } = timeline ? await runExplainTimeline(sc, treeOpts) : await runExplain(sc, treeOpts);
      // The per-PodGroup entries stay as they were.
      assert.deepEqual((groups ?? []).map((g) => g.group), ['default/a', 'default/b', 'default/x', 'default/y']);
      assert.deepEqual((trees ?? []).map((t) => [t.group, t.outcome, t.placed]), [['default/fits', 'Scheduled', 3], ['default/big', 'Unschedulable', 0]]);
      const [fits, big] = trees!;
      // Children in the cycle's order (creation, then name): a, then the nested composite holding b.
      assert.deepEqual(fits!.children.map((c) => [c.group, 'children' in c ? 'CompositePodGroup' : 'PodGroup', c.outcome]),
        [['default/a', 'PodGroup', 'Scheduled'], ['default/inner', 'CompositePodGroup', 'Scheduled']]);
      const inner = fits!.children[1]!;
      assert.ok('children' in inner);
      assert.equal(inner.policy, 'basic');
      assert.deepEqual(inner.children.map((c) => c.group), ['default/b']);
      assert.equal(fits!.stoppedBy, null);
      assert.equal(big!.minGroupCount, 2);
      assert.deepEqual(big!.children.map((c) => c.outcome), ['Unschedulable', 'Unschedulable']);
      const y = big!.children[1]!;
      assert.ok(!('children' in y));
      assert.deepEqual(y.firstRejected?.plugins, ['NodeResourcesFit']);
      assert.notEqual(big!.stoppedBy, null);
    });
  }

  it('renders a tree in text, indented by level', async () => {
    const { pods, groups, trees } = await runExplain(parseScenario(yaml, 'trees.yaml', gates), treeOpts);
    const text = renderExplainText(pods, { width: 200 }, groups, trees);
    assert.match(text, /\nCompositePodGroup default\/fits \(gang, minGroupCount 2\) {2}Scheduled: 2\/2 child group\(s\), 3 member\(s\) placed\n {2}Placement all nodes \(2 node\(s\)\): feasible, chosen\n {2}PodGroup default\/a \(gang, minCount 2\) {2}Scheduled: 2\/2 member\(s\) placed\n {4}default\/a0 {2}Scheduled on n[12]\n/);
    assert.match(text, /\n {2}CompositePodGroup default\/inner \(basic\) {2}Scheduled: 1\/1 child group\(s\), 1 member\(s\) placed\n {4}Placement all nodes \(2 node\(s\)\): feasible, chosen\n {4}PodGroup default\/b /);
    assert.match(text, /\nCompositePodGroup default\/big \(gang, minGroupCount 2\) {2}Unschedulable: 0\/2 child group\(s\), 0 member\(s\) placed\n {2}Stopped by: /);
  });

  it('names the victims a tree\'s cycle evicts', async () => {
    // One 4-cpu node held by a low pod of 3 cpu; the high tree's one 2-cpu member needs it gone.
    const preempting = `
objects:
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: low }, value: 10 }
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: high }, value: 100 }
- { apiVersion: scheduling.k8s.io/v1alpha3, kind: CompositePodGroup, metadata: { name: job }, spec: { workloadRef: ${ref}, schedulingPolicy: { gang: { minGroupCount: 1 } }, priorityClassName: high } }
- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: a }, spec: { parentCompositePodGroupName: job, workloadRef: ${ref}, schedulingPolicy: { gang: { minCount: 1 } }, priorityClassName: high } }
nodes:
- { metadata: { name: n1 }, status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } } }
pods:
- { metadata: { name: lone }, spec: { nodeName: n1, priorityClassName: low, containers: [{ name: c, image: x, resources: { requests: { cpu: "3" } } }] } }
pending:
- { metadata: { name: a0 }, spec: { schedulingGroup: { podGroupName: a }, priorityClassName: high, containers: [{ name: c, image: x, resources: { requests: { cpu: "2" } } }] } }
`;
    const { trees } = await runExplain(parseScenario(preempting, 'preempting.yaml', gates), treeOpts);
    const t = trees![0]!;
    assert.deepEqual(t.victims, ['default/lone']);
    assert.deepEqual(t.children.map((c) => c.victims), [['default/lone']]);
  });

  it('has no trees without the gate', async () => {
    const r = await runExplain(parseScenario(bundled, 'workload-gangs.yaml'), opts);
    assert.equal('trees' in r, false);
  });
});

describe('explain: the placements a rack-constrained tree was tried on', () => {
  const treeOpts = { ...opts, featureGates: FeatureGates.parse(['GenericWorkload=true', 'TopologyAwareWorkloadScheduling=true', 'CompositePodGroup=true']) };
  // Racks r1 (one node) and r2 (two); a rack-constrained tree of two 3-cpu members: only r2 holds it.
  const yaml = readFileSync(new URL('../../../test/fixtures/scenarios/workloads/composite-racks.yaml', import.meta.url), 'utf8');
  const gates = { gates: { topologyAwareWorkloadScheduling: true, draWorkloadResourceClaims: false, podGroupPreemptionPolicy: false, compositePodGroup: true } };

  it('lists each rack, why r1 could not hold the tree, and the one chosen', async () => {
    const { pods, groups, trees } = await runExplain(parseScenario(yaml, 'racks.yaml', gates), treeOpts);
    const t = trees![0]!;
    assert.equal(t.outcome, 'Scheduled');
    assert.deepEqual(t.placements?.map((p) => [p.placement, p.nodes, p.feasible, p.score]), [['r1', 1, false, null], ['r2', 2, true, null]]);
    assert.match(t.placements![0]!.message, /Insufficient cpu|cannot be satisfied/);
    assert.equal(t.chosenPlacement, 'r2');
    const text = renderExplainText(pods, { width: 300 }, groups, trees);
    assert.match(text, /\n {2}Placement r1 \(1 node\(s\)\): .+\n {2}Placement r2 \(2 node\(s\)\): feasible, chosen\n/);
  });

  it('scores the placements when more than one is feasible, and chooses the best', async () => {
    const { trees } = await runExplain(parseScenario(yaml.replaceAll('cpu: "3"', 'cpu: "1"'), 'racks.yaml', gates), treeOpts);
    const t = trees![0]!;
    assert.deepEqual(t.placements?.map((p) => [p.placement, p.feasible]), [['r1', true], ['r2', true]]);
    assert.ok(t.placements!.every((p) => typeof p.score === 'number'), JSON.stringify(t.placements));
    const best = Math.max(...t.placements!.map((p) => p.score!));
    assert.equal(t.placements!.find((p) => p.placement === t.chosenPlacement)?.score, best);
  });
});
