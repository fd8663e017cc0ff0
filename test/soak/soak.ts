// `npm run soak`: drives two leader-elected `kube-scheduler-ts run` replicas against the embedded
// API server over loopback HTTP while injecting faults (dropped watches, 410, 409/429/500 on
// binding and status writes, lost binding answers, slow answers, API server outages, SIGTERM and
// SIGKILL of the leader), and checks what must never happen: a pod lost, a pod bound twice, a node
// over its allocatable. Bounded in pods and in time; every address is 127.0.0.1.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Node, Pod } from '../../src/api/types.js';
import { computePodResourceRequests, Resource } from '../../src/api/resource_requests.js';
import { ApiServer } from '../../src/apiserver/server.js';
import { MemoryCluster, type VersionedEvent } from '../../src/cluster/memory/store.js';
import { RealClock, seededRandom } from '../../src/util/clock.js';
import { FaultProxy, noFaults, type FaultRates } from './fault_proxy.js';
import { Replicas } from './replicas.js';

export interface SoakOptions {
  pods: number;
  nodes: number;
  seed: number;
  /** The whole run stops after this long, faults or not (a failure when pods are still pending). */
  maxSeconds: number;
  /** Time between two injected disruptions (outage, leader kill, fault burst). */
  faultIntervalMs: number;
  /** Unbound pods the creator keeps at most (the queue depth it aims for). */
  maxPending: number;
  /** Lifetime of a bound pod before it is deleted (a completed workload), ms range. */
  lifetimeMs: [number, number];
  /** Steady fault rates between bursts. */
  baseRates: FaultRates;
  burstRates: FaultRates;
  log?: (line: string) => void;
}

export const fullSoak: SoakOptions = {
  pods: 100_000,
  nodes: 200,
  seed: 1,
  maxSeconds: 1200,
  faultIntervalMs: 4000,
  maxPending: 2000,
  lifetimeMs: [500, 3000],
  baseRates: { watchDrop: 0.05, watchGone: 0.02, writeError: 0.01, bindAnswerLost: 0.003, slow: 0.01 },
  burstRates: { watchDrop: 0.4, watchGone: 0.2, writeError: 0.15, bindAnswerLost: 0.05, slow: 0.1 },
};

/** A few thousand pods in well under a minute: the end-to-end tier's version. */
export const quickSoak: SoakOptions = { ...fullSoak, pods: 3000, nodes: 40, maxSeconds: 120, faultIntervalMs: 2000, maxPending: 600 };

type Disruption = 'outage' | 'sigterm' | 'sigkill' | 'burst';

export interface SoakReport {
  options: Omit<SoakOptions, 'log'>;
  podsCreated: number;
  podsBound: number;
  podsLost: number;
  podsBoundTwice: number;
  nodesOverAllocatable: number;
  seconds: number;
  podsPerSecond: number;
  disruptions: Record<Disruption, number>;
  /** Time from the end of a disruption to the next binding, while pods were pending (s). */
  recoverySeconds: Record<string, { count: number; p50: number; max: number }>;
  faults: FaultProxy['counts'];
  replicaRestarts: number;
  replicaExits: Record<string, number>;
  /** Every violation found, at most 20 described. */
  violations: string[];
  passed: boolean;
}

const here = dirname(fileURLToPath(import.meta.url));
const binPath = join(here, '../../dist/cli/bin.js');
const namespace = 'soak';
const cpuChoices = ['100m', '200m', '250m', '500m'];
const memoryChoices = ['128Mi', '256Mi', '512Mi'];

function makeNode(i: number): Node {
  const name = `soak-node-${String(i).padStart(4, '0')}`;
  const resources = { cpu: '4', memory: '16Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': `zone-${i % 3}` } },
    status: { capacity: resources, allocatable: resources, conditions: [{ type: 'Ready', status: 'True' }] },
  } as Node;
}

function makePod(i: number, random: () => number): Pod {
  const pick = (xs: string[]) => xs[Math.floor(random() * xs.length)]!;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `soak-${i}`, namespace },
    spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: pick(cpuChoices), memory: pick(memoryChoices) } } }] },
  } as Pod;
}

function writeFiles(dir: string, serverUrl: string): { kubeconfig: string; config: string } {
  const kubeconfig = join(dir, 'kubeconfig.yaml');
  writeFileSync(kubeconfig, [
    'apiVersion: v1',
    'kind: Config',
    'clusters: [{name: soak, cluster: {server: "' + serverUrl + '"}}]',
    'users: [{name: soak, user: {}}]',
    'contexts: [{name: soak, context: {cluster: soak, user: soak}}]',
    'current-context: soak',
    '',
  ].join('\n'));
  const config = join(dir, 'config.yaml');
  // Short leases so a killed leader is replaced within seconds; a client fast enough not to be
  // the bottleneck (the faults are what is measured).
  writeFileSync(config, [
    'apiVersion: kubescheduler.config.k8s.io/v1',
    'kind: KubeSchedulerConfiguration',
    'clientConnection: {qps: 5000, burst: 10000}',
    'leaderElection: {leaderElect: true, leaseDuration: 4s, renewDeadline: 3s, retryPeriod: 1s, resourceNamespace: kube-system, resourceName: kube-scheduler-ts-soak}',
    '',
  ].join('\n'));
  return { kubeconfig, config };
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Tracks every pod's binding from the store's change stream and checks the invariants. */
class Invariants {
  readonly unbound = new Set<string>();
  private readonly bindsByUid = new Map<string, number>();
  private readonly used = new Map<string, { r: Resource; pods: number }>();
  private readonly allocatable = new Map<string, Resource>();
  readonly violations: string[] = [];
  bound = 0;
  boundTwice = 0;
  overAllocatable = 0;
  lost = 0;
  lastBindAt = 0;

  constructor(private readonly onBound: (pod: Pod) => void) {}

  private violation(msg: string): void {
    if (this.violations.length < 20) this.violations.push(msg);
  }

  observe({ event }: VersionedEvent): void {
    if (event.kind === 'Node' && event.type !== 'DELETED') {
      const n = event.object as Node;
      this.allocatable.set(n.metadata.name ?? '', Resource.fromList(n.status?.allocatable));
      return;
    }
    if (event.kind !== 'Pod') return;
    const pod = event.object as Pod;
    const old = event.oldObject as Pod | undefined;
    const uid = pod.metadata.uid ?? '';
    const node = pod.spec.nodeName ?? '';
    const oldNode = old?.spec.nodeName ?? '';
    if (event.type === 'ADDED') {
      if (!node) this.unbound.add(uid);
      return;
    }
    if (event.type === 'DELETED') {
      if (!node) {
        this.unbound.delete(uid);
        this.lost++;
        this.violation(`pod ${pod.metadata.name} was deleted before it was ever bound`);
        return;
      }
      this.release(node, pod);
      return;
    }
    if (oldNode && node !== oldNode) {
      this.boundTwice++;
      this.violation(`pod ${pod.metadata.name} moved from ${oldNode} to ${node}`);
      return;
    }
    if (oldNode || !node) return;
    this.unbound.delete(uid);
    const binds = (this.bindsByUid.get(uid) ?? 0) + 1;
    this.bindsByUid.set(uid, binds);
    if (binds > 1) {
      this.boundTwice++;
      this.violation(`pod ${pod.metadata.name} bound ${binds} times`);
    }
    this.bound++;
    this.lastBindAt = performance.now();
    this.take(node, pod);
    this.onBound(pod);
  }

  private take(node: string, pod: Pod): void {
    let u = this.used.get(node);
    if (!u) this.used.set(node, (u = { r: new Resource(), pods: 0 }));
    u.r.add(computePodResourceRequests(pod).resource);
    u.pods++;
    const a = this.allocatable.get(node);
    if (!a) return;
    if (u.r.milliCPU > a.milliCPU || u.r.memory > a.memory || u.pods > a.allowedPodNumber) {
      this.overAllocatable++;
      this.violation(`node ${node} over allocatable after binding ${pod.metadata.name}: cpu ${u.r.milliCPU}m/${a.milliCPU}m, memory ${u.r.memory}/${a.memory}, pods ${u.pods}/${a.allowedPodNumber}`);
    }
  }

  private release(node: string, pod: Pod): void {
    const u = this.used.get(node);
    if (!u) return;
    u.r.sub(computePodResourceRequests(pod).resource);
    u.pods--;
  }
}

export async function runSoak(o: SoakOptions): Promise<SoakReport> {
  const log = o.log ?? (() => undefined);
  const random = seededRandom(o.seed);
  const clock = new RealClock();
  const cluster = new MemoryCluster({ clock, volumeController: false });
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const lifetime = () => o.lifetimeMs[0] + random() * (o.lifetimeMs[1] - o.lifetimeMs[0]);
  const inv = new Invariants((pod) => later(lifetime(), () => cluster.remove('Pod', namespace, pod.metadata.name ?? '')));
  cluster.subscribe((e) => inv.observe(e));
  cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  for (let i = 0; i < o.nodes; i++) cluster.create(makeNode(i));

  let api = await ApiServer.start({ cluster, clock, port: 0 });
  const apiPort = api.port;
  const proxy = await FaultProxy.start({ host: '127.0.0.1', port: apiPort }, seededRandom(o.seed + 1));
  /** The API server process restarts behind the proxy's outage: its watches and connections end. */
  const restartApi = async (downMs: number) => {
    await api.close();
    await new Promise<void>((r) => later(downMs, r));
    api = await ApiServer.start({ cluster, clock, port: apiPort });
  };
  proxy.rates = o.baseRates;
  const dir = mkdtempSync(join(tmpdir(), 'kube-scheduler-ts-soak-'));
  const files = writeFiles(dir, proxy.url);
  const replicas = new Replicas(2, {
    argv: [process.execPath, binPath, 'run', '--kubeconfig', files.kubeconfig, '--config', files.config, '--secure-port', '0'],
    restartDelayMs: 500,
    onLine: (slot, line) => log(`[replica ${slot}] ${line}`),
  });
  replicas.start();

  const started = performance.now();
  const deadline = started + o.maxSeconds * 1000;
  const disruptions: Record<Disruption, number> = { outage: 0, sigterm: 0, sigkill: 0, burst: 0 };
  const recoveries: Record<string, number[]> = {};
  let created = 0;
  let faultsOn = true;

  /** Measures how long after `kind` ended the next pod was bound, if pods were waiting for it. */
  const watchRecovery = (kind: Disruption) => {
    if (inv.unbound.size === 0) return;
    const endedAt = performance.now();
    const check = () => {
      if (inv.lastBindAt > endedAt) {
        (recoveries[kind] ??= []).push((inv.lastBindAt - endedAt) / 1000);
        return;
      }
      if (performance.now() < deadline) later(50, check);
    };
    check();
  };

  const disrupt = async (): Promise<void> => {
    if (!faultsOn) return;
    const kinds: Disruption[] = ['outage', 'sigterm', 'sigkill', 'burst'];
    const kind = kinds[Math.floor(random() * kinds.length)]!;
    disruptions[kind]++;
    log(`-- disruption: ${kind}`);
    switch (kind) {
      case 'outage': {
        // Down at most twice the interval between disruptions, so the API server is up most of
        // the time (8 s at most, in the full run).
        const downMs = 300 + Math.floor(random() * (Math.min(8000, 2 * o.faultIntervalMs) - 300));
        await Promise.all([proxy.outage(downMs), restartApi(downMs / 2)]);
        break;
      }
      case 'sigterm':
      case 'sigkill':
        if (!replicas.signalLeader(kind === 'sigterm' ? 'SIGTERM' : 'SIGKILL')) disruptions[kind]--;
        break;
      case 'burst':
        proxy.rates = o.burstRates;
        await new Promise<void>((r) => later(2000, r));
        proxy.rates = faultsOn ? o.baseRates : noFaults;
        break;
    }
    watchRecovery(kind);
  };

  // A disruption still under way when the next is due skips it: they never pile up.
  let disrupting: Promise<void> | null = null;
  const faultTimer = setInterval(() => {
    if (disrupting !== null) return;
    disrupting = disrupt().finally(() => {
      disrupting = null;
    });
  }, o.faultIntervalMs);

  try {
    // The workload: keep up to maxPending unbound pods until every pod has been created.
    while (created < o.pods && performance.now() < deadline) {
      // A fast scheduler can bind every pod before the first disruption is due: the last batch
      // waits for one, so every soak injects at least one fault while pods are still coming.
      const injected = disruptions.outage + disruptions.sigterm + disruptions.sigkill + disruptions.burst;
      if (injected === 0 && o.pods - created <= o.maxPending) {
        await new Promise<void>((r) => later(50, r));
        continue;
      }
      const room = Math.min(o.maxPending - inv.unbound.size, o.pods - created, 500);
      for (let i = 0; i < room; i++) cluster.create(makePod(created++, random));
      await new Promise<void>((r) => later(20, r));
    }
    // Faults end; every pod still unbound must now be bound.
    faultsOn = false;
    clearInterval(faultTimer);
    await disrupting;
    proxy.rates = noFaults;
    while (inv.unbound.size > 0 && performance.now() < deadline) await new Promise<void>((r) => later(50, r));
  } finally {
    clearInterval(faultTimer);
    await replicas.stop();
    for (const t of timers) clearTimeout(t);
    await proxy.close();
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const seconds = (performance.now() - started) / 1000;
  const stillUnbound = inv.unbound.size;
  if (stillUnbound > 0) inv.violations.push(`${stillUnbound} pods still unbound when the run ended`);
  const podsLost = inv.lost + stillUnbound + (o.pods - created);
  const recoverySeconds: SoakReport['recoverySeconds'] = {};
  for (const [kind, xs] of Object.entries(recoveries)) {
    const sorted = [...xs].sort((a, b) => a - b);
    recoverySeconds[kind] = { count: sorted.length, p50: quantile(sorted, 0.5), max: sorted[sorted.length - 1] ?? 0 };
  }
  const { log: _log, ...options } = o;
  return {
    options,
    podsCreated: created,
    podsBound: inv.bound,
    podsLost,
    podsBoundTwice: inv.boundTwice,
    nodesOverAllocatable: inv.overAllocatable,
    seconds,
    podsPerSecond: inv.bound / seconds,
    disruptions,
    recoverySeconds,
    faults: proxy.counts,
    replicaRestarts: replicas.restarts,
    replicaExits: replicas.exitSummary(),
    violations: inv.violations,
    passed: podsLost === 0 && inv.boundTwice === 0 && inv.overAllocatable === 0,
  };
}

export function renderSoakReport(r: SoakReport): string {
  const lines = [
    `soak: ${r.podsCreated} pods created, ${r.podsBound} bound in ${r.seconds.toFixed(1)} s (${r.podsPerSecond.toFixed(0)} pods/s) on ${r.options.nodes} nodes, seed ${r.options.seed}`,
    `  pods lost: ${r.podsLost}   bound twice: ${r.podsBoundTwice}   nodes over allocatable: ${r.nodesOverAllocatable}   => ${r.passed ? 'PASS' : 'FAIL'}`,
    `  disruptions: ${Object.entries(r.disruptions).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    `  recovery (disruption end -> next binding): ${Object.entries(r.recoverySeconds).map(([k, v]) => `${k} p50 ${v.p50.toFixed(2)} s max ${v.max.toFixed(2)} s (n=${v.count})`).join('; ') || 'none measured'}`,
    `  injected: watch drops ${r.faults.watchDrops}, watch 410s ${r.faults.watchGones}, write errors ${JSON.stringify(r.faults.writeErrors)}, binding answers lost ${r.faults.bindAnswersLost}, slow answers ${r.faults.slowAnswers}, outages ${r.faults.outages}`,
    `  replicas: ${r.replicaRestarts} restarts; exits ${JSON.stringify(r.replicaExits)}`,
  ];
  for (const v of r.violations) lines.push(`  violation: ${v}`);
  return lines.join('\n') + '\n';
}

const usage = `Usage: npm run soak -- [--quick] [--pods N] [--nodes N] [--seed N] [--max-seconds N] [--fault-interval-ms N] [--bind-answer-lost RATE] [--json FILE] [-v]`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean' },
      pods: { type: 'string' },
      nodes: { type: 'string' },
      seed: { type: 'string' },
      'max-seconds': { type: 'string' },
      'fault-interval-ms': { type: 'string' },
      'bind-answer-lost': { type: 'string' },
      json: { type: 'string' },
      v: { type: 'boolean', short: 'v' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(usage + '\n');
    return 0;
  }
  const base = values.quick ? quickSoak : fullSoak;
  const num = (flag: string, v: string | undefined, dflt: number): number => {
    if (v === undefined) return dflt;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`--${flag} must be a positive integer, got "${v}"`);
    return n;
  };
  const lost = values['bind-answer-lost'];
  const lostRate = lost === undefined ? undefined : Number(lost);
  if (lostRate !== undefined && !(lostRate >= 0 && lostRate <= 1)) throw new Error(`--bind-answer-lost must be a rate from 0 to 1, got "${lost}"`);
  const o: SoakOptions = {
    ...base,
    // Bursts lose answers four times as often (as the defaults, 0.003 and 0.05, roughly do).
    ...(lostRate === undefined ? {} : {
      baseRates: { ...base.baseRates, bindAnswerLost: lostRate },
      burstRates: { ...base.burstRates, bindAnswerLost: Math.min(1, 4 * lostRate) },
    }),
    pods: num('pods', values.pods, base.pods),
    nodes: num('nodes', values.nodes, base.nodes),
    seed: num('seed', values.seed, base.seed),
    maxSeconds: num('max-seconds', values['max-seconds'], base.maxSeconds),
    faultIntervalMs: num('fault-interval-ms', values['fault-interval-ms'], base.faultIntervalMs),
    log: values.v ? (line) => process.stderr.write(line + '\n') : undefined,
  };
  const report = await runSoak(o);
  process.stdout.write(renderSoakReport(report));
  if (values.json) writeFileSync(values.json, JSON.stringify(report, null, 2) + '\n');
  return report.passed ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (err: unknown) => {
    process.stderr.write(`soak: ${(err as Error).message}\n`);
    process.exit(2);
  });
}
