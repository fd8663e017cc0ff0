// The diagnosis fields of explain's JSON on small scenarios: every Filter plugin per node, scores
// raw/normalized/weighted, preemption per node, and the attempts with what requeued them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { admitPod } from '../../cluster/memory/admission.js';
import { defaultConfiguration } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { runExplain, runExplainTimeline, type ExplainPod } from './explain.js';
import { parseScenario } from '../scenario/scenario.js';

const registry = inTreeRegistry();
const opts = { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, tieBreakByName: true, admitPod };

const node = (name: string, cpu: string, extra = '') => `
- metadata: { name: ${name} }
  spec: { ${extra} }
  status: { allocatable: { cpu: "${cpu}", memory: 8Gi, pods: "10" } }`;

const pod = (name: string, cpu: string, extra: { node?: string; priorityClass?: string; labels?: string; policy?: string } = {}) => `
- metadata: { name: ${name}, namespace: default${extra.labels ? `, labels: { ${extra.labels} }` : ''} }
  spec:
    ${extra.node ? `nodeName: ${extra.node}` : ''}
    ${extra.priorityClass ? `priorityClassName: ${extra.priorityClass}` : ''}
    ${extra.policy ? `preemptionPolicy: ${extra.policy}` : ''}
    containers: [{ name: c, image: x, resources: { requests: { cpu: "${cpu}" } } }]`;

/** The scenario's pods explained with diagnosis on, by name. */
async function explained(yaml: string): Promise<Map<string, ExplainPod>> {
  const { pods } = await runExplain(parseScenario(yaml, 'test.yaml'), { ...opts, diagnose: true });
  return new Map(pods.map((p) => [p.pod.slice('default/'.length), p]));
}

describe('explain allFilters', () => {
  it('lists every plugin that rejected a node, while filter keeps the first', async () => {
    const pods = await explained(`
nodes:${node('tainted-small', '1', 'taints: [{ key: dedicated, value: x, effect: NoSchedule }]')}${node('roomy', '4')}
pending:${pod('p', '2')}
`);
    const p = pods.get('p')!;
    assert.equal(p.node, 'roomy');
    assert.equal(p.filter['tainted-small']!.plugin, 'TaintToleration');
    assert.deepEqual(p.allFilters['tainted-small']!.map((s) => [s.plugin, s.reasons]), [
      ['TaintToleration', ['node(s) had untolerated taint(s)']],
      ['NodeResourcesFit', ['Insufficient cpu']],
    ]);
    assert.equal(p.allFilters.roomy, undefined, 'a node that passed has no entry');
    assert.ok(p.filterPlugins.includes('TaintToleration') && p.filterPlugins.includes('NodeResourcesFit'));
    assert.deepEqual(p.attempts.map((a) => [a.attempt, a.outcome, a.node, a.requeuedBy]), [[1, 'Scheduled', 'roomy', null]]);
  });

  it('is empty, as every new field, when diagnosis is off', async () => {
    const { pods } = await runExplain(parseScenario(`
nodes:${node('tainted-small', '1', 'taints: [{ key: dedicated, value: x, effect: NoSchedule }]')}${node('roomy', '4')}${node('roomy-too', '4')}
pending:${pod('p', '2')}
`, 'off.yaml'), opts);
    const p = pods[0]!;
    assert.equal(p.filter['tainted-small']!.plugin, 'TaintToleration');
    assert.deepEqual([p.allFilters, p.scoreDetails, p.preemption, p.filterPlugins], [{}, {}, null, []]);
    assert.equal(p.attempts.length, 1);
  });
});

describe('explain scoreDetails', () => {
  it('gives raw, normalized and weighted per plugin per node, consistent with the totals', async () => {
    const pods = await explained(`
nodes:${node('a', '4')}${node('b', '8')}${node('c', '2', 'taints: [{ key: soft, value: x, effect: PreferNoSchedule }]')}
pods:${pod('load', '1', { node: 'a' })}
pending:${pod('p', '1')}
`);
    const p = pods.get('p')!;
    assert.deepEqual(Object.keys(p.scoreDetails).sort(), ['a', 'b', 'c']);
    for (const [n, row] of Object.entries(p.scoreDetails)) {
      let sum = 0;
      for (const [plugin, d] of Object.entries(row)) {
        assert.equal(d.weighted, d.normalized * d.weight, `${n}/${plugin}: weighted is normalized × weight`);
        assert.equal(d.weighted, p.scores[n]![plugin], `${n}/${plugin}: weighted is the score explain always gave`);
        assert.ok(d.normalized >= 0 && d.normalized <= 100);
        sum += d.weighted;
      }
      assert.equal(sum, p.scores[n]!.total, `${n}: the weighted scores add up to the total`);
    }
    // TaintToleration counts intolerable PreferNoSchedule taints (raw) and reverses them when normalizing.
    const taint = (n: string) => p.scoreDetails[n]!.TaintToleration!;
    assert.deepEqual([taint('c').raw, taint('c').normalized, taint('c').weight, taint('c').weighted], [1, 0, 3, 0]);
    assert.deepEqual([taint('a').raw, taint('a').normalized, taint('a').weighted], [0, 100, 300]);
  });
});

describe('explain preemption', () => {
  const priorities = `
objects:
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: high }, value: 1000 }
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: low }, value: 100 }
- apiVersion: policy/v1
  kind: PodDisruptionBudget
  metadata: { name: guard, namespace: default }
  spec: { selector: { matchLabels: { app: guarded } }, maxUnavailable: 0 }
  status: { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 }`;
  const cluster = `${priorities}
nodes:${node('guarded', '2')}${node('free', '2')}${node('busy-high', '2')}${node('mostly-high', '2')}${node('tainted', '2', 'taints: [{ key: dedicated, value: x, effect: NoSchedule }]')}
pods:${pod('low-guarded', '2', { node: 'guarded', priorityClass: 'low', labels: 'app: guarded' })}${pod('low-free', '2', { node: 'free', priorityClass: 'low', labels: 'app: free' })}${pod('high-busy', '2', { node: 'busy-high', priorityClass: 'high' })}${pod('high-mostly', '1500m', { node: 'mostly-high', priorityClass: 'high' })}${pod('low-mostly', '500m', { node: 'mostly-high', priorityClass: 'low' })}`;

  it('says per node why not: a PDB, no lower-priority pods, a plugin that still rejects, an unresolvable verdict', async () => {
    const pods = await explained(`${cluster}
pending:${pod('preemptor', '2', { priorityClass: 'high' })}
`);
    const p = pods.get('preemptor')!;
    assert.equal(p.nominatedNode, 'free');
    assert.deepEqual(p.victims, ['default/low-free']);
    const pre = p.preemption!;
    const verdicts = Object.fromEntries(Object.entries(pre.nodes).map(([n, v]) => [n, v.verdict]));
    assert.deepEqual(verdicts, { 'guarded': 'Candidate', 'free': 'Candidate', 'busy-high': 'NoLowerPriorityPods', 'mostly-high': 'StillRejected', 'tainted': 'NotHelpful' });
    const guarded = pre.nodes.guarded!.candidate!;
    assert.deepEqual([guarded.pdbViolations, guarded.violatedBudgets, guarded.victims], [1, ['default/guard'], ['default/low-guarded']]);
    assert.deepEqual(pre.nodes['mostly-high']!.stillRejectedBy.map((s) => [s.plugin, s.reasons]), [['NodeResourcesFit', ['Insufficient cpu']]]);
    assert.equal(pre.nodes.tainted!.status!.plugin, 'TaintToleration');
    assert.ok(Object.values(pre.nodes).every((n) => n.dryRun === (n.verdict !== 'NotHelpful')), 'the dry run looks at every node preemption may help');
    // The PDB is what decided between the two candidates.
    assert.equal(pre.chosen, 'free');
    assert.equal(pre.decidedBy, 'FewestPDBViolations');
    const byNode = pre.candidates.map((c) => [c.node, c.pdbViolations, c.eliminatedBy]).sort();
    assert.deepEqual(byNode, [['free', 0, null], ['guarded', 1, 'FewestPDBViolations']]);
    const free = pre.candidates.find((c) => c.node === 'free')!;
    assert.deepEqual([free.highestVictimPriority, free.sumOfVictimPriorities, free.victimCount, free.earliestStartOfHighestPriorityVictims], [100, 100, 1, null]);
  });

  it('names the candidates and the rule when several rules tie until the victims\' priorities', async () => {
    const pods = await explained(`${priorities}
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: lower }, value: 10 }
nodes:${node('n-low', '2')}${node('n-lower', '2')}
pods:${pod('low', '2', { node: 'n-low', priorityClass: 'low' })}${pod('lower', '2', { node: 'n-lower', priorityClass: 'lower' })}
pending:${pod('preemptor', '2', { priorityClass: 'high' })}
`);
    const pre = pods.get('preemptor')!.preemption!;
    assert.equal(pre.chosen, 'n-lower');
    assert.equal(pre.decidedBy, 'LowestHighestVictimPriority');
    const byNode = pre.candidates.map((c) => [c.node, c.highestVictimPriority, c.eliminatedBy]).sort();
    assert.deepEqual(byNode, [['n-low', 100, 'LowestHighestVictimPriority'], ['n-lower', 10, null]]);
  });

  it('says when the pod may not preempt at all', async () => {
    const pods = await explained(`${cluster}
pending:${pod('polite', '2', { priorityClass: 'high', policy: 'Never' })}
`);
    const pre = pods.get('polite')!.preemption!;
    assert.equal(pre.notEligible, 'not eligible due to preemptionPolicy=Never.');
    assert.deepEqual([pre.nodes, pre.candidates, pre.chosen, pre.decidedBy], [{}, [], '', null]);
  });
});

describe('explain --timeline attempts', () => {
  it('lists a requeue by a node-add event with the plugin whose hint let it', async () => {
    const sc = parseScenario(`
nodes:${node('small', '1')}
pending:${pod('p', '2')}
steps:
- after: 10s
  create:
  - kind: Node
    metadata: { name: big }
    status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
`, 'timeline.yaml');
    const { pods, simulation } = await runExplainTimeline(sc, opts);
    assert.equal(pods.length, 1);
    const p = pods[0]!;
    assert.deepEqual([p.outcome, p.node], ['Scheduled', 'big']);
    assert.deepEqual(p.attempts.map((a) => [a.attempt, a.outcome, a.time, a.requeuedBy]), [
      [1, 'Unschedulable', 0, null],
      [2, 'Scheduled', 10, { event: 'NodeAdd', plugin: 'NodeResourcesFit' }],
    ]);
    assert.equal(simulation.summary.scheduled, 1);
  });
});
