// Opportunistic batching (KEP-5598) end to end on the embedded cluster, with the in-tree plugins:
// when it acts (every Filter/Score plugin signs the pod), what it reuses, and how its decision
// can differ from a full cycle's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../api/types.js';
import { configFromObject } from '../../config/index.js';
import { FeatureGates } from '../../config/feature_gates.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import type { AttemptRecord } from '../../scheduler/scheduler.js';
import { createEmbedded } from '../scenario/embedded.js';
import { parseScenario } from '../scenario/scenario.js';
import { makePod } from '../../testing/builders.js';

const registry = inTreeRegistry();

/** PodTopologySpread without default constraints: the only way the default plugins all sign. */
const listDefaulting = {
  apiVersion: 'kubescheduler.config.k8s.io/v1',
  kind: 'KubeSchedulerConfiguration',
  profiles: [{ schedulerName: 'default-scheduler', pluginConfig: [{ name: 'PodTopologySpread', args: { defaultingType: 'List' } }] }],
};

const nodes = `
nodes:
- metadata: { name: a, labels: { kubernetes.io/hostname: a } }
  status: { allocatable: { cpu: "8", memory: 16Gi, pods: "110" } }
- metadata: { name: b, labels: { kubernetes.io/hostname: b } }
  status: { allocatable: { cpu: "6", memory: 16Gi, pods: "110" } }
- metadata: { name: c, labels: { kubernetes.io/hostname: c } }
  status: { allocatable: { cpu: "5", memory: 16Gi, pods: "110" } }
- metadata: { name: d, labels: { kubernetes.io/hostname: d } }
  status: { allocatable: { cpu: "4", memory: 16Gi, pods: "110" } }
`;

const pod = (name: string, cpu = '3', extra: Partial<Pod['spec']> = {}): Pod => makePod(name, { labels: { app: 'web' }, requests: { cpu, memory: '1Gi' }, spec: extra });

interface Run {
  attempts: AttemptRecord[];
  batchedPods: number;
  create(p: Pod): Promise<void>;
  updateNode(name: string, cpu: string): void;
  advance(ms: number): void;
}

async function run(config: unknown, gates = FeatureGates.defaults): Promise<Run> {
  const sc = parseScenario(nodes, 'batching.yaml');
  const attempts: AttemptRecord[] = [];
  const resolved = config === null ? configFromObject({ apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration' }, 'test', registry) : configFromObject(config, 'test', registry);
  const env = await createEmbedded(sc, { config: resolved, registry, notYetAvailable: notYetAvailablePlugins, featureGates: gates, tieBreakByName: true, onAttempt: (a) => attempts.push(a) });
  const fwk = env.scheduler.profiles.get('default-scheduler')!;
  return {
    attempts,
    get batchedPods() {
      return fwk.batch?.batchedPods ?? 0;
    },
    async create(p) {
      env.cluster.create(p);
      await env.scheduler.loop.drain();
    },
    updateNode(name, cpu) {
      const n = env.cluster.get<Node>('Node', '', name)!;
      env.cluster.update<Node>({ ...n, status: { ...n.status, allocatable: { ...n.status?.allocatable, cpu } } });
    },
    advance(ms) {
      env.clock.advance(ms);
    },
  };
}

const placements = (r: Run) => r.attempts.map((a) => `${a.pod.metadata.name}->${a.node}`);
const evaluated = (r: Run) => r.attempts.map((a) => a.result?.evaluatedNodes ?? 0);
const gatesWith = (value: boolean) => FeatureGates.parse([`OpportunisticBatching=${value}`]);

describe('opportunistic batching', () => {
  it('acts with defaultingType List: the next pod with one signature takes the stored ranking\'s next node', async () => {
    const r = await run(listDefaulting);
    for (const name of ['p1', 'p2', 'p3', 'p4']) await r.create(pod(name));
    // After the first, each pod is tried on its hint alone.
    assert.deepEqual(evaluated(r), [4, 1, 1, 1]);
    assert.equal(r.batchedPods, 3);
    // The ranking is still right here: the full cycles place them alike.
    const off = await run(listDefaulting, gatesWith(false));
    for (const name of ['p1', 'p2', 'p3', 'p4']) await off.create(pod(name));
    assert.deepEqual(placements(r), ['p1->a', 'p2->b', 'p3->c', 'p4->a']);
    assert.deepEqual(placements(off), placements(r));
    assert.deepEqual(evaluated(off), [4, 4, 4, 4]);
  });

  it('does nothing with the default profile: PodTopologySpread\'s system default constraints sign no pod', async () => {
    const r = await run(null);
    for (const name of ['p1', 'p2', 'p3']) await r.create(pod(name));
    assert.deepEqual(evaluated(r), [4, 4, 4]);
    assert.equal(r.batchedPods, 0);
  });

  it('does nothing with the gate off', async () => {
    const r = await run(listDefaulting, gatesWith(false));
    for (const name of ['p1', 'p2', 'p3']) await r.create(pod(name));
    assert.deepEqual(evaluated(r), [4, 4, 4]);
  });

  it('runs a full cycle for a pod with another signature, or once the ranking is older than 500 ms', async () => {
    const r = await run(listDefaulting);
    await r.create(pod('p1'));
    await r.create(pod('other', '2'));
    await r.create(pod('p2', '2'));
    r.advance(501);
    await r.create(pod('p3', '2'));
    assert.deepEqual(evaluated(r), [4, 4, 1, 4]);
  });

  it('runs a full cycle for a pod that another plugin cannot sign (pod affinity, own spread constraints, claims)', async () => {
    const r = await run(listDefaulting);
    const antiAffinity = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'web' } } }] } };
    const spread = [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' as const, labelSelector: { matchLabels: { app: 'web' } } }];
    await r.create(pod('p1', '1', { affinity: antiAffinity }));
    await r.create(pod('p2', '1', { affinity: antiAffinity }));
    await r.create(pod('s1', '1', { topologySpreadConstraints: spread }));
    await r.create(pod('s2', '1', { topologySpreadConstraints: spread }));
    assert.deepEqual(evaluated(r), [4, 4, 4, 4]);
  });

  it('can decide differently from a full cycle: a node that changed since the ranking keeps its old score', async () => {
    const decide = async (gates: FeatureGates) => {
      const r = await run(listDefaulting, gates);
      await r.create(pod('p1'));
      // d grows to be the emptiest node; only a full cycle scores it again.
      r.updateNode('d', '32');
      await r.create(pod('p2'));
      return placements(r);
    };
    assert.deepEqual(await decide(gatesWith(false)), ['p1->a', 'p2->d']);
    assert.deepEqual(await decide(gatesWith(true)), ['p1->a', 'p2->b']);
  });
});
