// `run` end to end over real HTTP (loopback) against the embedded API server, in real time
// (`npm run test:e2e`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject, Pod } from '../../api/types.js';
import { ApiServer } from '../../apiserver/server.js';
import { HttpTransport, loadKubeConfig, type RawWatchEvent, type RestRequest, type RestTransport, type WatchHandle } from '../../cluster/kube/rest.js';
import { MemoryCluster } from '../../cluster/memory/store.js';
import { configFromObject, defaultConfiguration, type DefaultedConfiguration } from '../../config/index.js';
import type { ExtenderArgs, ExtenderPreemptionArgs } from '../../extender/wire.js';
import type { AnyPlugin, NodeScore } from '../../framework/interfaces.js';
import { Registry } from '../../framework/registry.js';
import { createLogger, discardLogger, type Logger } from '../../log/logger.js';
import { inTreeRegistry } from '../../plugins/registry.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { RealClock } from '../../util/clock.js';
import { runCommand, startScheduler, type RunningScheduler } from './run.js';
import { targetOf, type FirstLists } from './run_first_lists.js';
import type { Lease } from '../../leaderelection/lease_lock.js';

const registry = inTreeRegistry();
const fastBackoff = { initialMs: 20, maxMs: 100, jitter: 0 };

/** Polls (loopback I/O needs real time) until `pred` holds; fails after `ms`. */
async function waitFor(what: string, pred: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function kubeconfigFor(url: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'embedded', server: url, skipTLSVerify: true }],
    users: [{ name: 'scheduler' }],
    contexts: [{ name: 'embedded', cluster: 'embedded', user: 'scheduler' }],
    currentContext: 'embedded',
  });
  return kc;
}

const kubeconfigYaml = (server: string) => `apiVersion: v1
kind: Config
clusters:
- name: embedded
  cluster:
    server: ${server}
users:
- name: scheduler
  user: {}
contexts:
- name: embedded
  context: {cluster: embedded, user: scheduler}
current-context: embedded
`;

/** Wraps a transport: can cut it off (a partition) or hold pod bindings until released. */
class ControlledTransport implements RestTransport {
  partitioned = false;
  private gate: Promise<void> | null = null;
  private openGate: (() => void) | null = null;
  bindingsRequested = 0;
  /** While set, the node list's answer waits for it. */
  nodeListHeld: Promise<void> | null = null;
  private podListIn: (() => void) | null = null;
  /** Resolves once the pod list's answer has come in. */
  readonly podListed = new Promise<void>((resolve) => {
    this.podListIn = resolve;
  });

  constructor(private readonly inner: RestTransport) {}

  holdBindings(): void {
    this.gate = new Promise((r) => {
      this.openGate = r;
    });
  }

  releaseBindings(): void {
    this.openGate?.();
    this.gate = null;
  }

  async request<T>(req: RestRequest): Promise<T> {
    if (this.partitioned) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    if (req.path.endsWith('/binding')) {
      this.bindingsRequested++;
      if (this.gate) await this.gate;
    }
    if (req.method === 'GET' && req.path === '/api/v1/nodes' && this.nodeListHeld) await this.nodeListHeld;
    const answer = await this.inner.request<T>(req);
    if (req.method === 'GET' && req.path === '/api/v1/pods') this.podListIn?.();
    return answer;
  }

  watch(path: string, query: Readonly<Record<string, string | undefined>>, onEvent: (e: RawWatchEvent) => void, onClose: (err: Error | null) => void, onOpen?: () => void): WatchHandle {
    if (this.partitioned) {
      setImmediate(() => onClose(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })));
      return { close: () => undefined };
    }
    return this.inner.watch(path, query, onEvent, onClose, onOpen);
  }
}

interface Env {
  cluster: MemoryCluster;
  api: ApiServer;
  replicas: { r: RunningScheduler; t: ControlledTransport; http: HttpTransport }[];
  start(o?: { config?: Partial<DefaultedConfiguration>; serve?: boolean; identity?: string; registry?: Registry; log?: Logger; holdNodeList?: Promise<void>; beforeSync?: (r: RunningScheduler, t: ControlledTransport) => void }): Promise<{ r: RunningScheduler; t: ControlledTransport }>;
  /** Stops the API server (its listener and every connection) and starts another on the same port. */
  restartApi(o?: { cluster?: MemoryCluster }): Promise<void>;
  close(): Promise<void>;
}

async function env(objects: KubeObject[]): Promise<Env> {
  const clock = new RealClock();
  let cluster = new MemoryCluster({ clock });
  for (const o of objects) cluster.create(o);
  let api = await ApiServer.start({ cluster, port: 0 });
  const port = api.port;
  const e: Env = {
    get cluster() {
      return cluster;
    },
    get api() {
      return api;
    },
    replicas: [],
    async start(o = {}) {
      const httpT = new HttpTransport(kubeconfigFor(api.url));
      const t = new ControlledTransport(httpT);
      t.nodeListHeld = o.holdNodeList ?? null;
      const base = defaultConfiguration(o.registry ?? registry);
      const config: DefaultedConfiguration = { ...base, ...o.config };
      const r = await startScheduler({
        config,
        registry: o.registry ?? registry,
        transport: t,
        clock,
        log: o.log ?? discardLogger,
        serve: o.serve ? { host: '127.0.0.1', port: 0 } : undefined,
        identity: o.identity,
        backoff: fastBackoff,
      });
      e.replicas.push({ r, t, http: httpT });
      o.beforeSync?.(r, t);
      await r.synced;
      return { r, t };
    },
    async restartApi(o = {}) {
      await api.close();
      if (o.cluster) cluster = o.cluster;
      api = await ApiServer.start({ cluster, port });
    },
    async close() {
      for (const { r, http: h } of e.replicas) {
        r.abort();
        h.destroy();
      }
      await api.close();
    },
  };
  return e;
}

/** A pod as a client creates it: the API server assigns its uid. */
const pod = (name: string, cpu = '100m'): Pod => {
  const p = makePod(name, { requests: { cpu } });
  return { ...p, metadata: { name, namespace: 'default' } };
};
const getPod = (c: MemoryCluster, name: string) => c.get<Pod>('Pod', 'default', name);
const bound = (c: MemoryCluster, name: string) => !!getPod(c, name)?.spec.nodeName;
const bindCount = (c: MemoryCluster, name: string) => c.bindings.filter((b) => b.pod === `default/${name}`).length;
const events = (c: MemoryCluster) => c.list<KubeObject & { reason?: string; note?: string; message?: string; regarding?: { name?: string }; involvedObject?: { name?: string }; reportingController?: string; reportingComponent?: string }>('Event');
const noLeaderElection = (base = defaultConfiguration(registry)) => ({ leaderElection: { ...base.leaderElection, leaderElect: false } });
const fastLeaderElection = (base = defaultConfiguration(registry)) => ({
  leaderElection: { ...base.leaderElection, leaseDuration: '1s', renewDeadline: '800ms', retryPeriod: '200ms' },
});

function httpGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // A fresh connection each time: a pooled one can meet the server's keep-alive timeout and be reset.
    http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

test('binds pods, writes PodScheduled conditions and Scheduled/FailedScheduling events, serves metrics', async () => {
  const e = await env([makeNode('n1', { allocatable: { cpu: '1', memory: '4Gi', pods: '10' } })]);
  try {
    const { r } = await e.start({ serve: true });
    assert.deepEqual(await httpGet(r.port!, '/readyz'), { status: 200, body: 'ok' });
    e.cluster.create(pod('small', '500m'));
    e.cluster.create(pod('huge', '2'));
    await waitFor('small bound', () => bound(e.cluster, 'small'));
    await waitFor('huge marked unschedulable', () => getPod(e.cluster, 'huge')?.status?.conditions?.some((c) => c.type === 'PodScheduled') ?? false);
    assert.equal(getPod(e.cluster, 'small')!.spec.nodeName, 'n1');
    const cond = getPod(e.cluster, 'huge')!.status!.conditions!.find((c) => c.type === 'PodScheduled')!;
    assert.equal(cond.status, 'False');
    assert.equal(cond.reason, 'Unschedulable');
    assert.match(cond.message ?? '', /^0\/1 nodes are available: 1 Insufficient cpu\./);
    await waitFor('events written', () => events(e.cluster).some((ev) => ev.reason === 'FailedScheduling') && events(e.cluster).some((ev) => ev.reason === 'Scheduled'));
    const scheduled = events(e.cluster).find((ev) => ev.reason === 'Scheduled')!;
    assert.equal(scheduled.note ?? scheduled.message, 'Successfully assigned default/small to n1');
    assert.equal(scheduled.reportingController ?? scheduled.reportingComponent, 'default-scheduler');
    const failed = events(e.cluster).find((ev) => ev.reason === 'FailedScheduling')!;
    assert.match(failed.note ?? failed.message ?? '', /^0\/1 nodes are available: 1 Insufficient cpu\./);
    const metrics = await httpGet(r.port!, '/metrics');
    assert.ok(metrics.body.includes('scheduler_schedule_attempts_total{result="scheduled",profile="default-scheduler"} 1'), metrics.body.slice(0, 400));
    assert.ok(metrics.body.includes('scheduler_schedule_attempts_total{result="unschedulable",profile="default-scheduler"} 1'));
    assert.ok(metrics.body.includes('scheduler_pending_pods{queue="unschedulable"} 1'));
    assert.ok(metrics.body.includes('leader_election_master_status{name="kube-scheduler"} 1'));
    assert.equal(await r.shutdown(), 0);
  } finally {
    await e.close();
  }
});

test('a pod list in before the node list: its pending pods are queued at once, its bound pods count on their nodes', async () => {
  // If the bound pod on "big" were lost, the new pods would prefer "big" (8 cpu free against 5, then 3).
  const boundTo = (name: string, node: string, cpu: string): Pod => ({ ...pod(name, cpu), spec: { ...pod(name, cpu).spec, nodeName: node } });
  const e = await env([
    makeNode('big', { allocatable: { cpu: '8', memory: '16Gi', pods: '10' } }),
    makeNode('small', { allocatable: { cpu: '6', memory: '16Gi', pods: '10' } }),
    boundTo('on-big', 'big', '7'),
    boundTo('on-small', 'small', '1'),
    pod('early', '2'),
  ]);
  try {
    let releaseNodes!: () => void;
    const holdNodeList = new Promise<void>((resolve) => (releaseNodes = resolve));
    let queuedBeforeNodes = -1;
    const started = e.start({
      config: noLeaderElection(),
      holdNodeList,
      beforeSync: (r, t) => {
        void t.podListed.then(async () => {
          try {
            await waitFor('the pod list handled', () => r.scheduler.queue.pendingPods().length > 0, 2000);
            queuedBeforeNodes = r.scheduler.queue.pendingPods().length;
          } catch {
            // Not handled before the nodes: the assertion below says so.
          } finally {
            releaseNodes();
          }
        });
      },
    });
    await started;
    assert.equal(queuedBeforeNodes, 1, 'the pending pod was queued while the node list was held');
    await waitFor('early bound', () => bound(e.cluster, 'early'));
    assert.equal(getPod(e.cluster, 'early')!.spec.nodeName, 'small');
    e.cluster.create(pod('late', '2'));
    await waitFor('late bound', () => bound(e.cluster, 'late'));
    assert.equal(getPod(e.cluster, 'late')!.spec.nodeName, 'small');
  } finally {
    await e.close();
  }
});

test('a dropped watch resumes, a 410 Gone relists, and no pod is lost or bound twice', async () => {
  const e = await env([makeNode('n1'), makeNode('n2')]);
  try {
    const { r } = await e.start({ config: noLeaderElection() });
    for (const n of ['a1', 'a2']) e.cluster.create(pod(n));
    await waitFor('a pods bound', () => bound(e.cluster, 'a1') && bound(e.cluster, 'a2'));

    // The API server goes away and comes back with its history: watches resume from their version.
    await e.restartApi();
    e.cluster.create(pod('b1'));
    await waitFor('b1 bound after the watch resumed', () => bound(e.cluster, 'b1'));

    // Now it comes back without the history: the watch gets 410 Gone and the reflector relists.
    await e.api.close();
    e.cluster.create(pod('c1'));
    e.cluster.create(pod('c2'));
    e.cluster.remove('Pod', 'default', 'a1');
    e.cluster.compactHistory();
    await e.restartApi();
    await waitFor('c pods bound after the relist', () => bound(e.cluster, 'c1') && bound(e.cluster, 'c2'));
    assert.ok(r.client.relistCount('Pod') >= 1, 'relisted after 410');
    await waitFor('a1 deletion reconciled', () => r.client.getPod('default', 'a1') === undefined);
    assert.equal(r.scheduler.cache.podCount, 4, 'a2, b1, c1, c2 in the cache; a1 gone');
    e.cluster.create(pod('d1'));
    await waitFor('d1 bound', () => bound(e.cluster, 'd1'));
    for (const n of ['a1', 'a2', 'b1', 'c1', 'c2', 'd1']) assert.equal(bindCount(e.cluster, n), 1, `${n} bound once`);
    assert.equal(await r.shutdown(), 0);
  } finally {
    await e.close();
  }
});

/**
 * Waits for `pred`, checked again on every change of the embedded store and every line the
 * scheduler logs (no polling); fails after `ms`.
 */
function until(what: string, pred: () => boolean, sources: { cluster: () => MemoryCluster; lines: EventEmitter }, ms = 8000): Promise<void> {
  if (pred()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    let unsubscribe = () => {};
    const check = () => {
      if (!pred()) return;
      done();
      resolve();
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`timed out waiting for ${what}`));
    }, ms);
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      sources.lines.off('line', check);
    };
    let watched: MemoryCluster | null = null;
    const follow = () => {
      // The store may be swapped by a restart without data: follow the current one.
      if (watched === sources.cluster()) return;
      unsubscribe();
      watched = sources.cluster();
      const off = watched.subscribe(() => setImmediate(check));
      unsubscribe = () => off();
    };
    follow();
    sources.lines.on('line', () => {
      follow();
      check();
    });
    sources.lines.on('line', check);
  });
}

/** A -v=4 logger whose lines are kept and announced (so tests can wait on what the scheduler says). */
function capturingLogger() {
  const lines: string[] = [];
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  const log = createLogger({ verbosity: 4, sink: (l) => {
    lines.push(l);
    emitter.emit('line', l);
  } });
  return { log, lines, emitter };
}

const outageWarning = 'Informers cannot list or watch the API server; retrying with backoff until it answers';
const recoveredWarning = 'Informers are in sync with the API server again';

test('run survives its API server: stopped and started again on the same port, it resumes; what changed meanwhile is bound once; readyz follows', async () => {
  const e = await env([makeNode('n1', { allocatable: { cpu: '4', memory: '8Gi', pods: '20' } })]);
  const { log, lines, emitter } = capturingLogger();
  const src = { cluster: () => e.cluster, lines: emitter };
  try {
    const { r, t } = await e.start({ config: noLeaderElection(), serve: true, log });
    e.cluster.create(pod('a1'));
    await until('a1 bound', () => bound(e.cluster, 'a1'), src);

    // A binding is on its way when the server goes down: it fails with a connection error.
    t.holdBindings();
    e.cluster.create(pod('inflight'));
    await until('binding sent', () => t.bindingsRequested === 2, src);
    await e.api.close();
    t.releaseBindings();
    await until('the outage noticed', () => lines.some((l) => l.includes(outageWarning)), src);
    assert.equal((await httpGet(r.port!, '/readyz')).status, 500, 'not ready while the informers are away');
    assert.match((await httpGet(r.port!, '/readyz?verbose')).body, /\[-\]informer-sync failed/);
    assert.deepEqual(await httpGet(r.port!, '/healthz'), { status: 200, body: 'ok' }, 'alive all the same');
    e.cluster.create(pod('during'));
    e.cluster.remove('Pod', 'default', 'a1');

    await e.restartApi();
    await until('inflight and during bound', () => bound(e.cluster, 'inflight') && bound(e.cluster, 'during'), src);
    await until('recovery logged', () => lines.some((l) => l.includes(recoveredWarning)), src);
    await until('a1 deletion seen', () => r.client.getPod('default', 'a1') === undefined, src);
    assert.deepEqual(await httpGet(r.port!, '/readyz'), { status: 200, body: 'ok' });
    e.cluster.create(pod('after'));
    await until('after bound', () => bound(e.cluster, 'after'), src);
    for (const n of ['inflight', 'during', 'after']) assert.equal(bindCount(e.cluster, n), 1, `${n} bound once`);
    assert.equal(r.scheduler.cache.podCount, 3, 'inflight, during, after; a1 gone');
    assert.equal(lines.filter((l) => l.includes(outageWarning)).length, 1, 'one warning for the outage, not one per retry');
    assert.match(lines.find((l) => l.includes(recoveredWarning))!, /^W.* outage="\d+\.\d{3}s"/);
    assert.ok(r.client.informerStatus().every((s) => s.synced && s.healthy), JSON.stringify(r.client.informerStatus()));
    assert.equal(await r.shutdown(), 0);
  } finally {
    await e.close();
  }
});

test('an API server that comes back without its data (resourceVersion too large): the informers relist at the latest and reconcile', async () => {
  const e = await env([makeNode('n1'), makeNode('n2')]);
  const { log, lines, emitter } = capturingLogger();
  const src = { cluster: () => e.cluster, lines: emitter };
  try {
    const { r } = await e.start({ config: noLeaderElection(), log });
    for (const n of ['a1', 'a2', 'a3']) e.cluster.create(pod(n));
    await until('a pods bound', () => ['a1', 'a2', 'a3'].every((n) => bound(e.cluster, n)), src);
    // A new store: fewer changes so far, so the informers' resourceVersions are in its future.
    const fresh = new MemoryCluster({ clock: new RealClock() });
    fresh.create(makeNode('n2'));
    fresh.create(makeNode('n3'));
    await e.restartApi({ cluster: fresh });
    await until('nodes reconciled', () => r.client.listNodes().map((n) => n.metadata.name).sort().join() === 'n2,n3', src);
    fresh.create(pod('b1'));
    await until('b1 bound', () => bound(fresh, 'b1'), src);
    assert.equal(r.scheduler.cache.podCount, 1, 'the old pods left the cache');
    assert.equal(r.scheduler.cache.nodeCount, 2);
    assert.ok(lines.some((l) => l.includes('Listing at the last resourceVersion failed; listing the latest')));
    assert.ok(r.client.relistCount('Pod') >= 1);
    assert.equal(await r.shutdown(), 0);
  } finally {
    await e.close();
  }
});

test('a 409 on binding is retried after backoff and the pod is bound once', async () => {
  const e = await env([makeNode('n1')]);
  try {
    const { r } = await e.start({ config: noLeaderElection() });
    e.cluster.injectFault('bind', 409, 1, 'Operation cannot be fulfilled on pods/binding "p": conflict');
    e.cluster.create(pod('p'));
    await waitFor('binding rejected', () => events(e.cluster).some((ev) => ev.reason === 'FailedScheduling'));
    await waitFor('p bound on retry', () => bound(e.cluster, 'p'));
    assert.equal(bindCount(e.cluster, 'p'), 1);
    const failed = events(e.cluster).find((ev) => ev.reason === 'FailedScheduling')!;
    assert.match(failed.note ?? failed.message ?? '', /conflict/);
    assert.equal(await r.shutdown(), 0);
  } finally {
    await e.close();
  }
});

test('two replicas: one leads; when its lease is taken it stops, the other takes over, nothing is bound twice', async () => {
  const e = await env([makeNode('n1'), makeNode('n2')]);
  try {
    const a = await e.start({ config: fastLeaderElection(), identity: 'replica-a' });
    await waitFor('a leads', () => a.r.isLeading());
    const b = await e.start({ config: fastLeaderElection(), identity: 'replica-b' });
    for (const n of ['p1', 'p2', 'p3']) e.cluster.create(pod(n));
    await waitFor('p pods bound', () => ['p1', 'p2', 'p3'].every((n) => bound(e.cluster, n)));
    assert.ok(!b.r.isLeading(), 'the follower does not schedule');
    assert.equal(b.t.bindingsRequested, 0);
    assert.deepEqual(b.r.scheduler.snapshot.list().map((ni) => ni.node?.metadata.name), ['n1', 'n2'], 'the follower\'s snapshot is filled while it waits');

    // Someone else takes the lease: a can no longer renew and must stop at once.
    const lease = e.cluster.get<KubeObject & { spec: Record<string, unknown> }>('Lease', 'kube-system', 'kube-scheduler')!;
    e.cluster.update({ ...lease, spec: { ...lease.spec, holderIdentity: 'intruder', renewTime: new Date().toISOString().replace('Z', '000Z') } });
    assert.equal(await a.r.done, 1, 'a exits with an error after losing the lease');
    assert.ok(!a.r.isLeading());
    await waitFor('b takes over', () => b.r.isLeading(), 5000);
    for (const n of ['q1', 'q2']) e.cluster.create(pod(n));
    await waitFor('q pods bound by b', () => bound(e.cluster, 'q1') && bound(e.cluster, 'q2'));
    assert.equal(b.t.bindingsRequested, 2);
    for (const n of ['p1', 'p2', 'p3', 'q1', 'q2']) assert.equal(bindCount(e.cluster, n), 1, `${n} bound once`);
    const holder = e.cluster.get<KubeObject & { spec: { holderIdentity?: string; leaseTransitions?: number } }>('Lease', 'kube-system', 'kube-scheduler')!.spec;
    assert.equal(holder.holderIdentity, 'replica-b');
    assert.equal(await b.r.shutdown(), 0);
  } finally {
    await e.close();
  }
});

test('shutdown mid-binding: no pod is popped after it starts, the binding in flight finishes, the lease is released', async () => {
  const e = await env([makeNode('n1')]);
  try {
    const { r, t } = await e.start({ config: fastLeaderElection(), identity: 'only' });
    await waitFor('leading', () => r.isLeading());
    t.holdBindings();
    e.cluster.create(pod('inflight'));
    await waitFor('binding sent', () => t.bindingsRequested === 1);
    const exit = r.shutdown();
    e.cluster.create(pod('late'));
    await waitFor('late pod seen', () => r.client.getPod('default', 'late') !== undefined);
    t.releaseBindings();
    assert.equal(await exit, 0);
    assert.ok(bound(e.cluster, 'inflight'), 'the binding in flight completed');
    assert.ok(!bound(e.cluster, 'late'), 'nothing popped after shutdown began');
    assert.equal(t.bindingsRequested, 1);
    const spec = e.cluster.get<KubeObject & { spec: { holderIdentity?: string } }>('Lease', 'kube-system', 'kube-scheduler')!.spec;
    assert.equal(spec.holderIdentity, '', 'lease released');
  } finally {
    await e.close();
  }
});

/** A kubeconfig file naming the embedded API server of `e`. */
function kubeconfigOf(e: Env): string {
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kst-run-')), 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigYaml(e.api.url));
  return kubeconfig;
}

/** The run command with `argv` until pod p is bound, then SIGTERM: its exit code, stderr and signal source. */
async function runUntilPBound(e: Env, argv: string[], first?: FirstLists): Promise<{ code: number; stderr: string; signals: EventEmitter }> {
  const signals = new EventEmitter();
  let stderr = '';
  const exit = runCommand(argv, { stdout: () => undefined, stderr: (t) => (stderr += t) }, signals, first);
  await waitFor('p bound', () => bound(e.cluster, 'p'));
  signals.emit('SIGTERM', 'SIGTERM');
  const code = await exit;
  return { code, stderr, signals };
}

test('the run command: kubeconfig file, JSON logs, SIGTERM exits 0 after releasing the lease', async () => {
  const e = await env([makeNode('n1')]);
  try {
    const kubeconfig = kubeconfigOf(e);
    e.cluster.create(pod('p'));
    const { code, stderr, signals } = await runUntilPBound(e, ['--kubeconfig', kubeconfig, '--secure-port', '0', '--logging-format', 'json', '-v=2']);
    assert.equal(code, 0, stderr);
    assert.equal(signals.listenerCount('SIGTERM'), 0, 'signal handlers removed');
    const spec = e.cluster.get<KubeObject & { spec: { holderIdentity?: string } }>('Lease', 'kube-system', 'kube-scheduler')!.spec;
    assert.equal(spec.holderIdentity, '');
    const lines = stderr.trim().split('\n').map((l) => JSON.parse(l) as { msg: string; v?: number });
    assert.ok(lines.some((l) => l.msg === 'Successfully scheduled pod' && l.v === 2));
    assert.ok(lines.some((l) => l.msg === 'Requested to terminate, exiting'));
  } finally {
    await e.close();
  }
});

test('the run command takes the lease on the Lease read before its code loaded (run_first_lists.ts) without reading it again', async () => {
  const e = await env([makeNode('n1')]);
  try {
    const kubeconfig = kubeconfigOf(e);
    e.cluster.create(pod('p'));
    // Held by another replica for an hour: read afresh, it would keep this one waiting.
    const held = e.cluster.create({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'kube-scheduler', namespace: 'kube-system' }, spec: { holderIdentity: 'other', leaseDurationSeconds: 3600 } } as KubeObject);
    // As read just before it was taken: free, at the same resourceVersion, so the write over it succeeds.
    const early = { ...held, spec: { holderIdentity: '' } } as Lease;
    const first: FirstLists = { target: targetOf(loadKubeConfig(kubeconfig)), lists: new Map(), sent: Promise.resolve(), lease: { namespace: 'kube-system', name: 'kube-scheduler', read: Promise.resolve(early) } };
    const { code, stderr } = await runUntilPBound(e, ['--kubeconfig', kubeconfig, '--secure-port', '0'], first);
    assert.equal(code, 0, stderr);
  } finally {
    await e.close();
  }
});

/**
 * An extender on loopback with filter and preempt verbs: it lets every node through, and of the
 * preemption candidates keeps only `keep`.
 */
async function preemptingExtender(keep: string): Promise<{ url: string; verbs: string[]; close(): Promise<void> }> {
  const verbs: string[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const verb = (req.url ?? '').split('/').pop()!;
      verbs.push(verb);
      let answer: unknown;
      if (verb === 'preempt') {
        const args = JSON.parse(text) as ExtenderPreemptionArgs;
        const victims = args.NodeNameToVictims?.[keep];
        answer = { NodeNameToMetaVictims: victims ? { [keep]: { Pods: (victims.Pods ?? []).map((p) => ({ UID: p.metadata.uid })), NumPDBViolations: victims.NumPDBViolations } } : {} };
      } else {
        const args = JSON.parse(text) as ExtenderArgs;
        answer = { Nodes: args.Nodes, FailedNodes: {}, Error: '' };
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/scheduler`,
    verbs,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

test('with metrics on, an extender\'s preempt verb narrows preemption and batch scoreNodes scores', async () => {
  let batchCalls = 0;
  const counting: AnyPlugin = {
    name: 'CountingScore',
    score: () => 0,
    scoreNodes: (_s, _p, _nodes, out: NodeScore[]) => {
      batchCalls++;
      for (const e of out) e.score = 0;
      return null;
    },
  };
  const withCounting = inTreeRegistry().merge(new Registry([{ name: 'CountingScore', factory: () => counting }]));
  const ext = await preemptingExtender('n2');
  const config = configFromObject({
    apiVersion: 'kubescheduler.config.k8s.io/v1',
    kind: 'KubeSchedulerConfiguration',
    leaderElection: { leaderElect: false },
    extenders: [{ urlPrefix: ext.url, filterVerb: 'filter', preemptVerb: 'preempt', weight: 1 }],
    profiles: [{ schedulerName: 'default-scheduler', plugins: { score: { enabled: [{ name: 'CountingScore', weight: 1 }] } } }],
  }, 'test', withCounting);
  const full = { cpu: '1', memory: '4Gi', pods: '10' };
  const e = await env([
    makeNode('n1', { allocatable: full }),
    makeNode('n2', { allocatable: full }),
    { ...makePod('low-a', { node: 'n1', requests: { cpu: '900m' }, priority: 0 }), metadata: { name: 'low-a', namespace: 'default' } },
    { ...makePod('low-b', { node: 'n2', requests: { cpu: '900m' }, priority: 0 }), metadata: { name: 'low-b', namespace: 'default' } },
  ]);
  try {
    const { r } = await e.start({ config, registry: withCounting, serve: true });
    e.cluster.create(pod('small', '50m'));
    await waitFor('small bound', () => bound(e.cluster, 'small'));
    assert.ok(batchCalls >= 1, 'two feasible nodes were scored through scoreNodes');
    e.cluster.create({ ...pod('high', '500m'), spec: { ...pod('high', '500m').spec, priority: 100 } });
    await waitFor('high bound', () => bound(e.cluster, 'high'));
    assert.equal(getPod(e.cluster, 'high')!.spec.nodeName, 'n2', 'the node the extender kept');
    assert.ok(getPod(e.cluster, 'low-a'), 'the other candidate keeps its pod');
    assert.equal(getPod(e.cluster, 'low-b'), undefined, 'the kept node\'s victim was evicted');
    assert.ok(ext.verbs.includes('preempt'));
    const metrics = (await httpGet(r.port!, '/metrics')).body;
    assert.match(metrics, /^scheduler_preemption_attempts_total [1-9]/m);
    assert.match(metrics, /^scheduler_preemption_victims_count [1-9]/m);
    assert.match(metrics, /^scheduler_framework_extension_point_duration_seconds_count\{extension_point="PostFilter",status="Success",profile="default-scheduler"\} [1-9]/m);
    assert.match(metrics, /^scheduler_scheduling_algorithm_duration_seconds_count [1-9]/m);
    assert.match(metrics, /^scheduler_scheduling_attempt_duration_seconds_count\{result="scheduled",profile="default-scheduler"\} 2$/m);
    assert.match(metrics, /^scheduler_pod_scheduling_sli_duration_seconds_count\{attempts="[2-9]"\} 1$/m, 'the preemptor, bound after its preemption attempt');
    assert.equal(await r.shutdown(), 0);
  } finally {
    await e.close();
    await ext.close();
  }
});

test('at -v=2 a pod is logged as scheduled once bound, and a failed binding with its reason', async () => {
  const e = await env([makeNode('n1')]);
  const lines: { msg: string; v?: number; err?: string; pod?: string }[] = [];
  const log = createLogger({ verbosity: 2, format: 'json', sink: (line) => lines.push(JSON.parse(line) as (typeof lines)[number]) });
  try {
    const { r } = await e.start({ config: noLeaderElection(), log });
    e.cluster.injectFault('bind', 409, 1, 'Operation cannot be fulfilled on pods/binding "p": conflict');
    e.cluster.create(pod('p'));
    await waitFor('p bound on retry', () => bound(e.cluster, 'p'));
    await waitFor('success logged', () => lines.some((l) => l.msg === 'Successfully scheduled pod'));
    const events = lines.filter((l) => l.pod === 'default/p').map((l) => l.msg);
    assert.deepEqual(events, ['Error scheduling pod; retrying', 'Successfully scheduled pod']);
    assert.match(lines.find((l) => l.msg === 'Error scheduling pod; retrying')!.err ?? '', /running Bind plugin "DefaultBinder": .*conflict/);
    assert.equal(await r.shutdown(), 0);
  } finally {
    await e.close();
  }
});

/** A stand-in for the API server's review endpoints: one token, allowed to get /metrics; no client-CA ConfigMap. */
async function reviewServer(): Promise<{ kubeconfig: string; reviews: string[]; close(): Promise<void> }> {
  const reviews: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST') {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'configmaps "extension-apiserver-authentication" not found' }));
        return;
      }
      const o = JSON.parse(body) as { kind: string; spec: { token?: string; user?: string; nonResourceAttributes?: { path: string; verb: string } } };
      reviews.push(o.kind);
      const status = o.kind === 'TokenReview'
        ? (o.spec.token === 'scraper' ? { authenticated: true, user: { username: 'prometheus', groups: [] } } : { authenticated: false })
        : { allowed: o.spec.user === 'prometheus' && o.spec.nonResourceAttributes?.path === '/metrics' };
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ ...o, status }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const dir = mkdtempSync(join(tmpdir(), 'kst-reviews-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigYaml(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  return { kubeconfig, reviews, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

function httpsGet(port: number, path: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // The certificate is the self-signed one made at start-up: nothing to verify it against.
    https.get({ host: '127.0.0.1', port, path, rejectUnauthorized: false, agent: false, headers: token ? { Authorization: `Bearer ${token}` } : {} }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

test('the run command serves HTTPS with a self-signed certificate; /metrics needs a token the API server accepts and allows', async () => {
  const e = await env([makeNode('n1')]);
  const rs = await reviewServer();
  try {
    const dir = mkdtempSync(join(tmpdir(), 'kst-run-'));
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, kubeconfigYaml(e.api.url));
    const port = await freePort();
    const signals = new EventEmitter();
    let stderr = '';
    const exit = runCommand([
      '--kubeconfig', kubeconfig, '--bind-address', '127.0.0.1', '--secure-port', String(port), '--leader-elect=false',
      '--authentication-kubeconfig', rs.kubeconfig, '--authorization-kubeconfig', rs.kubeconfig,
    ], { stdout: () => undefined, stderr: (t) => (stderr += t) }, signals);
    await waitFor('serving', () => stderr.includes('"Serving securely"'));
    assert.deepEqual(await httpsGet(port, '/healthz'), { status: 200, body: 'ok' });
    assert.equal((await httpsGet(port, '/metrics')).status, 403, 'anonymous');
    assert.equal((await httpsGet(port, '/metrics', 'forged')).status, 401);
    const scraped = await httpsGet(port, '/metrics', 'scraper');
    assert.equal(scraped.status, 200);
    assert.match(scraped.body, /scheduler_pending_pods/);
    assert.ok(rs.reviews.includes('TokenReview') && rs.reviews.includes('SubjectAccessReview'));
    assert.match(stderr, /Unable to read configmap\/extension-apiserver-authentication/, 'the client-CA lookup failed and was tolerated');
    signals.emit('SIGTERM', 'SIGTERM');
    assert.equal(await exit, 0, stderr);
  } finally {
    await rs.close();
    await e.close();
  }
});
