// The planner's what-if questions against the pinned control plane with 300 nodes and the load of
// running workloads, each answer then checked against what the pinned kube-scheduler does when
// the pods are really created: `snapshot` with pods already pending at its start, `capacity --pod`,
// `--add-nodes-like`, `--removable`, the dry-run endpoint of `serve --from-cluster`, and `compare`.
// The asked pods are shaped so that their answer hangs on load, sizes and labels, not on upstream's
// random choice between nodes that score the same. Skipped, saying why, without the binaries.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { runCli } from '../../src/cli/main.js';
import { serveCommand } from '../../src/cli/commands/serve.js';
import type { FitCount, NodeRemoval, NodesNeeded } from '../../src/sim/whatif/capacity.js';
import type { Comparison } from '../../src/sim/whatif/compare.js';
import type { DryRunResult } from '../../src/sim/serve/dryrun.js';
import type { Serving } from '../../src/sim/serve/serve.js';
import { binaries, Child, ControlPlane, eventually, missingBinaries } from './control_plane.js';
import {
  addNamespace, agentPod, allDecided, batchPod, buildPlannerCluster, dbPod, decided, deletePods, inParallel, listPods, load, markReady, nodeName, nodeObject, podObject, webPod,
  type Decision,
} from './planner_cluster.js';

const skip = missingBinaries();
const plan = 'plan';

/** A 4Gi-per-cpu pod allowed only on the named nodes: every node keeps cpu and memory in step. */
const pinnedTo = (namespace: string, name: string, cpu: number, nodes: readonly string[], extra: Record<string, unknown> = {}) =>
  podObject(namespace, name, String(cpu), `${cpu * 4}Gi`, {
    spec: {
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: nodes }] }] } } },
      ...extra,
    },
  });

/**
 * Ten 1-cpu pods over five triples of nodes (a small node with two web pods, an idle small node, a
 * medium node with a batch pod), pods i and i+5 sharing a triple so the second sees the first
 * placed, then one pod that fits nowhere.
 */
function questionPods(prefix: string): Record<string, unknown>[] {
  const pods: Record<string, unknown>[] = [];
  for (let i = 0; i < 10; i++) {
    const k = i % 5;
    pods.push(pinnedTo(plan, `${prefix}-${i}`, 1, [nodeName('s', 10 + k), nodeName('s', 150 + k), nodeName('m', 10 + k)]));
  }
  pods.push(podObject(plan, `${prefix}-huge`, '20', '80Gi'));
  return pods;
}

const neverPreempt = 'never-preempt';
/** A copy of `pod` as `capacity --pod` places it: never preempting. */
const copyOf = (pod: Record<string, unknown>, name: string) =>
  ({ ...pod, metadata: { name, namespace: plan, labels: { app: 'worker' } }, spec: { ...(pod.spec as object), priorityClassName: neverPreempt } });

const nameOf = (o: Record<string, unknown>) => (o.metadata as { name: string }).name;

describe('what-if answers agree with the pinned kube-scheduler on 300 nodes', { skip: skip ?? false, timeout: 900_000 }, () => {
  let cp: ControlPlane;
  let scheduler: Child | undefined;
  let dbUid = '';
  let agentUid = '';
  const file = (name: string) => join(cp.dir, name);

  /** The CLI in this process; fails the test on a non-zero exit. */
  async function cli(args: string[]): Promise<string> {
    let out = '';
    let err = '';
    const code = await runCli(args, { stdout: (s) => (out += s), stderr: (s) => (err += s) });
    assert.equal(code, 0, `${args.join(' ')}: ${err}`);
    return out;
  }

  function writeConfig(name: string, lines: string[]): string {
    const path = file(name);
    writeFileSync(path, [
      'apiVersion: kubescheduler.config.k8s.io/v1', 'kind: KubeSchedulerConfiguration',
      'clientConnection:', `  kubeconfig: ${cp.kubeconfig}`, 'leaderElection:', '  leaderElect: false', ...lines, '',
    ].join('\n'));
    return path;
  }

  async function startScheduler(config: string, extra: string[] = []): Promise<void> {
    await scheduler?.stop();
    scheduler = new Child('kube-scheduler', binaries.kubeScheduler, [
      '--config', config, '--authentication-kubeconfig', cp.kubeconfig, '--authorization-kubeconfig', cp.kubeconfig, '--secure-port', '0', ...extra,
    ]);
  }

  /** Creates pods one at a time, each after the scheduler decided on the one before (the order the answers assume). */
  async function createInTurn(pods: readonly Record<string, unknown>[]): Promise<Decision[]> {
    const out: Decision[] = [];
    for (const p of pods) {
      const ns = (p.metadata as { namespace: string }).namespace;
      await cp.create(`/api/v1/namespaces/${ns}/pods`, p);
      out.push(await decided(cp, ns, nameOf(p)));
    }
    return out;
  }

  /** Runs `check`, adding the scheduler's and control plane's logs to a failure. */
  async function withLogs(t: { diagnostic(s: string): void }, check: () => Promise<void>): Promise<void> {
    try {
      await check();
    } catch (e) {
      t.diagnostic(`--- kube-scheduler\n${scheduler?.tail() ?? ''}\n${cp.logs()}`);
      throw e;
    }
  }

  before(async () => {
    cp = await ControlPlane.start();
    const started = Date.now();
    await buildPlannerCluster(cp);
    for (const ns of [plan, 'team-a', 'team-b']) await addNamespace(cp, ns);
    const uidOf = async (path: string) => ((await cp.api('GET', `/apis/apps/v1/namespaces/${load.namespace}/${path}`)).body as { metadata: { uid: string } }).metadata.uid;
    dbUid = await uidOf('statefulsets/db');
    agentUid = await uidOf('daemonsets/agent');
    process.stderr.write(`# planner cluster built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  });

  after(async () => {
    await scheduler?.stop();
    await cp?.stop();
  });

  it('snapshot: pods pending when kube-scheduler starts are queued in namespace/name order', async (t) => {
    // Created in the reverse of their key order, the first two a second before the others
    // (creation times count whole seconds). Both candidate nodes fit three of the six, and which
    // three depends on the order they are tried in.
    const names = [['team-b', 'p-5'], ['team-a', 'p-4'], ['default', 'p-3'], ['team-b', 'p-2'], ['team-a', 'p-1'], ['default', 'p-0']] as const;
    const created: number[] = [];
    for (const [i, [ns, name]] of names.entries()) {
      if (i === 2) await new Promise((r) => setTimeout(r, Math.max(0, created[1]! + 1050 - Date.now())));
      const p = await cp.create(`/api/v1/namespaces/${ns}/pods`, pinnedTo(ns, name, 1.5, [nodeName('s', 0), nodeName('s', 130)], { schedulerName: 'startup' }));
      created.push(Date.parse((p as { metadata: { creationTimestamp: string } }).metadata.creationTimestamp));
    }
    assert.ok(created[1]! < created[2]!, `creation times ${JSON.stringify(created)}: the first two pods are older`);
    const config = writeConfig('startup.yaml', ['profiles:', '- schedulerName: startup']);
    await cli(['snapshot', '--kubeconfig', cp.kubeconfig, '--config', config, '-o', file('startup-snapshot.yaml')]);
    const simulated = (JSON.parse(await cli(['simulate', file('startup-snapshot.yaml'), '-o', 'json'])) as { pods: { pod: string; node: string; message: string }[] }).pods
      .filter((p) => names.some(([ns, n]) => p.pod === `${ns}/${n}`)).map((p) => [p.pod, p.node, p.message]).sort();

    // client-go's watch-list (WatchListClient, on by default) delivers the initial pods in Go map
    // order, different at each start; with it off they come as listed, in storage key order.
    await startScheduler(config, ['--feature-gates', 'WatchListClient=false']);
    await withLogs(t, async () => {
      const got: string[][] = [];
      for (const [ns, name] of names) {
        const d = await decided(cp, ns, name);
        got.push([d.pod, d.node, d.message]);
      }
      got.sort();
      t.diagnostic(`placements: ${JSON.stringify(got.map(([p, n]) => [p, n]))}`);
      assert.deepEqual(simulated, got);
      assert.deepEqual(got.filter(([, n]) => n !== '').map(([p, n]) => `${p}@${n}`), ['default/p-0@s-130', 'default/p-3@s-130', 'team-a/p-1@s-000']);
    });
    await scheduler?.stop();
    for (const [ns, name] of names) await deletePods(cp, ns, [name]);
  });

  let defaultConfig = '';
  const copies: string[] = [];

  it('capacity --pod: exactly the copies it counts are bound, the next is refused for its reason', async (t) => {
    defaultConfig = writeConfig('default.yaml', []);
    const worker = podObject(plan, 'worker', '2', '8Gi');
    writeFileSync(file('worker.yaml'), stringify(worker));
    await cli(['snapshot', '--kubeconfig', cp.kubeconfig, '-o', file('snapshot-1.yaml')]);
    const fit = JSON.parse(await cli(['capacity', file('snapshot-1.yaml'), '--pod', file('worker.yaml'), '-o', 'json'])) as FitCount;
    // Small nodes: 80 idle ones hold one; medium: 60 with a batch pod hold two, 20 idle ones three; large: one each.
    assert.equal(fit.fits, 80 + 120 + 60 + 20);
    assert.ok(fit.stoppedBy);

    // Copies as capacity makes them: they never preempt. Priority admission takes the policy from
    // a PriorityClass only, so the copies name one of the same priority (0) that says Never.
    await cp.create('/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: neverPreempt }, value: 0, preemptionPolicy: 'Never' });
    for (let i = 0; i <= fit.fits; i++) copies.push(`worker-copy-${i}`);
    await startScheduler(defaultConfig);
    await withLogs(t, async () => {
      await inParallel(copies, (name) => cp.create(`/api/v1/namespaces/${plan}/pods`, copyOf(worker, name)));
      const decisions = [...(await allDecided(cp, plan, copies, 240_000)).values()];
      const refused = decisions.filter((d) => d.node === '');
      assert.equal(decisions.length - refused.length, fit.fits, 'bound copies');
      assert.equal(refused.length, 1);
      assert.equal(refused[0]!.message, fit.stoppedBy!.message);
      // Every node took as many as it has room for, whatever the order: so do the counts per node.
      const perNode = new Map<string, number>();
      for (const d of decisions) if (d.node) perNode.set(d.node, (perNode.get(d.node) ?? 0) + 1);
      assert.deepEqual(Object.fromEntries([...perNode].sort()), Object.fromEntries(fit.placements.map((p) => [p.node, p.copies]).sort()));
    });
  });

  it('capacity --add-nodes-like: the nodes it says to add take every pending copy', async (t) => {
    await withLogs(t, async () => {
      const more: string[] = [];
      for (let i = copies.length; i < copies.length + 12; i++) more.push(`worker-copy-${i}`);
      const worker = parse(readFileSync(file('worker.yaml'), 'utf8')) as Record<string, unknown>;
      await inParallel(more, (name) => cp.create(`/api/v1/namespaces/${plan}/pods`, copyOf(worker, name)));
      copies.push(...more);
      const pending = [...(await allDecided(cp, plan, copies, 120_000)).values()].filter((d) => d.node === '');
      assert.equal(pending.length, 13);

      await cli(['snapshot', '--kubeconfig', cp.kubeconfig, '-o', file('snapshot-2.yaml')]);
      const template = nodeName('m', 60);
      const needed = JSON.parse(await cli(['capacity', file('snapshot-2.yaml'), '--add-nodes-like', template, '-o', 'json'])) as NodesNeeded;
      t.diagnostic(`probes: ${JSON.stringify(needed.probes)}`);
      assert.equal(needed.unschedulableWithout, 13);
      // A new medium node holds three copies beside the DaemonSet's agent pod: 13 need five.
      assert.equal(needed.nodes, 5);

      // The nodes join, and the DaemonSet controller's part: an agent pod on each. The agent (it
      // tolerates not-ready) is there before the node turns ready, as on a real node; otherwise the
      // scheduler could fill a node with copies first and leave another idle (a flaky answer).
      const added = Array.from({ length: needed.nodes }, (_, i) => `${template}-added-${i}`);
      await inParallel(added, (name) => cp.create('/api/v1/nodes', nodeObject(name, '8', '32Gi', 'z1', 'm')));
      await inParallel(added, (name) => cp.create(`/api/v1/namespaces/${load.namespace}/pods`, agentPod(name, agentUid)));
      await inParallel(added, (name) => markReady(cp, name));
      const after = await eventually('every copy bound', async () => {
        const ds = [...(await allDecided(cp, plan, copies)).values()];
        return ds.every((d) => d.node !== '') ? ds : undefined;
      }, 120_000, 500);
      // No added node is idle: one fewer would not have done.
      for (const node of added) assert.ok(after.some((d) => d.node === node), `${node} holds a copy`);

      await scheduler?.stop();
      await deletePods(cp, plan, copies);
      await deletePods(cp, load.namespace, added.map((n) => `agent-${n}`));
      for (const node of added) assert.equal((await cp.api('DELETE', `/api/v1/nodes/${node}`)).status, 200);
    });
  });

  it('capacity --removable: pods of a node it calls removable find room elsewhere, of one it does not, they do not', async (t) => {
    await startScheduler(defaultConfig);
    await withLogs(t, async () => {
      const [small, medium, large] = [nodeName('s', 0), nodeName('m', 0), nodeName('l', 0)];
      await cli(['snapshot', '--kubeconfig', cp.kubeconfig, '-o', file('snapshot-3.yaml')]);
      const removals = JSON.parse(await cli(['capacity', file('snapshot-3.yaml'), '--removable', '--nodes', [small, medium, large].join(','), '-o', 'json'])) as NodeRemoval[];
      assert.deepEqual(removals.map((r) => [r.node, r.removable]), [[small, true], [medium, true], [large, false]]);
      const refusedByCapacity = removals[2]!.pods.find((p) => p.node === '')!;
      assert.equal(refusedByCapacity.pod, `${load.namespace}/db-0`);

      // Cordon and drain as kubectl drain does, one node at a time, the controllers' part played
      // here: the ReplicaSet and the Job make new pods, the StatefulSet the same pod again.
      const get = async <T>(path: string) => (await cp.api('GET', `/apis/${path}`)).body as T;
      const rsUid = (await get<{ metadata: { uid: string } }>(`apps/v1/namespaces/${load.namespace}/replicasets/web-${load.webPodTemplateHash}`)).metadata.uid;
      const job = await get<{ metadata: { uid: string }; spec: { template: { metadata: { labels: Record<string, string> } } } }>(`batch/v1/namespaces/${load.namespace}/jobs/batch`);
      const replacement = (name: string): Record<string, unknown> => {
        if (name.startsWith('web-')) return webPod(`${name}-r`, rsUid);
        if (name.startsWith('batch-')) return batchPod(`${name}-r`, { uid: job.metadata.uid, labels: job.spec.template.metadata.labels });
        return dbPod(Number(name.slice('db-'.length)), dbUid);
      };
      const cordon = async (node: string, unschedulable: boolean) =>
        assert.equal((await cp.api('PATCH', `/api/v1/nodes/${node}`, { spec: { unschedulable } }, 'application/merge-patch+json')).status, 200);
      const drain = async (node: string): Promise<Decision[]> => {
        await cordon(node, true);
        const evicted = (await listPods(cp, load.namespace)).filter((p) => p.spec.nodeName === node && !p.metadata.name.startsWith('agent-')).map((p) => p.metadata.name).sort();
        await deletePods(cp, load.namespace, evicted);
        return createInTurn(evicted.map(replacement));
      };

      for (const node of [small, medium]) {
        const moved = await drain(node);
        t.diagnostic(`${node}: ${JSON.stringify(moved.map((d) => [d.pod, d.node]))}`);
        assert.equal(moved.length, node === small ? 2 : 1);
        for (const d of moved) assert.ok(d.node !== '' && d.node !== node, `${d.pod} moved, to ${d.node || 'nowhere'}`);
        await cordon(node, false);
      }
      const [db0] = await drain(large);
      assert.deepEqual(db0 && [db0.pod, db0.node], [`${load.namespace}/db-0`, ''], 'db-0 finds no room');
      // Capacity's replacement never preempts; the StatefulSet's may, and finds no victims.
      const cause = (m: string) => m.slice(0, m.indexOf(' preemption:'));
      assert.equal(cause(db0!.message), cause(refusedByCapacity.message));

      await cordon(large, false);
      const back = await eventually('db-0 back on its node', async () => {
        const d = await decided(cp, load.namespace, 'db-0');
        return d.node ? d : undefined;
      }, 60_000, 500);
      assert.equal(back.node, large);
    });
  });

  it('serve --from-cluster: the dry-run endpoint names the nodes kube-scheduler then picks', async (t) => {
    let stop!: () => void;
    const stopSignal = new Promise<void>((resolve) => (stop = resolve));
    let serving: Serving | undefined;
    let err = '';
    const done = serveCommand(['--from-cluster', '--kubeconfig', cp.kubeconfig, '--config', defaultConfig, '--port', '0'], { stdout: () => undefined, stderr: (s) => (err += s) }, { stopSignal, onServing: (s) => (serving = s) });
    try {
      await eventually('serve to listen', async () => serving, 120_000, 100);
      const asked = questionPods('dry');
      const res = await fetch(`${serving!.url}/apis/dryrun.kube-scheduler-ts.io/v1/schedule`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pods: asked }) });
      assert.equal(res.status, 200, await res.clone().text());
      const answer = await res.json() as DryRunResult;
      assert.equal(answer.pending.scheduled + answer.pending.unschedulable, 0, 'nothing pending in the cluster');
      await withLogs(t, async () => {
        const real = await createInTurn(asked);
        t.diagnostic(`placements: ${JSON.stringify(real.map((d) => [d.pod, d.node]))}`);
        assert.deepEqual(answer.pods.map((p) => [p.pod, p.node, p.message]), real.map((d) => [d.pod, d.node, d.message]));
        assert.equal(answer.scheduled, 10);
        await deletePods(cp, plan, asked.map(nameOf));
      });
    } finally {
      stop();
    }
    assert.equal(await done, 0, err);
  });

  it('compare: each configuration places the pods as kube-scheduler with it does', async (t) => {
    await scheduler?.stop();
    const most = writeConfig('most-allocated.yaml', [
      'profiles:', '- schedulerName: default-scheduler', '  pluginConfig:', '  - name: NodeResourcesFit', '    args:', '      scoringStrategy:', '        type: MostAllocated',
    ]);
    await cli(['snapshot', '--kubeconfig', cp.kubeconfig, '-o', file('snapshot-4.yaml')]);
    const asked = questionPods('cmp');
    const doc = parse(readFileSync(file('snapshot-4.yaml'), 'utf8')) as Record<string, unknown>;
    writeFileSync(file('what-if.yaml'), stringify({ ...doc, pending: asked }));
    const comparison = JSON.parse(await cli(['compare', file('what-if.yaml'), '--config', defaultConfig, '--config', most, '-o', 'json'])) as Comparison;
    assert.equal(comparison.variants.length, 2);

    const runs: Decision[][] = [];
    const summaries: { unschedulable: number; nodesUsed: number; cpuMean: number; cpuStddev: number }[] = [];
    for (const config of [defaultConfig, most]) {
      await startScheduler(config);
      await withLogs(t, async () => {
        runs.push(await createInTurn(asked));
        summaries.push(await clusterSummary(cp));
        await scheduler?.stop();
        await deletePods(cp, plan, asked.map(nameOf));
      });
    }
    t.diagnostic(`placements: ${JSON.stringify(runs.map((r) => r.map((d) => d.node)))}`);
    const fate = (d: Decision) => d.node || 'Unschedulable';
    const differing = asked.map((_, i) => ({ pod: runs[0]![i]!.pod, fates: [fate(runs[0]![i]!), fate(runs[1]![i]!)] })).filter((d) => d.fates[0] !== d.fates[1]);
    assert.deepEqual(comparison.differences, differing);
    assert.equal(differing.length, 5, 'MostAllocated packs the first pod of each triple onto the busy small node');
    comparison.variants.forEach((v, i) => {
      const real = summaries[i]!;
      assert.equal(v.unschedulable, real.unschedulable, `${v.name}: unschedulable`);
      assert.equal(v.nodesUsed, real.nodesUsed, `${v.name}: nodes used`);
      assert.ok(Math.abs(v.cpu.mean - real.cpuMean) < 1e-9 && Math.abs(v.cpu.stddev - real.cpuStddev) < 1e-9, `${v.name}: cpu ${JSON.stringify(v.cpu)} vs ${JSON.stringify(real)}`);
    });
  });
});

/** What compare summarizes, computed from the real cluster: pods left out, nodes used, requested cpu share per node. */
async function clusterSummary(cp: ControlPlane): Promise<{ unschedulable: number; nodesUsed: number; cpuMean: number; cpuStddev: number }> {
  const nodes = ((await cp.api('GET', '/api/v1/nodes')).body as { items: { metadata: { name: string }; status: { allocatable: { cpu: string } } }[] }).items;
  const milli = (q: string) => (q.endsWith('m') ? Number(q.slice(0, -1)) : Number(q) * 1000);
  const requested = new Map<string, number>();
  let unschedulable = 0;
  for (const ns of [load.namespace, plan]) {
    for (const p of await listPods(cp, ns)) {
      if (!p.spec.nodeName) {
        unschedulable++;
        continue;
      }
      requested.set(p.spec.nodeName, (requested.get(p.spec.nodeName) ?? 0) + p.spec.containers.reduce((a, c) => a + milli(c.resources?.requests?.cpu ?? '0'), 0));
    }
  }
  const shares = nodes.map((n) => Math.min(1, (requested.get(n.metadata.name) ?? 0) / milli(n.status.allocatable.cpu)));
  const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
  const stddev = Math.sqrt(shares.reduce((a, s) => a + (s - mean) ** 2, 0) / shares.length);
  return { unschedulable, nodesUsed: requested.size, cpuMean: mean, cpuStddev: stddev };
}
