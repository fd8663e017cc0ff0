// A `reconfigure` step restarts the scheduler with another configuration mid-timeline: profiles,
// plugins and args rebuilt, pending pods queued again, the timeline and the counts carried on;
// a bad configuration stops the run before it starts, naming file, field and reason.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, defaultConfiguration } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { parseScenario, ScenarioError } from '../scenario/scenario.js';
import { runSimulation } from './simulate.js';

const registry = inTreeRegistry();
const opts = { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins };

const node = (name: string) => `
- metadata: { name: ${name}, labels: { kubernetes.io/hostname: ${name} } }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }`;
const pod = (name: string, extra = '') => `
- kind: Pod
  metadata: { name: ${name} }
  spec: { ${extra}containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] }`;

/** MostAllocated on cpu: pods pack onto the fullest node. */
const packing = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args: { scoringStrategy: { type: MostAllocated, resources: [{ name: cpu, weight: 1 }] } }
- schedulerName: batch
`;

const scenario = (reconfigure: string) => `
nodes:${node('n1')}${node('n2')}
pending:${pod('a')}${pod('b')}${pod('late', 'schedulerName: batch, ')}
steps:
- after: 30s
  reconfigure: ${reconfigure}
  create:${pod('c').replace(/\n/g, '\n  ')}${pod('d').replace(/\n/g, '\n  ')}
`;

describe('reconfigure step', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reconfigure-'));
  writeFileSync(join(dir, 'packing.yaml'), packing);

  const cases: [string, string][] = [
    ['a file relative to the scenario', 'packing.yaml'],
    ['an inline configuration', JSON.stringify(JSON.parse(JSON.stringify({ apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration',
      profiles: [{ schedulerName: 'default-scheduler', pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 1 }] } } }] }, { schedulerName: 'batch' }] })))],
  ];
  for (const [name, reconfigure] of cases) {
    it(`${name}: the new profiles place what comes after, and the pods no profile took are queued again`, async () => {
      const file = join(dir, 'scenario.yaml');
      writeFileSync(file, scenario(reconfigure));
      const r = await runSimulation(parseScenario(scenario(reconfigure), file), opts);
      const by = new Map(r.pods.map((p) => [p.pod, p]));
      // Before: the defaults spread a and b (LeastAllocated); no profile schedules "batch".
      assert.notEqual(by.get('default/a')!.node, by.get('default/b')!.node);
      assert.ok(by.get('default/a')!.scheduledAt! < 30);
      // After the restart at 30 s: MostAllocated packs c and d on one node, and "batch" exists.
      assert.equal(by.get('default/c')!.node, by.get('default/d')!.node);
      assert.equal(by.get('default/late')!.outcome, 'Scheduled');
      assert.equal(by.get('default/late')!.scheduledAt, 30);
      assert.equal(r.summary.scheduled, 5);
      assert.ok(r.summary.simulatedSeconds >= 30);
    });
  }

  it('attempts before the restart are counted with those after', async () => {
    const sc = parseScenario(`
nodes:
- metadata: { name: n1, labels: { kubernetes.io/hostname: n1 } }
  spec: { taints: [{ key: dedicated, value: x, effect: NoSchedule }] }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
pending:${pod('p')}
steps:
- after: 1m
  reconfigure:
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    profiles:
    - plugins: { filter: { disabled: [{ name: TaintToleration }] } }
`, 'taint.yaml');
    const r = await runSimulation(sc, opts);
    const p = r.pods.find((x) => x.pod === 'default/p')!;
    assert.equal(p.outcome, 'Scheduled');
    assert.equal(p.scheduledAt, 60);
    assert.ok(p.attempts >= 2, `attempts ${p.attempts}`);
  });

  it('a bad configuration fails the run before it starts, with its file, field path and reason', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npodMaxBackoffSeconds: -1\n');
    const sc = parseScenario(scenario('bad.yaml'), join(dir, 'scenario.yaml'));
    await assert.rejects(runSimulation(sc, opts), (e) => e instanceof ConfigError && e.file === file && /podMaxBackoffSeconds/.test(e.message));
    const inline = parseScenario(scenario('{ apiVersion: kubescheduler.config.k8s.io/v1, kind: KubeSchedulerConfiguration, profiles: [{ plugins: { score: { enabled: [{ name: NoSuchPlugin }] } } }] }'), 'inline.yaml');
    await assert.rejects(runSimulation(inline, opts), (e) => e instanceof ConfigError && e.file === 'inline.yaml: steps[0].reconfigure' && /NoSuchPlugin/.test(e.message));
  });

  it('a missing file or a value of the wrong type is a scenario error naming the step', () => {
    assert.throws(() => parseScenario(scenario('nope.yaml'), join(dir, 'scenario.yaml')), (e) => e instanceof ScenarioError && e.message.includes(`steps[0].reconfigure: cannot read ${join(dir, 'nope.yaml')}: ENOENT`));
    assert.throws(() => parseScenario(scenario('5'), 'x.yaml'), /steps\[0\]\.reconfigure: must be a KubeSchedulerConfiguration or the path of its file/);
  });
});
