// Golden text of `explain --output text`: what a person reads, fixed here so every change to
// it is seen in review. Scenarios are small; the grouping at scale and colour are checked apart.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { admitPod } from '../../cluster/memory/admission.js';
import { defaultConfiguration } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { runExplain, runExplainTimeline, type ExplainPod } from './explain.js';
import { renderExplainText } from './explain_text.js';
import { parseScenario } from '../scenario/scenario.js';

const registry = inTreeRegistry();
const opts = { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, tieBreakByName: true, admitPod };

/** A PDB guards one node's victim, another node has only higher-priority pods, one is tainted. */
const preemption = `objects:
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: high }, value: 1000 }
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: low }, value: 100 }
- apiVersion: policy/v1
  kind: PodDisruptionBudget
  metadata: { name: guard, namespace: default }
  spec: { selector: { matchLabels: { app: guarded } }, maxUnavailable: 0 }
  status: { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 }
nodes:
- metadata: { name: guarded }
  status: { allocatable: { cpu: "2", memory: 8Gi, pods: "10" } }
- metadata: { name: free }
  status: { allocatable: { cpu: "2", memory: 8Gi, pods: "10" } }
- metadata: { name: busy-high }
  status: { allocatable: { cpu: "2", memory: 8Gi, pods: "10" } }
- metadata: { name: tainted }
  spec: { taints: [{ key: dedicated, value: x, effect: NoSchedule }] }
  status: { allocatable: { cpu: "1", memory: 8Gi, pods: "10" } }
pods:
- metadata: { name: low-guarded, namespace: default, labels: { app: guarded } }
  spec: { nodeName: guarded, priorityClassName: low, containers: [{ name: c, image: x, resources: { requests: { cpu: "2" } } }] }
- metadata: { name: low-free, namespace: default, labels: { app: free } }
  spec: { nodeName: free, priorityClassName: low, containers: [{ name: c, image: x, resources: { requests: { cpu: "2" } } }] }
- metadata: { name: high-busy, namespace: default }
  spec: { nodeName: busy-high, priorityClassName: high, containers: [{ name: c, image: x, resources: { requests: { cpu: "2" } } }] }
pending:
- metadata: { name: small, namespace: default }
  spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "100m" } } }], tolerations: [{ key: dedicated, operator: Exists }] }
- metadata: { name: preemptor, namespace: default }
  spec: { priorityClassName: high, containers: [{ name: c, image: x, resources: { requests: { cpu: "2" } } }] }
- metadata: { name: polite, namespace: default }
  spec: { priorityClassName: high, preemptionPolicy: Never, containers: [{ name: c, image: x, resources: { requests: { cpu: "2" } } }] }
`;

const timeline = `
nodes:
- metadata: { name: small }
  status: { allocatable: { cpu: "1", memory: 8Gi, pods: "10" } }
- metadata: { name: small-2 }
  status: { allocatable: { cpu: "1", memory: 8Gi, pods: "10" } }
pending:
- metadata: { name: p, namespace: default }
  spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "2" } } }] }
steps:
- after: 10s
  create:
  - kind: Node
    metadata: { name: big }
    status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
  - kind: Node
    metadata: { name: bigger }
    status: { allocatable: { cpu: "8", memory: 8Gi, pods: "10" } }
`;

const explained = async (yaml: string) => (await runExplain(parseScenario(yaml, 'golden.yaml'), { ...opts, diagnose: true })).pods;

describe('explain --output text (golden)', () => {
  it('rejections, preemption with a PDB, not eligible: 120 columns', async () => {
    assert.equal(renderExplainText(await explained(preemption), { width: 120 }), `default/small  Scheduled on tainted

  Rejected on 3 node(s) (every Filter plugin's verdict; * unresolvable: preemption cannot help):
    NODES  NodeResourcesFit  NODE NAMES
    3      Insufficient cpu  busy-high, free, guarded

  Only tainted passed the filters: not scored.

default/preemptor  Unschedulable, nominated to free
  0/4 nodes are available: 1 node(s) had untolerated taint(s), 3 Insufficient cpu. preemption: found a potential
  placement for pod on node free, preempting 1 victims

  Rejected on 4 node(s) (every Filter plugin's verdict; * unresolvable: preemption cannot help):
    NODES  TaintToleration                     NodeResourcesFit    NODE NAMES
    3      .                                   Insufficient cpu    busy-high, free, guarded
    1      node(s) had untolerated taint(s) *  Insufficient cpu *  tainted

  Preemption: nominated free, evicting 1 pod(s) (decided by FewestPDBViolations among 2 candidates).
    NODES  VICTIMS  PDB VIOLATIONS     MAX PRIORITY  PRIORITY SUM  EARLIEST START  RULED OUT BY         NODE NAMES
    1      1        0                  100           100           not started     chosen               free
    1      1        1 (default/guard)  100           100           not started     FewestPDBViolations  guarded
  The other nodes:
    NODES  WHY NOT                                                          NODE NAMES
    1      no lower-priority pods                                           busy-high
    1      unresolvable: TaintToleration: node(s) had untolerated taint(s)  tainted

default/polite  Unschedulable
  0/4 nodes are available: 1 node(s) had untolerated taint(s), 3 Insufficient cpu. preemption: not eligible due to
  preemptionPolicy=Never.

  Rejected on 4 node(s) (every Filter plugin's verdict; * unresolvable: preemption cannot help):
    NODES  TaintToleration                     NodeResourcesFit    NODE NAMES
    3      .                                   Insufficient cpu    busy-high, free, guarded
    1      node(s) had untolerated taint(s) *  Insufficient cpu *  tainted

  Preemption: not eligible due to preemptionPolicy=Never.
`);
  });

  it('the same at 60 columns: cells narrowed, lines cut, messages wrapped', async () => {
    assert.equal(renderExplainText(await explained(preemption), { width: 60 }), `default/small  Scheduled on tainted

  Rejected on 3 node(s) (every Filter plugin's verdict; * u…
    NODES  NodeResourcesFit  NODE NAMES
    3      Insufficient cpu  busy-high, free, guarded

  Only tainted passed the filters: not scored.

default/preemptor  Unschedulable, nominated to free
  0/4 nodes are available: 1 node(s) had untolerated
  taint(s), 3 Insufficient cpu. preemption: found a
  potential placement for pod on node free, preempting 1
  victims

  Rejected on 4 node(s) (every Filter plugin's verdict; * u…
    NODES  TaintTole...  NodeResour...  NODE NAMES
    3      .             Insufficie...  busy-high, free, gu…
    1      node(s) h...  Insufficie...  tainted

  Preemption: nominated free, evicting 1 pod(s) (decided by
  FewestPDBViolations among 2 candidates).
    NODES  VICTIMS  PDB V...  MAX P...  PRIOR...  EARLI... …
    1      1        0         100       100       not s... …
    1      1        1 (de...  100       100       not s... …
  The other nodes:
    NODES  WHY NOT                                NODE NAMES
    1      no lower-priority pods                 busy-high
    1      unresolvable: TaintToleration: nod...  tainted

default/polite  Unschedulable
  0/4 nodes are available: 1 node(s) had untolerated
  taint(s), 3 Insufficient cpu. preemption: not eligible due
  to preemptionPolicy=Never.

  Rejected on 4 node(s) (every Filter plugin's verdict; * u…
    NODES  TaintTole...  NodeResour...  NODE NAMES
    3      .             Insufficie...  busy-high, free, gu…
    1      node(s) h...  Insufficie...  tainted

  Preemption: not eligible due to preemptionPolicy=Never.
`);
  });

  it('a pod PreFilter rejected: no node table, the plugin and its reason', async () => {
    const yaml = `
nodes:
- metadata: { name: n1 }
  status: { allocatable: { cpu: "2", memory: 8Gi, pods: "10" } }
pending:
- metadata: { name: claims, namespace: default }
  spec:
    containers: [{ name: c, image: x }]
    volumes: [{ name: v, persistentVolumeClaim: { claimName: missing } }]
`;
    // DynamicResources' PostFilter finds no state of its PreFilter and errs with " not found", as upstream's.
    assert.equal(renderExplainText(await explained(yaml), { width: 100 }), `default/claims  Unschedulable
  0/1 nodes are available: persistentvolumeclaim "missing" not found. not found

  PreFilter: VolumeRestrictions rejected the pod before any node was filtered: persistentvolumeclaim
  "missing" not found
`);
  });

  it('scores with their breakdown, and the attempts with what requeued the pod', async () => {
    const { pods } = await runExplainTimeline(parseScenario(timeline, 'timeline.yaml'), opts);
    assert.equal(renderExplainText(pods, { width: 120 }), `default/p  Scheduled on bigger

  Rejected on 2 node(s) (every Filter plugin's verdict; * unresolvable: preemption cannot help):
    NODES  NodeResourcesFit    NODE NAMES
    2      Insufficient cpu *  small, small-2

  Top 2 of 2 scored node(s): weighted score (raw -> normalized):
    PLUGIN                           WEIGHT  bigger (chosen)  big
    TaintToleration                  3       300 (0 -> 100)   300 (0 -> 100)
    NodeResourcesFit                 1       86 (86 -> 86)    73 (73 -> 73)
    VolumeBinding                    1       0 (0 -> 0)       0 (0 -> 0)
    DynamicResources                 2       0 (0 -> 0)       0 (0 -> 0)
    NodeResourcesBalancedAllocation  1       68 (68 -> 68)    62 (62 -> 62)
    ImageLocality                    1       0 (0 -> 0)       0 (0 -> 0)
    TOTAL                                    454              435

  Attempts:
    #1  at 0s  Unschedulable: 0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 Preem…
    #2  at 10s  Scheduled on bigger  requeued by NodeAdd (NodeResourcesFit)
`);
  });
});

/** A pod rejected on `n` nodes, by one of three verdict patterns in turn. */
function rejectedEverywhere(n: number): ExplainPod {
  const fit = { plugin: 'NodeResourcesFit', code: 'Unschedulable', reasons: ['Insufficient cpu'] };
  const taint = { plugin: 'TaintToleration', code: 'UnschedulableAndUnresolvable', reasons: ['node(s) had untolerated taint(s)'] };
  const filter: ExplainPod['filter'] = {};
  const allFilters: ExplainPod['allFilters'] = {};
  for (let i = 0; i < n; i++) {
    const verdicts = [[fit], [taint, fit], [taint]][i % 3]!;
    filter[`node-${i}`] = verdicts[0]!;
    allFilters[`node-${i}`] = verdicts;
  }
  return {
    pod: 'default/big', outcome: 'Unschedulable', node: '', message: `0/${n} nodes are available.`, filter, preFilter: null, scores: {},
    bestNodes: [], nominatedNode: '', victims: [], filterPlugins: ['TaintToleration', 'NodeResourcesFit'], allFilters, scoreDetails: {},
    preemption: null, attempts: [],
  };
}

describe('explain --output text with cloud-length node names', () => {
  it('at --width 160 names every top node in full with its (chosen)/(tied) mark, the columns numbered', async () => {
    const name = (i: number) => `ip-192-168-101-${100 + i}.us-west-2.compute.internal`;
    const nodes = [0, 1, 2, 3].map((i) => `- metadata: { name: ${name(i)} }\n  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }\n`).join('');
    const sc = parseScenario(`nodes:\n${nodes}pending:\n- metadata: { name: web }\n  spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] }\n`, 'eks.yaml');
    const { pods } = await runExplain(sc, { ...opts, diagnose: true });
    const text = renderExplainText(pods, { width: 160 });
    assert.match(text, new RegExp(`NODE 1: ${name(0).replace(/\./g, '\\.')} \\(chosen\\)`));
    assert.match(text, new RegExp(`NODE 2: ${name(1).replace(/\./g, '\\.')} \\(tied\\)`));
    assert.match(text, /^ {4}PLUGIN +WEIGHT +NODE 1 +NODE 2 +NODE 3$/m);
    for (const line of text.split('\n')) assert.ok(line.length <= 160, line);
    // Wide enough for the names: they head the columns as before.
    assert.match(renderExplainText(pods, { width: 250 }), new RegExp(`WEIGHT +${name(0).replace(/\./g, '\\.')} \\(chosen\\) +${name(1).replace(/\./g, '\\.')} \\(tied\\)`));
  });
});

describe('explain --output text at scale and in colour', () => {
  it('groups 5,000 nodes into one row per verdict pattern, naming the first few of each in name order', () => {
    const text = renderExplainText([rejectedEverywhere(5000)], { width: 200 });
    assert.equal(text, `default/big  Unschedulable
  0/5000 nodes are available.

  Rejected on 5000 node(s) (every Filter plugin's verdict; * unresolvable: preemption cannot help):
    NODES  TaintToleration                     NodeResourcesFit  NODE NAMES
    1667   .                                   Insufficient cpu  node-0, node-1002, node-1005, ... (+1664)
    1667   node(s) had untolerated taint(s) *  Insufficient cpu  node-1, node-10, node-100, ... (+1664)
    1666   node(s) had untolerated taint(s) *  .                 node-1001, node-1004, node-1007, ... (+1663)
`);
  });

  it('names the nodes of a group in name order, not the order they were visited', () => {
    const pod = rejectedEverywhere(0);
    const fit = { plugin: 'NodeResourcesFit', code: 'Unschedulable', reasons: ['Insufficient cpu'] };
    for (const node of ['node-03255', 'node-00017', 'node-01000', 'node-00002']) {
      pod.filter[node] = fit;
      pod.allFilters[node] = [fit];
    }
    assert.match(renderExplainText([pod]), /^ {4}4 {6}Insufficient cpu {2}node-00002, node-00017, node-01000, \.\.\. \(\+1\)$/m);
    assert.match(renderExplainText([pod], { allNodes: true }), / node-00002, node-00017, node-01000, node-03255$/m);
  });

  it('names every node when asked', () => {
    const text = renderExplainText([rejectedEverywhere(9)], { allNodes: true });
    assert.match(text, /node-0, node-3, node-6\n/);
    assert.match(text, /node-2, node-5, node-8\n/);
  });

  it('colours only when asked, and a cut line still ends its colour', () => {
    const esc = '\u001b[';
    const pod = rejectedEverywhere(3);
    assert.ok(!renderExplainText([pod]).includes(esc));
    const coloured = renderExplainText([pod], { color: true, width: 30 });
    assert.ok(coloured.startsWith(`${esc}1mdefault/big${esc}0m  ${esc}33mUnschedulable${esc}0m`), coloured);
    for (const line of coloured.split('\n')) {
      const codes = line.split(esc).length - 1;
      const resets = line.split(`${esc}0m`).length - 1;
      assert.equal(codes, 2 * resets, `every colour ends: ${line}`);
      const visible = line.split(esc).map((part, i) => (i === 0 ? part : part.slice(part.indexOf('m') + 1))).join('');
      assert.ok(visible.length <= 30, `cut to the width: ${visible}`);
    }
  });

  it('says so when there is nothing to explain', () => {
    assert.equal(renderExplainText([]), 'No pending pods to explain.\n');
  });
});
