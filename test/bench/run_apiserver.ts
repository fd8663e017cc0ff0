// `run` against the pinned kube-apiserver (and etcd), beside the pinned kube-scheduler on the same
// cluster: how fast each binds pending pods, wall time and the scheduler process's own CPU time.
// Needs the binaries of `npm run upstream:build` and a built dist/ (npm run build).
// Run: npx tsx test/bench/run_apiserver.ts [--nodes 5000] [--pods 5000] [--rounds 2]
//        [--schedulers ours,upstream] [--old DIR]   (DIR: another checkout with a built dist/, as "old")
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { binaries, Child, ControlPlane, GiveUp, missingBinaries } from '../e2e/control_plane.js';

const { values: flags } = parseArgs({
  options: {
    nodes: { type: 'string', default: '5000' },
    pods: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '2' },
    schedulers: { type: 'string', default: 'ours,upstream' },
    old: { type: 'string' },
  },
});
const nodeCount = Number(flags.nodes);
const podCount = Number(flags.pods);
const rounds = Number(flags.rounds);
const schedulers = flags.schedulers.split(',').concat(flags.old ? ['old'] : []);
const repo = join(import.meta.dirname, '..', '..');

interface Result {
  scheduler: string;
  round: number;
  /** From the scheduler's start to its first binding (informer lists, start-up). */
  startSeconds: number;
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
function watchBindings(cp: ControlPlane, ns: string, resourceVersion: string, expected: number): { done: Promise<{ first: number; last: number }>; close: () => void } {
  const bound = new Set<string>();
  let first = 0;
  let close = () => undefined as void;
  const done = new Promise<{ first: number; last: number }>((resolve, reject) => {
    const req = httpsRequest({
      host: '127.0.0.1', port: cp.port, rejectUnauthorized: false,
      path: `/api/v1/namespaces/${ns}/pods?watch=1&resourceVersion=${resourceVersion}&timeoutSeconds=3600`,
      headers: { authorization: `Bearer ${cp.token}`, accept: 'application/json' },
    }, (res) => {
      let buf = '';
      res.on('data', (chunk: Buffer) => {
        buf += chunk.toString();
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          const ev = JSON.parse(line) as { object: { metadata: { name: string }; spec?: { nodeName?: string } } };
          if (!ev.object.spec?.nodeName || bound.has(ev.object.metadata.name)) continue;
          if (bound.size === 0) first = performance.now();
          bound.add(ev.object.metadata.name);
          if (bound.size === expected) {
            resolve({ first, last: performance.now() });
            req.destroy();
          }
        }
      });
      res.on('error', reject);
      res.on('end', () => reject(new Error(`the watch of ${ns} ended after ${bound.size} of ${expected} bindings (HTTP ${res.statusCode})`)));
    });
    req.on('error', (err) => (bound.size === expected ? undefined : reject(err)));
    req.end();
    close = () => req.destroy();
  });
  return { done, close };
}

function schedulerChild(kind: string, config: string, kubeconfig: string): Child {
  if (kind === 'upstream') {
    return new Child('kube-scheduler', binaries.kubeScheduler, [
      '--config', config, '--secure-port', '0', '--authentication-kubeconfig', kubeconfig, '--authorization-kubeconfig', kubeconfig,
    ]);
  }
  const root = kind === 'old' ? flags.old! : repo;
  return new Child(`kube-scheduler-ts (${kind})`, process.execPath, [join(root, 'dist', 'cli', 'bin.js'), 'run', '--config', config, '--secure-port', '0', '-v', process.env.BENCH_V ?? '0']);
}

async function measure(cp: ControlPlane, kind: string, round: number): Promise<Result> {
  const ns = `bench-${kind}-${round}`;
  const schedulerName = `bench-${kind}-${round}`;
  await cp.create('/api/v1/namespaces', { metadata: { name: ns } });
  await cp.create(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'default' } });
  // scheduler_perf's default pod (pod-default.yaml): 100m cpu and 500Mi memory.
  await inParallel(podCount, 16, (i) => cp.create(`/api/v1/namespaces/${ns}/pods`, {
    metadata: { name: `p-${i}` },
    spec: { schedulerName, containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '100m', memory: '500Mi' } } }] },
  }));
  const listed = await cp.api('GET', `/api/v1/namespaces/${ns}/pods?limit=1`);
  const rv = (listed.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  // Client limits as scheduler_perf sets them, so neither scheduler waits on its own rate limiter.
  const config = join(cp.dir, `${ns}.yaml`);
  writeFileSync(config, [
    'apiVersion: kubescheduler.config.k8s.io/v1', 'kind: KubeSchedulerConfiguration',
    'clientConnection:', `  kubeconfig: ${cp.kubeconfig}`, '  qps: 5000', '  burst: 5000',
    'leaderElection:', '  leaderElect: false', 'profiles:', `- schedulerName: ${schedulerName}`, '',
  ].join('\n'));
  const watch = watchBindings(cp, ns, rv, podCount);
  const started = performance.now();
  const child = schedulerChild(kind, config, cp.kubeconfig);
  const exited = child.exited.then((code) => {
    throw new GiveUp(`${child.name} exited (${code}):\n${child.tail()}`);
  });
  try {
    const { first, last } = await Promise.race([watch.done, exited, timeout(Number(process.env.BENCH_TIMEOUT_MS ?? 600_000), `${podCount} bindings by ${child.name}`, child)]);
    const cpuSeconds = cpuSecondsOf(child.pid!);
    return { scheduler: kind, round, startSeconds: (first - started) / 1000, podsPerSecond: (podCount - 1) / ((last - first) / 1000), cpuSeconds };
  } finally {
    watch.close();
    await child.stop();
    // Pods on nodes without a kubelet go at once only with a zero grace period. Thousands take
    // longer than the client's timeout; the API server finishes the deletion anyway.
    await cp.api('DELETE', `/api/v1/namespaces/${ns}/pods`, { gracePeriodSeconds: 0 }).catch(() => undefined);
  }
}

function timeout(ms: number, what: string, child: Child): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}:\n${child.tail()}`)), ms).unref());
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
  console.log(`${nodeCount} nodes created in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const results: Result[] = [];
  for (let round = 0; round < rounds; round++) {
    // Alternate the order so neither scheduler always runs on the warmer API server.
    const order = round % 2 === 0 ? schedulers : [...schedulers].reverse();
    for (const kind of order) {
      const r = await measure(cp, kind, round);
      results.push(r);
      console.log(`${r.scheduler.padEnd(9)} round ${round}: ${r.podsPerSecond.toFixed(0)} pods/s, first binding after ${r.startSeconds.toFixed(1)} s, ${r.cpuSeconds.toFixed(1)} s CPU (${(podCount / r.cpuSeconds).toFixed(0)} pods per CPU-second)`);
    }
  }
  console.log(JSON.stringify({ nodes: nodeCount, pods: podCount, results }));
} catch (err) {
  console.error(err);
  console.error(cp.logs());
  process.exitCode = 1;
} finally {
  await cp.stop();
}
