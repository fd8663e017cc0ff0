// What-if steps in a scenario timeline (add nodes, cordon, drain, remove nodes, scale) and the
// workload controllers under `simulate`: loading errors name the step and field; the outcome follows.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfiguration } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { parseScenario, ScenarioError } from './scenario.js';
import { runSimulation } from '../simulate/simulate.js';

const base = `
controllers: true
nodes:
- metadata: { name: n1, labels: { kubernetes.io/hostname: n1, zone: a } }
  status: { allocatable: { cpu: "2", memory: 4Gi, pods: "10" } }
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: { name: web }
  spec:
    replicas: 2
    selector: { matchLabels: { app: web } }
    template:
      metadata: { labels: { app: web } }
      spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] }
- apiVersion: apps/v1
  kind: DaemonSet
  metadata: { name: agent }
  spec:
    selector: { matchLabels: { app: agent } }
    template:
      metadata: { labels: { app: agent } }
      spec: { containers: [{ name: c, image: x }] }
`;

const registry = inTreeRegistry();
const opts = { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins };
const run = (steps: string) => runSimulation(parseScenario(`${base}steps:${steps === '' ? ' []' : `\n${steps}`}`, 'whatif.yaml'), opts);
const placements = (r: Awaited<ReturnType<typeof run>>) =>
  r.pods.filter((p) => p.outcome === 'Scheduled').map((p) => `${p.pod.replace(/-[a-z0-9]{5}$/, '').replace(/-[a-z0-9]{8,10}$/, '')}@${p.node}`).sort();

describe('what-if steps: loading', () => {
  const cases: [string, string, RegExp][] = [
    ['cordon of a node that does not exist', '- cordon: [nope]', /whatif\.yaml: steps\[0\]\.cordon\[0\]: nodes "nope" not found/],
    ['scale of an unknown kind', '- scale: [{ kind: Pod, name: web, replicas: 1 }]', /steps\[0\]\.scale\[0\]\.kind: must be one of Deployment, ReplicaSet, StatefulSet, Job/],
    ['scale of a missing workload', '- scale: [{ kind: Deployment, name: api, replicas: 1 }]', /steps\[0\]\.scale\[0\]: deployments\.apps "api" not found/],
    ['negative replicas', '- scale: [{ kind: Deployment, name: web, replicas: -1 }]', /steps\[0\]\.scale\[0\]\.replicas: must be a non-negative integer/],
    ['addNodes with both like and template', '- addNodes: [{ count: 1, like: n1, template: { metadata: { name: t } } }]', /steps\[0\]\.addNodes\[0\]: needs exactly one of like/],
    ['addNodes copying a missing node', '- addNodes: [{ count: 2, like: n9 }]', /steps\[0\]\.addNodes\[0\]\.like: nodes "n9" not found/],
    ['a copy whose name is taken', '- addNodes: [{ count: 2, like: n1, namePrefix: n }]', /steps\[0\]\.addNodes \(node 1\) \(Node n1\): nodes "n1" already exists/],
    ['a misspelt op', '- drian: [n1]', /steps\[0\]: unknown field "drian"/],
  ];
  for (const [name, steps, want] of cases) {
    it(name, () => assert.throws(() => parseScenario(`${base}steps:\n${steps}`, 'whatif.yaml'), (e) => e instanceof ScenarioError && want.test(e.message)));
  }

  it('a node removed in one step cannot be cordoned in a later one', () => {
    assert.throws(() => parseScenario(`${base}steps:\n- removeNodes: [n1]\n- cordon: [n1]`, 'whatif.yaml'), /steps\[1\]\.cordon\[0\]: nodes "n1" not found/);
  });
});

describe('what-if steps under simulate', () => {
  it('controllers create the Deployment\'s and DaemonSet\'s pods, which get scheduled', async () => {
    const r = await run('');
    assert.deepEqual(placements(r), ['default/agent@n1', 'default/web@n1', 'default/web@n1']);
  });

  it('scaling past the capacity leaves a pod unschedulable until nodes like n1 are added', async () => {
    const r = await run(`
- after: 1m
  scale: [{ kind: Deployment, name: web, replicas: 4 }]
- after: 1m
  addNodes: [{ count: 1, like: n1 }]`);
    assert.deepEqual(placements(r), ['default/agent@n1', 'default/agent@n1-0', 'default/web@n1', 'default/web@n1', 'default/web@n1-0', 'default/web@n1-0']);
    assert.equal(r.summary.unschedulable, 0);
  });

  it('draining a node evicts all but daemon pods and cordons it; the replacements go elsewhere', async () => {
    const r = await run(`
- after: 1m
  addNodes: [{ count: 1, like: n1, namePrefix: spare- }]
- after: 1m
  drain: [n1]`);
    const p = placements(r);
    assert.deepEqual(p.filter((x) => x.startsWith('default/web')), ['default/web@spare-0', 'default/web@spare-0']);
    assert.ok(p.includes('default/agent@n1'), 'the daemon pod stays on the drained node');
    assert.equal(r.pods.filter((x) => x.outcome === 'Deleted').length, 2);
  });

  it('removing a node deletes its pods; without room elsewhere they stay unschedulable', async () => {
    const r = await run(`
- after: 1m
  removeNodes: [n1]`);
    assert.equal(r.nodes.length, 0);
    assert.equal(r.summary.unschedulable, 2, 'the two web replacements; the daemon pod has no node to want');
  });

  it('is deterministic for a seed', async () => {
    const steps = `
- after: 1m
  scale: [{ kind: Deployment, name: web, replicas: 3 }]
  addNodes: [{ count: 2, like: n1 }]`;
    assert.deepEqual((await run(steps)).pods.map((p) => [p.pod, p.node]), (await run(steps)).pods.map((p) => [p.pod, p.node]));
  });
});
