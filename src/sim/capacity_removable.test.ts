// capacity --removable's fast paths (empty nodes skipped, no extra copies of the moved pods) give
// the same answers as the straightforward probe they replace, kept here as the oracle.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfiguration } from '../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import type { Node, Pod } from '../api/types.js';
import { podKey } from '../api/types.js';
import type { AttemptRecord } from '../scheduler/scheduler.js';
import { cloneJSON } from '../util/json_clone.js';
import { seededRandom } from '../util/clock.js';
import { removableNodes, type NodeRemoval } from './capacity.js';
import { createEmbedded, type EmbeddedOptions } from './embedded.js';
import type { Scenario } from './scenario.js';

const registry = inTreeRegistry();
const opts = { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, seed: 7 };

/** The probe as first written: every node cordoned, its pods deep-copied, recreated one at a time, all put back. */
async function removableOracle(sc: Scenario, o: EmbeddedOptions): Promise<NodeRemoval[]> {
  let last: AttemptRecord | null = null;
  const { cluster, scheduler } = await createEmbedded({ ...sc, steps: [] }, { ...o, onAttempt: (a) => { last = a; } });
  try {
    for (const p of sc.pending) cluster.create(p);
    await cluster.controllers.settled();
    await scheduler.loop.drain();
    for (const p of cluster.list<Pod>('Pod')) if (!p.spec.nodeName) cluster.remove('Pod', p.metadata.namespace ?? 'default', p.metadata.name ?? '');
    const isDaemon = (p: Pod) => (p.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.kind === 'DaemonSet');
    const all = cluster.list<Pod>('Pod');
    const out: NodeRemoval[] = [];
    for (const name of cluster.list<Node>('Node').map((n) => n.metadata.name ?? '').sort()) {
      const node = cluster.get<Node>('Node', '', name)!;
      const moving = all.filter((p) => p.spec.nodeName === name && !isDaemon(p));
      cluster.update<Node>({ ...node, spec: { ...(node.spec ?? {}), unschedulable: true } });
      const result: NodeRemoval = { node: name, removable: true, pods: [] };
      const copies: Pod[] = [];
      for (const p of moving) {
        cluster.remove('Pod', p.metadata.namespace ?? 'default', p.metadata.name ?? '');
        const c = cloneJSON(p);
        last = null;
        copies.push(cluster.create({ ...c, metadata: { ...c.metadata, uid: undefined, resourceVersion: undefined }, spec: { ...c.spec, nodeName: undefined, preemptionPolicy: 'Never' }, status: {} }));
        await scheduler.loop.drain();
        const a = last as AttemptRecord | null;
        const placed = a?.outcome === 'Scheduled';
        result.pods.push({ pod: podKey(p), node: placed ? a!.node : '', message: placed ? '' : (a?.message ?? 'not attempted') });
        if (!placed) {
          result.removable = false;
          break;
        }
      }
      for (const c of copies) cluster.remove('Pod', c.metadata.namespace ?? 'default', c.metadata.name ?? '');
      for (const p of moving) if (cluster.get('Pod', p.metadata.namespace ?? 'default', p.metadata.name ?? '') === undefined) cluster.create({ ...cloneJSON(p), metadata: { ...cloneJSON(p.metadata), uid: undefined, resourceVersion: undefined } });
      cluster.update<Node>({ ...cluster.get<Node>('Node', '', name)!, spec: node.spec ?? {} });
      await scheduler.loop.drain();
      out.push(result);
    }
    return out;
  } finally {
    scheduler.stop();
  }
}

/**
 * A small cluster drawn from `seed`: nodes of 2 to 8 cpu over two zones, the last and about a third
 * of the others empty;
 * bound pods of 0.5 to 3 cpu, some spread across zones or kept apart per host, and DaemonSet pods.
 */
function generated(seed: number): Scenario {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const nodes: Node[] = Array.from({ length: 9 }, (_, i) => ({
    apiVersion: 'v1', kind: 'Node',
    metadata: { name: `n${i}`, labels: { 'kubernetes.io/hostname': `n${i}`, 'topology.kubernetes.io/zone': `z${i % 2}` } },
    status: { allocatable: { cpu: pick(['2', '4', '8']), memory: '16Gi', pods: '110' } },
  }));
  const used = nodes.slice(0, -1).filter(() => random() < 0.67).map((n) => n.metadata.name!);
  const pods: Pod[] = [];
  for (let i = 0; i < 24 && used.length > 0; i++) {
    const app = pick(['web', 'db', 'batch']);
    const constraint = pick(['none', 'none', 'spread', 'apart']);
    pods.push({
      apiVersion: 'v1', kind: 'Pod',
      metadata: { name: `p${i}`, namespace: 'default', labels: { app } },
      spec: {
        nodeName: pick(used),
        containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: pick(['500m', '1', '2', '3']), memory: '1Gi' } } }],
        ...(constraint === 'spread' ? { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app } } }] } : {}),
        ...(constraint === 'apart' ? { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app } } }] } } } : {}),
      },
    });
  }
  for (const n of used.slice(0, 2)) {
    pods.push({
      apiVersion: 'v1', kind: 'Pod',
      metadata: { name: `agent-${n}`, namespace: 'default', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'ds-1', controller: true }] },
      spec: { nodeName: n, containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' } } }] },
    });
  }
  const pending: Pod[] = [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'late', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '1' } } }] } }];
  return { name: `removable-${seed}`, metadata: {}, config: null, objects: [], nodes, pods, pending, steps: [] };
}

describe('capacity --removable: the fast paths answer as the plain probe does', () => {
  const verdicts: boolean[] = [];
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`generated cluster ${seed}`, async () => {
      const sc = generated(seed);
      const expected = await removableOracle(sc, opts);
      assert.ok(expected.some((r) => r.pods.length === 0), 'the cluster has an empty node');
      assert.ok(expected.some((r) => r.pods.length > 0), 'the cluster has pods to move');
      assert.deepEqual(await removableNodes(sc, opts), expected);
      verdicts.push(...expected.map((r) => r.removable));
    });
  }
  it('the generated clusters have both verdicts', () => {
    assert.ok(verdicts.includes(true) && verdicts.includes(false));
  });
});
