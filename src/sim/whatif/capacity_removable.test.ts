// capacity --removable's fast paths (empty nodes skipped, no extra copies of the moved pods, the fit
// certificate) give the same answers as the straightforward probe they replace, kept here as the
// oracle; and each condition of the certificate sends a node to the scheduler.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfiguration } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import type { Node, Pod } from '../../api/types.js';
import { podKey } from '../../api/types.js';
import type { AttemptRecord } from '../../scheduler/scheduler.js';
import { cloneJSON } from '../../util/json_clone.js';
import { seededRandom } from '../../util/clock.js';
import { removableNodes, type NodeRemoval } from './capacity.js';
import { createEmbedded, type EmbeddedOptions } from '../scenario/embedded.js';
import { leaving, recreatedCopy } from './probe_copy.js';
import type { Scenario } from '../scenario/scenario.js';

const registry = inTreeRegistry();
const opts = { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, seed: 7 };

/** The probe as first written: every node (or those named) cordoned, its pods deep-copied, recreated one at a time, all put back. */
async function removableOracle(sc: Scenario, o: EmbeddedOptions, only?: readonly string[]): Promise<NodeRemoval[]> {
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
    for (const name of only ?? cluster.list<Node>('Node').map((n) => n.metadata.name ?? '').sort()) {
      const node = cluster.get<Node>('Node', '', name)!;
      const moving = all.filter((p) => p.spec.nodeName === name && !isDaemon(p));
      cluster.update<Node>({ ...node, spec: { ...(node.spec ?? {}), unschedulable: true } });
      const result: NodeRemoval = { node: name, removable: true, decidedBy: moving.length === 0 ? 'room' : 'scheduler', pods: [] };
      const copies: Pod[] = [];
      for (const p of moving) {
        cluster.remove('Pod', p.metadata.namespace ?? 'default', p.metadata.name ?? '');
        const c = cloneJSON(p);
        last = null;
        // The copy the probe makes (kept off this node even where the cordon would not keep it off).
        copies.push(cluster.create(recreatedCopy(c, leaving(name, scheduler.profiles.get(c.spec.schedulerName ?? 'default-scheduler')))));
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

/** A claim bound to a volume every node reaches, for the generated pods that use one. */
const volume = {
  apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv-data' },
  spec: { accessModes: ['ReadWriteMany'], capacity: { storage: '1Gi' }, nfs: { server: 'nfs.example', path: '/data' }, claimRef: { namespace: 'default', name: 'data' } },
  status: { phase: 'Bound' },
};
const claim = {
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' },
  spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '1Gi' } }, volumeName: 'pv-data' }, status: { phase: 'Bound' },
};

/** The shapes a generated pod may take: each keeps it simple for the certificate or sends its node to the scheduler. */
const shapes = ['none', 'none', 'none', 'spread', 'apart', 'zone', 'tolerates', 'port', 'claim'] as const;

/** Spec fields of a generated pod of `shape` and label `app`. */
function shaped(shape: (typeof shapes)[number], app: string): Partial<Pod['spec']> {
  switch (shape) {
    case 'spread': return { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app } } }] };
    case 'apart': return { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app } } }] } } };
    case 'zone': return { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['z0'] }] }] } } } };
    case 'tolerates': return { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'batch', effect: 'NoSchedule' }] };
    case 'port': return { containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 80, hostPort: 8080 }], resources: { requests: { cpu: '500m', memory: '1Gi' } } }] };
    case 'claim': return { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] };
    case 'none': return {};
  }
}

/**
 * A small cluster drawn from `seed`: nodes of 2 to 8 cpu over two zones, one tainted for batch,
 * the last and about a third of the others empty; bound pods of 0.5 to 3 cpu, some spread across
 * zones, kept apart per host, kept to a zone, tolerating the taint, on a host port or using a
 * claim (bound to a volume any node reaches); and DaemonSet pods.
 */
function generated(seed: number): Scenario {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const nodes: Node[] = Array.from({ length: 9 }, (_, i) => ({
    apiVersion: 'v1', kind: 'Node',
    metadata: { name: `n${i}`, labels: { 'kubernetes.io/hostname': `n${i}`, 'topology.kubernetes.io/zone': `z${i % 2}` } },
    ...(i === 3 ? { spec: { taints: [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }] } } : {}),
    status: { allocatable: { cpu: pick(['2', '4', '8']), memory: '16Gi', pods: '110' } },
  }));
  const used = nodes.slice(0, -1).filter(() => random() < 0.67).map((n) => n.metadata.name!);
  const pods: Pod[] = [];
  for (let i = 0; i < 24 && used.length > 0; i++) {
    const app = pick(['web', 'db', 'batch']);
    const spec = shaped(pick(shapes), app);
    pods.push({
      apiVersion: 'v1', kind: 'Pod',
      metadata: { name: `p${i}`, namespace: 'default', labels: { app } },
      spec: {
        nodeName: pick(used),
        containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: pick(['500m', '1', '2', '3']), memory: '1Gi' } } }],
        ...spec,
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
  return { name: `removable-${seed}`, metadata: {}, config: null, objects: [volume, claim], nodes, pods, pending, steps: [] };
}

const seeds = [1, 2, 3, 4, 5, 6, 7, 8];

describe('capacity --removable --placements: the scheduler for every node, as the plain probe', () => {
  const verdicts: boolean[] = [];
  for (const seed of seeds) {
    it(`generated cluster ${seed}`, async () => {
      const sc = generated(seed);
      const expected = await removableOracle(sc, opts);
      assert.ok(expected.some((r) => r.pods.length === 0), 'the cluster has an empty node');
      assert.ok(expected.some((r) => r.pods.length > 0), 'the cluster has pods to move');
      assert.deepEqual(await removableNodes(sc, { ...opts, placements: true }), expected);
      verdicts.push(...expected.map((r) => r.removable));
    });
  }
  it('the generated clusters have both verdicts', () => {
    assert.ok(verdicts.includes(true) && verdicts.includes(false));
  });
});

describe('capacity --removable: the certificate says yes only where the plain probe does', () => {
  const decided = { room: 0, scheduler: 0 };
  for (const seed of seeds) {
    it(`generated cluster ${seed}, each node alone`, async () => {
      const sc = generated(seed);
      for (const node of sc.nodes.map((n) => n.metadata.name!)) {
        const [got] = await removableNodes(sc, { ...opts, nodes: [node] });
        const [want] = await removableOracle(sc, opts, [node]);
        assert.equal(got!.removable, want!.removable, `${node}: the verdict`);
        if (got!.decidedBy === 'scheduler' || got!.pods.length === 0) {
          assert.deepEqual(got, want, `${node}: the scheduler's answer`);
        } else {
          assert.deepEqual(got!.pods.map((p) => [p.pod, p.message]), want!.pods.map((p) => [p.pod, p.message]), `${node}: the pods moved`);
          const witnesses = got!.pods.map((p) => p.node);
          assert.equal(new Set(witnesses).size, witnesses.length, `${node}: a distinct node per pod`);
          assert.ok(!witnesses.includes(node) && witnesses.every((w) => sc.nodes.some((n) => n.metadata.name === w)), `${node}: witnesses are other nodes`);
          decided.room++;
          continue;
        }
        if (got!.pods.length > 0) decided.scheduler++;
      }
    });
  }
  for (const seed of seeds) {
    it(`generated cluster ${seed}: the nodes the scheduler decides get the answers they get without the certified ones asked`, async () => {
      const sc = generated(seed);
      const all = await removableNodes(sc, opts);
      const bySchedulerAlone = all.filter((r) => r.decidedBy === 'scheduler');
      assert.deepEqual(await removableNodes(sc, { ...opts, nodes: bySchedulerAlone.map((r) => r.node) }), bySchedulerAlone);
    });
  }
  it('both ways of deciding were taken', () => {
    assert.ok(decided.room > 0 && decided.scheduler > 0, JSON.stringify(decided));
  });
});
