// Preemption for a tree of CompositePodGroups (PodGroupPostFilter at the root): the preemptor's
// priority and policy are the root composite's, a victim's priority is its own tree's root's, and
// a victim's `disruptionMode: all` is taken from the highest group of its tree that sets it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfiguration } from '../config/index.js';
import { FeatureGates } from '../config/feature_gates.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import { parseScenario } from '../sim/scenario/scenario.js';
import { runSimulation } from '../sim/simulate/simulate.js';
import type { AttemptRecord } from './scheduler.js';

const registry = inTreeRegistry();

interface Options {
  /** The preemptor tree's class (its root composite's): high (100) or high-never. */
  readonly jobClass: string;
  /** The victim tree's root class; its PodGroups are `high` each, which must not count. */
  readonly oldClass: string;
  /** Where the victim tree sets `disruptionMode: all`: on its root, or nowhere. */
  readonly oldAll: boolean;
  readonly policyGate?: boolean;
  /** A second child `job-b` with one 2-CPU member. */
  readonly secondChild?: boolean;
}

const classes = `
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: low }, value: 10 }
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: high }, value: 100 }
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: high-never }, value: 100, preemptionPolicy: Never }
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: top }, value: 1000 }`;

const composite = (name: string, cls: string, all: boolean, policy: string) =>
  `- { apiVersion: scheduling.k8s.io/v1alpha3, kind: CompositePodGroup, metadata: { name: ${name} }, spec: { workloadRef: { workloadName: w, templateName: job }, schedulingPolicy: { gang: { minGroupCount: 1 } }, priorityClassName: ${cls}${policy}${all ? ', disruptionMode: { all: {} }' : ''} } }`;
const group = (name: string, parent: string, cls?: string, policy = '') =>
  `- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: ${name} }, spec: { parentCompositePodGroupName: ${parent}, workloadRef: { workloadName: w, templateName: t }, schedulingPolicy: { gang: { minCount: 1 } }${cls ? `, priorityClassName: ${cls}` : ''}${policy} } }`;
const pod = (name: string, cpu: string, o: { node?: string; group?: string; cls?: string }) =>
  `- metadata: { name: ${name} }\n  spec: { ${o.node ? `nodeName: ${o.node}, ` : ''}${o.group ? `schedulingGroup: { podGroupName: ${o.group} }, ` : ''}${o.cls ? `priorityClassName: ${o.cls}, ` : ''}containers: [{ name: c, image: x, resources: { requests: { cpu: "${cpu}" } } }] }`;

/**
 * Two 4-CPU nodes. n1 holds a lone low pod and old-a0 (tree `old`, child old-a); n2 holds old-b0
 * (tree `old`, child old-b) beside a top-priority pod, so the preemptor tree `job` (one child, one
 * 4-CPU member) fits only on n1 once both pods there go.
 */
function scenario(o: Options): string {
  const policy = o.policyGate && o.jobClass === 'high-never' ? ', preemptionPolicy: Never' : '';
  return `
objects:
${classes}
- { apiVersion: scheduling.k8s.io/v1beta1, kind: Workload, metadata: { name: w }, spec: { compositePodGroupTemplates: [{ name: job, schedulingPolicy: { basic: {} }, podGroupTemplates: [{ name: t, schedulingPolicy: { basic: {} } }] }] } }
${composite('old', o.oldClass, o.oldAll, '')}
${group('old-a', 'old', 'high')}
${group('old-b', 'old', 'high')}
${composite('job', o.jobClass, false, policy)}
${group('job-a', 'job', o.jobClass, policy)}
${o.secondChild ? group('job-b', 'job', o.jobClass, policy) : ''}
nodes:
- metadata: { name: n1 }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
- metadata: { name: n2 }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
pods:
${pod('lone', '2', { node: 'n1', cls: 'low' })}
${pod('old-a0', '2', { node: 'n1', group: 'old-a' })}
${pod('old-b0', '2', { node: 'n2', group: 'old-b' })}
${pod('top', '2', { node: 'n2', cls: 'top' })}
pending:
${pod('job-a0', '4', { group: 'job-a', cls: o.jobClass })}
${o.secondChild ? pod('job-b0', '2', { group: 'job-b', cls: o.jobClass }) : ''}
`;
}

async function run(o: Options, victims: Map<string, string[]> = new Map()) {
  const policyGate = o.policyGate ?? false;
  const gates = FeatureGates.parse(['GenericWorkload=true', 'TopologyAwareWorkloadScheduling=true', 'CompositePodGroup=true', `PodGroupPreemptionPolicy=${policyGate}`]);
  const scenarioGates = { topologyAwareWorkloadScheduling: true, draWorkloadResourceClaims: false, podGroupPreemptionPolicy: policyGate, compositePodGroup: true };
  const report = await runSimulation(parseScenario(scenario(o), 'composite-preemption.yaml', { gates: scenarioGates }), {
    config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, featureGates: gates,
  }, {
    attempt: (a: AttemptRecord) => {
      if (a.victims.length > 0) victims.set(a.pod.metadata.name ?? '', [...a.victims].sort());
    },
    finished: () => {},
  });
  return Object.fromEntries(report.pods.map((p) => [p.pod.replace('default/', ''), p.outcome]));
}

describe('composite pod group preemption', () => {
  // A member's reported message is its own FitError (as for a single PodGroup): the outcomes tell.
  const cases: { name: string; o: Options; want: Record<string, string> }[] = [
    {
      name: "evicts a victim tree whole when its root sets disruptionMode: all (old-b0 goes with old-a0)",
      o: { jobClass: 'high', oldClass: 'low', oldAll: true },
      want: { lone: 'Preempted', 'old-a0': 'Preempted', 'old-b0': 'Preempted', top: 'Scheduled', 'job-a0': 'Scheduled' },
    },
    {
      name: 'evicts only the pods in the way when no group of the victim tree sets it',
      o: { jobClass: 'high', oldClass: 'low', oldAll: false },
      want: { lone: 'Preempted', 'old-a0': 'Preempted', 'old-b0': 'Scheduled', top: 'Scheduled', 'job-a0': 'Scheduled' },
    },
    {
      name: "ranks a victim by its tree's root, not its own PodGroup (a root as high as the preemptor is safe)",
      o: { jobClass: 'high', oldClass: 'high', oldAll: false },
      want: { lone: 'Scheduled', 'old-a0': 'Scheduled', 'old-b0': 'Scheduled', top: 'Scheduled', 'job-a0': 'Unschedulable' },
    },
    {
      name: "takes the preemption policy from the root composite (PodGroupPreemptionPolicy)",
      o: { jobClass: 'high-never', oldClass: 'low', oldAll: true, policyGate: true },
      want: { lone: 'Scheduled', 'old-a0': 'Scheduled', 'old-b0': 'Scheduled', top: 'Scheduled', 'job-a0': 'Unschedulable' },
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      assert.deepEqual(await run(c.o), c.want);
    });
  }

  it("makes room for every child of the tree and reports the victims once, with the tree's first member", async () => {
    const victims = new Map<string, string[]>();
    const got = await run({ jobClass: 'high', oldClass: 'low', oldAll: true, secondChild: true }, victims);
    assert.deepEqual(got, { lone: 'Preempted', 'old-a0': 'Preempted', 'old-b0': 'Preempted', top: 'Scheduled', 'job-a0': 'Scheduled', 'job-b0': 'Scheduled' });
    assert.deepEqual([...victims], [['job-a0', ['default/lone', 'default/old-a0', 'default/old-b0']]]);
  });
});
