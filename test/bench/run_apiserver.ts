// `run` against the pinned kube-apiserver (and etcd), beside the pinned kube-scheduler on the same
// cluster: start to first binding, bindings per second (wall and the scheduler process's own CPU
// time), and leader failover (stop the leader, time to the standby's first binding). `client` is
// no scheduler: it lists the pods and only writes bindings, 16 at a time: the API server's ceiling.
// Needs the binaries of `npm run upstream:build` and a built dist/ (npm run build).
// Run: npx tsx test/bench/run_apiserver.ts [--nodes 5000] [--pods 5000] [--rounds 2]
//        [--schedulers ours,upstream,client] [--failover ours,upstream] [--old DIR]
//        (DIR: another checkout with a built dist/, as "old"; --failover '' skips failover)
//        [--scheduler-env clean|inherit]
// Pinned, as when the control plane has machines of its own: BENCH_SCHEDULER_CPUS=1 taskset -c 0 npx tsx ...
//        (the schedulers on CPU 1; the API server, etcd and this bench on CPU 0).
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { binaries, Child, ControlPlane, eventually, GiveUp, missingBinaries } from '../e2e/control_plane.js';

const { values: flags } = parseArgs({
  options: {
    nodes: { type: 'string', default: '5000' },
    pods: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '2' },
    schedulers: { type: 'string', default: 'ours,upstream,client' },
    failover: { type: 'string', default: 'ours,upstream' },
    old: { type: 'string' },
    'scheduler-env': { type: 'string', default: 'clean' },
  },
});
const nodeCount = Number(flags.nodes);
const podCount = Number(flags.pods);
const rounds = Number(flags.rounds);
// --old adds "old" once, whether or not --schedulers names it too (each kind has one namespace per round).
const schedulers = [...new Set(flags.schedulers.split(',').filter(Boolean).concat(flags.old ? ['old'] : []))];
const failovers = flags.failover.split(',').filter(Boolean);
/** Pods created after the leader stopped, for the standby to bind. */
const failoverPods = 50;
const repo = join(import.meta.dirname, '..', '..');

/**
 * The schedulers' environment. `clean` (the default) gives both only what a scheduler's Pod would
 * have (PATH, HOME, locale, time zone, TMPDIR), so that this shell's settings do not weigh on one
 * side: NODE_EXTRA_CA_CERTS makes Node 20 read and parse that CA bundle before any JavaScript runs
 * (~35 ms on this machine's 140 certificates, at every start), NODE_OPTIONS changes ours, and
 * GOGC, GOMAXPROCS or GODEBUG change upstream's. `inherit` passes this process's environment.
 */
function schedulerEnv(mode: string): NodeJS.ProcessEnv {
  if (mode === 'inherit') return process.env;
  if (mode !== 'clean') throw new Error(`--scheduler-env: ${mode}: expected clean or inherit`);
  const kept = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'];
  return Object.fromEntries(kept.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
}
const childEnv = schedulerEnv(flags['scheduler-env']);
/** Variables of this shell that change a scheduler's start or speed, left out by `--scheduler-env clean`. */
const leftOut = ['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS', 'GOGC', 'GOMAXPROCS', 'GODEBUG', 'GOMEMLIMIT'].filter((k) => process.env[k] !== undefined && childEnv[k] === undefined);

interface Result {
  scheduler: string;
  round: number;
  /** From the scheduler's start to its first binding (informer lists, start-up). */
  startSeconds: number;
  /** The scheduler's CPU seconds until its first binding was seen: the start's cost, whatever the load. */
  startCpuSeconds: number;
  /** Bindings per second from the first to the last. */
  podsPerSecond: number;
  /** The scheduler process's user+system CPU over the whole run. */
  cpuSeconds: number;
}

/** A pool of `width` workers over `count` requests. */
async function inParallel(count: number, width: number, one: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) await one(next++);
  }));
}

/** user+system CPU seconds of a process, from /proc (clock ticks are 100 per second on Linux). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Resolves with the times of the first and the last binding once `expected` pods of `ns` are bound. */
function watchBindings(cp: ControlPlane, ns: string, resourceVersion: string, expected: number, onFirst = () => undefined as void): { done: Promise<{ first: number; last: number }>; close: () => void } {
  const bound = new Set<string>();
  let first = 0;
  let close = () => undefined as void;
  const done = new Promise<{ first: number; last: number }>((resolve, reject) => {
    // The API server may close a watch early (it drops a watcher it finds slow while etcd is busy):
    // the watch then resumes from the last event it saw.
    let ended = false;
    let lastVersion = resourceVersion;
    // Bounded: a server that keeps ending the watch at once fails the run instead of looping.
    let reopensLeft = 20;
    const open = (): void => {
      const req = httpsRequest({
        host: '127.0.0.1', port: cp.port, rejectUnauthorized: false,
        path: `/api/v1/namespaces/${ns}/pods?watch=1&resourceVersion=${lastVersion}&timeoutSeconds=3600`,
        headers: { authorization: `Bearer ${cp.token}`, accept: 'application/json' },
      }, (res) => {
        let buf = '';
        res.on('data', (chunk: Buffer) => {
          buf += chunk.toString();
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            const ev = JSON.parse(line) as { type: string; object: { metadata: { name: string; resourceVersion?: string }; spec?: { nodeName?: string } } };
            if (ev.type === 'ERROR') {
              reject(new Error(`the watch of ${ns} failed after ${bound.size} of ${expected} bindings: ${line}`));
              continue;
            }
            if (ev.object.metadata.resourceVersion) lastVersion = ev.object.metadata.resourceVersion;
            if (!ev.object.spec?.nodeName || bound.has(ev.object.metadata.name)) continue;
            if (bound.size === 0) {
              first = performance.now();
              onFirst();
            }
            bound.add(ev.object.metadata.name);
            if (bound.size === expected) {
              ended = true;
              resolve({ first, last: performance.now() });
              req.destroy();
            }
          }
        });
        res.on('error', reject);
        res.on('end', () => {
          if (ended) return;
          if (res.statusCode === 200 && reopensLeft-- > 0) open();
          else reject(new Error(`the watch of ${ns} ended after ${bound.size} of ${expected} bindings (HTTP ${res.statusCode}${res.statusCode === 200 ? ', resumed 20 times' : ''})`));
        });
      });
      req.on('error', (err) => (bound.size === expected ? undefined : reject(err)));
      req.end();
      close = () => {
        ended = true;
        req.destroy();
      };
    };
    open();
  });
  return { done, close };
}

/**
 * BENCH_SCHEDULER_CPUS (a taskset CPU list, e.g. "1"): the schedulers run on those CPUs only. With
 * the bench itself under `taskset -c 0`, the API server and etcd keep the other core, as on a
 * cluster where they run on machines of their own.
 */
function pinned(command: string, args: string[]): [string, string[]] {
  const cpus = process.env.BENCH_SCHEDULER_CPUS;
  return cpus ? ['taskset', ['-c', cpus, command, ...args]] : [command, args];
}

function schedulerChild(kind: string, config: string, kubeconfig: string, tag = ''): Child {
  if (kind === 'upstream') {
    return new Child(`kube-scheduler${tag}`, ...pinned(binaries.kubeScheduler, [
      '--config', config, '--secure-port', '0', '--authentication-kubeconfig', kubeconfig, '--authorization-kubeconfig', kubeconfig,
    ]), childEnv);
  }
  const root = kind === 'old' ? flags.old! : repo;
  // BENCH_NODE_ARGS: extra flags for node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the start.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  return new Child(`kube-scheduler-ts (${kind})${tag}`, ...pinned(process.execPath, [...nodeArgs, join(root, 'dist', 'cli', 'bin.js'), 'run', '--config', config, '--secure-port', '0', '-v', process.env.BENCH_V ?? '0']), childEnv);
}

/** A scheduler under measurement: a child process, or the in-process bindings-only client. */
interface Runner {
  readonly name: string;
  /** Rejects when it stops on its own (a crash). */
  readonly failed: Promise<never>;
  cpuSeconds(): number;
  stop(): Promise<void>;
  tail(): string;
}

function childRunner(child: Child): Runner {
  return {
    name: child.name,
    failed: child.exited.then((code) => {
      throw new GiveUp(`${child.name} exited (${code}):\n${child.tail()}`);
    }),
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    stop: () => child.stop(),
    tail: () => child.tail(),
  };
}

/** Lists the pending pods of `ns` and binds them round-robin over the nodes, 16 requests at a time. */
function bindingsOnlyClient(cp: ControlPlane, ns: string): Runner {
  const cpu0 = process.cpuUsage();
  let stopped = false;
  const work = (async () => {
    const list = await cp.api('GET', `/api/v1/namespaces/${ns}/pods`);
    const names = (list.body as { items: Array<{ metadata: { name: string } }> }).items.map((p) => p.metadata.name);
    await inParallel(names.length, 16, async (i) => {
      if (stopped) return;
      const r = await cp.api('POST', `/api/v1/namespaces/${ns}/pods/${names[i]}/binding`, {
        metadata: { name: names[i] }, target: { kind: 'Node', name: `node-${i % nodeCount}` },
      });
      if (r.status !== 201) throw new Error(`bind ${names[i]}: ${r.status} ${JSON.stringify(r.body)}`);
    });
  })();
  return {
    name: 'bindings-only client',
    failed: work.then(() => new Promise<never>(() => undefined)),
    cpuSeconds: () => {
      const { user, system } = process.cpuUsage(cpu0);
      return (user + system) / 1e6;
    },
    stop: async () => {
      stopped = true;
      await work.catch(() => undefined);
    },
    tail: () => '',
  };
}

async function createPods(cp: ControlPlane, ns: string, schedulerName: string, from: number, count: number): Promise<void> {
  // scheduler_perf's default pod (pod-default.yaml): 100m cpu and 500Mi memory.
  await inParallel(count, 16, (i) => cp.create(`/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: `p-${from + i}` },
    spec: { schedulerName, containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '100m', memory: '500Mi' } } }] },
  }));
}

async function createNamespace(cp: ControlPlane, ns: string): Promise<void> {
  await cp.create('/api/v1/namespaces', { metadata: { name: ns } });
  await cp.create(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'default' } });
}

async function resourceVersionOf(cp: ControlPlane, ns: string): Promise<string> {
  const listed = await cp.api('GET', `/api/v1/namespaces/${ns}/pods?limit=1`);
  return (listed.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
}

/** A scheduler configuration for `ns`, with client limits as scheduler_perf sets them (no waits on its own rate limiter). */
function writeConfig(cp: ControlPlane, ns: string, leaderElect: boolean): string {
  const config = join(cp.dir, `${ns}.yaml`);
  writeFileSync(config, [
    'apiVersion: kubescheduler.config.k8s.io/v1', 'kind: KubeSchedulerConfiguration',
    'clientConnection:', `  kubeconfig: ${cp.kubeconfig}`, '  qps: 5000', '  burst: 5000',
    'leaderElection:', `  leaderElect: ${leaderElect}`,
    // The release's default durations (15 s, 10 s, 2 s): failover is what users get out of the box.
    ...(leaderElect ? ['  resourceNamespace: kube-system', `  resourceName: ${ns}`] : []),
    'profiles:', `- schedulerName: ${ns}`, '',
  ].join('\n'));
  return config;
}

async function deletePods(cp: ControlPlane, ns: string): Promise<void> {
  // Pods on nodes without a kubelet go at once only with a zero grace period. A deletion of
  // thousands can outlast the API server's request timeout, which cancels the rest: asked again
  // until none is left, since the next scheduler's informers would otherwise list these pods and
  // watch their deletion during their start, which one scheduler pays and another does not.
  await eventually(`the pods of ${ns} to be deleted`, async () => {
    await cp.api('DELETE', `/api/v1/namespaces/${ns}/pods`, { gracePeriodSeconds: 0 }).catch(() => undefined);
    const r = await cp.api('GET', `/api/v1/namespaces/${ns}/pods?limit=1`);
    return (r.body as { items?: unknown[] }).items?.length === 0 ? true : undefined;
  }, 600_000, 500);
}

const benchTimeoutMs = Number(process.env.BENCH_TIMEOUT_MS ?? 600_000);

async function measure(cp: ControlPlane, kind: string, round: number): Promise<Result> {
  const ns = `bench-${kind}-${round}`;
  await createNamespace(cp, ns);
  await createPods(cp, ns, ns, 0, podCount);
  const rv = await resourceVersionOf(cp, ns);
  const config = writeConfig(cp, ns, false);
  let startCpuSeconds = 0;
  // The callback runs on a watch event, after `runner` below is set.
  const watch = watchBindings(cp, ns, rv, podCount, () => {
    startCpuSeconds = runner.cpuSeconds();
  });
  const started = performance.now();
  const runner = kind === 'client' ? bindingsOnlyClient(cp, ns) : childRunner(schedulerChild(kind, config, cp.kubeconfig));
  try {
    const { first, last } = await Promise.race([watch.done, runner.failed, timeout(benchTimeoutMs, `${podCount} bindings by ${runner.name}`, runner)]);
    const cpuSeconds = runner.cpuSeconds();
    return { scheduler: kind, round, startSeconds: (first - started) / 1000, startCpuSeconds, podsPerSecond: (podCount - 1) / ((last - first) / 1000), cpuSeconds };
  } finally {
    watch.close();
    await runner.stop();
    await deletePods(cp, ns);
  }
}

interface FailoverResult {
  scheduler: string;
  round: number;
  /** From SIGTERM to the leader until it exited (it releases the lease on the way out). */
  leaderExitSeconds: number;
  /** From SIGTERM to the leader until the standby's first binding of a pod created after it exited. */
  failoverSeconds: number;
  /**
   * From SIGTERM until the Lease names the standby: mostly the standby's jittered retry period
   * (2 to 4.4 s between tries), the same for both schedulers, so compare the remainder.
   */
  acquiredSeconds: number;
}

/** Polls the Lease every 20 ms (bounded by `limitMs`) until another holder than `old` has it; the time seen. */
async function newHolderSeen(cp: ControlPlane, name: string, old: string, limitMs: number): Promise<number> {
  const end = performance.now() + limitMs;
  while (performance.now() < end) {
    const r = await cp.api('GET', `/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/${name}`);
    const holder = (r.body as { spec?: { holderIdentity?: string } }).spec?.holderIdentity ?? '';
    if (holder && holder !== old) return performance.now();
    await new Promise((res) => setTimeout(res, 20));
  }
  throw new Error(`lease ${name} still held by ${old} after ${limitMs} ms`);
}

/**
 * Two replicas on one Lease: the leader binds a pod, the standby syncs and waits for the lease;
 * then the leader is stopped and fresh pods are created once it has exited.
 */
async function measureFailover(cp: ControlPlane, kind: string, round: number): Promise<FailoverResult> {
  const ns = `failover-${kind}-${round}`;
  await createNamespace(cp, ns);
  const config = writeConfig(cp, ns, true);
  const warm = watchBindings(cp, ns, await resourceVersionOf(cp, ns), 1);
  await createPods(cp, ns, ns, 0, 1);
  const leader = childRunner(schedulerChild(kind, config, cp.kubeconfig, ' leader'));
  let standby: Runner | undefined;
  const next = { close: () => undefined as void };
  try {
    const deadline = timeout(benchTimeoutMs, `failover of ${kind}`, leader);
    await Promise.race([warm.done, leader.failed, deadline]);
    // Started only now, so that the first replica is the one holding the lease.
    const standbyChild = schedulerChild(kind, config, cp.kubeconfig, ' standby');
    standby = childRunner(standbyChild);
    // Informers synced and leader election begun: the standby now only waits for the lease.
    await Promise.race([eventually(`${standby.name} to wait for the lease`, async () => (/attempting to acquire leader lease/i.test(standbyChild.output.join('')) ? true : undefined), 120_000, 100), standby.failed]);
    await new Promise((r) => setTimeout(r, 1000));
    const lease = await cp.api('GET', `/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/${ns}`);
    const oldHolder = (lease.body as { spec?: { holderIdentity?: string } }).spec?.holderIdentity ?? '';
    const stopped = performance.now();
    const acquired = newHolderSeen(cp, ns, oldHolder, 30_000);
    acquired.catch(() => undefined); // awaited below, unless the standby fails first
    await leader.stop();
    const exited = performance.now();
    const watch = watchBindings(cp, ns, await resourceVersionOf(cp, ns), failoverPods);
    next.close = watch.close;
    await createPods(cp, ns, ns, 1, failoverPods);
    const { first } = await Promise.race([watch.done, standby.failed, deadline]);
    const acquiredAt = await acquired;
    return { scheduler: kind, round, leaderExitSeconds: (exited - stopped) / 1000, failoverSeconds: (first - stopped) / 1000, acquiredSeconds: (acquiredAt - stopped) / 1000 };
  } finally {
    warm.close();
    next.close();
    await leader.stop();
    await standby?.stop();
    await deletePods(cp, ns);
  }
}

function timeout(ms: number, what: string, runner: Runner): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}:\n${runner.tail()}`)), ms).unref());
}

const missing = missingBinaries();
if (missing) {
  console.error(missing);
  process.exit(2);
}
const cp = await ControlPlane.start();
try {
  const t0 = performance.now();
  await inParallel(nodeCount, 16, async (i) => {
    const name = `node-${i}`;
    await cp.create('/api/v1/nodes', {
      metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': `zone-${i % 3}` } },
      status: { capacity: { cpu: '32', memory: '128Gi', pods: '110' }, allocatable: { cpu: '32', memory: '128Gi', pods: '110' } },
    });
    // Admission taints a new node not-ready until its kubelet reports; there is no kubelet here.
    const r = await cp.api('PATCH', `/api/v1/nodes/${name}`, { spec: { taints: null } }, 'application/merge-patch+json');
    if (r.status !== 200) throw new Error(`untaint ${name}: ${r.status}`);
  });
  console.log(`schedulers' environment: ${flags['scheduler-env']}${leftOut.length > 0 ? ` (this shell's ${leftOut.join(', ')} left out; --scheduler-env inherit keeps them)` : ''}`);
  console.log(`${nodeCount} nodes created in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const results: Result[] = [];
  const failoverResults: FailoverResult[] = [];
  for (let round = 0; round < rounds; round++) {
    // Alternate the order so neither scheduler always runs on the warmer API server.
    const order = round % 2 === 0 ? schedulers : [...schedulers].reverse();
    for (const kind of order) {
      const r = await measure(cp, kind, round);
      results.push(r);
      console.log(`${r.scheduler.padEnd(9)} round ${round}: ${r.podsPerSecond.toFixed(0)} pods/s, first binding after ${r.startSeconds.toFixed(2)} s (${r.startCpuSeconds.toFixed(2)} s CPU), ${r.cpuSeconds.toFixed(1)} s CPU (${(podCount / r.cpuSeconds).toFixed(0)} pods per CPU-second)`);
    }
    const foOrder = round % 2 === 0 ? failovers : [...failovers].reverse();
    for (const kind of foOrder) {
      const r = await measureFailover(cp, kind, round);
      failoverResults.push(r);
      console.log(`${r.scheduler.padEnd(9)} round ${round}: failover to the standby's first binding ${r.failoverSeconds.toFixed(2)} s (leader exited after ${r.leaderExitSeconds.toFixed(2)} s, lease taken after ${r.acquiredSeconds.toFixed(2)} s, first binding ${(r.failoverSeconds - r.acquiredSeconds).toFixed(2)} s after that)`);
    }
  }
  console.log(JSON.stringify({ nodes: nodeCount, pods: podCount, results, failover: failoverResults }));
} catch (err) {
  console.error(err);
  console.error(cp.logs());
  process.exitCode = 1;
} finally {
  await cp.stop();
}
