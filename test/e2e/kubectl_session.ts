// One kubectl session of a what-if user, run the same way against any cluster: namespace and
// PriorityClass, Deployments and a DaemonSet, scale, a PodDisruptionBudget, cordon and drain, a
// Job, describe of a pending pod, a phase field selector. Pods are marked Running and Ready
// through the status subresource where no kubelet runs. What it returns is normalised (generated
// name suffixes and ages removed) so two clusters' sessions compare equal.
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { makeNode } from '../../src/testing/builders.js';

export function kubectlOnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir, 'kubectl');
    if (dir && existsSync(p)) return p;
  }
  return undefined;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export type Kubectl = (args: string[]) => Promise<Run>;

export function kubectlWith(kubeconfig: string, home: string): Kubectl {
  const bin = kubectlOnPath()!;
  const env = { ...process.env, KUBECONFIG: kubeconfig, HOME: home, KUBECACHEDIR: join(home, 'cache') };
  return (args) => new Promise((resolve) => {
    execFile(bin, args, { env, timeout: 90_000 }, (err, stdout, stderr) => resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 }));
  });
}

/** Three nodes of distinct sizes, so every placement has one best node. */
export const sessionNodes = [['node-a', '4'], ['node-b', '3'], ['node-c', '2']].map(([name, cpu]) => ({
  ...makeNode(name!, { allocatable: { cpu: cpu!, memory: '8Gi', pods: '20' }, ready: true }),
}));

const workloads = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: team }
spec:
  replicas: 3
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      priorityClassName: high
      containers: [{ name: c, image: nginx, resources: { requests: { cpu: 500m } } }]
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: api, namespace: team }
spec:
  replicas: 2
  selector: { matchLabels: { app: api } }
  template:
    metadata: { labels: { app: api } }
    spec:
      containers: [{ name: c, image: nginx, resources: { requests: { cpu: 300m } } }]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent, namespace: team }
spec:
  selector: { matchLabels: { app: agent } }
  template:
    metadata: { labels: { app: agent } }
    spec:
      containers: [{ name: c, image: agent, resources: { requests: { cpu: 100m } } }]
`;

const bigPod = `apiVersion: v1
kind: Pod
metadata: { name: big, namespace: team }
spec:
  containers: [{ name: c, image: nginx, resources: { requests: { cpu: "16" } } }]
`;

export interface SessionOutcome {
  /** Each step's exit code and normalised output. */
  steps: { step: string; code: number; out: string }[];
  /** Pods by owner prefix and node, sorted: "team/web@node-a". */
  placements: string[];
  objects: string[];
}

/** Generated suffixes out (ReplicaSet hashes, pod suffixes), ages and timestamps out. */
export function normalise(text: string): string {
  return text
    .replace(/\b(web|api|agent|once)-[a-z0-9]{5,10}-[a-z0-9]{5}\b/g, '$1-*')
    .replace(/\b(web|api|agent|once)-[a-z0-9]{5,10}\b/g, '$1-*')
    .replace(/\b\d+(\.\d+)?(s|m|h|d)\b/g, '<age>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    .split('\n').map((l) => l.replace(/\s+$/, '')).join('\n');
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Runs the session, writing its manifests in `dir`. */
export async function runSession(k: Kubectl, dir: string): Promise<SessionOutcome> {
  const steps: SessionOutcome['steps'] = [];
  const step = async (name: string, args: string[], expectCode: number | null = 0): Promise<Run> => {
    const r = await k(args);
    if (expectCode !== null && r.code !== expectCode) throw new Error(`${name}: kubectl ${args.join(' ')} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
    steps.push({ step: name, code: r.code, out: normalise(`${r.stdout}${r.stderr}`) });
    return r;
  };
  const podsJson = async (selector: string[] = []) => JSON.parse((await k(['get', 'pods', '-n', 'team', '-o', 'json', ...selector])).stdout) as {
    items: { metadata: { name: string; labels?: Record<string, string> }; spec: { nodeName?: string }; status?: { phase?: string; conditions?: { type: string; status: string }[] } }[];
  };
  const allBound = async (want: number) => {
    const pods = (await podsJson()).items.filter((p) => p.metadata.name !== 'big');
    return pods.length === want && pods.every((p) => p.spec.nodeName);
  };
  /** What a kubelet would report: bound pods Running and Ready. */
  const markReady = async () => {
    for (const p of (await podsJson()).items) {
      if (!p.spec.nodeName || p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) continue;
      await k(['patch', 'pod', p.metadata.name, '-n', 'team', '--subresource=status', '--type=merge', '-p',
        '{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}']);
    }
  };

  await step('create namespace', ['create', 'namespace', 'team']);
  await step('create priorityclass', ['create', 'priorityclass', 'high', '--value=1000', '--description=what-if']);
  writeFileSync(join(dir, 'workloads.yaml'), workloads);
  await step('apply workloads', ['apply', '-f', join(dir, 'workloads.yaml')]);
  await step('scale', ['scale', 'deployment', 'web', '-n', 'team', '--replicas=4']);
  await until('6 Deployment pods and 3 DaemonSet pods bound', () => allBound(9));
  await markReady();
  await step('create pdb', ['create', 'pdb', 'web', '-n', 'team', '--selector=app=web', '--min-available=3']);
  await until('the budget to allow one disruption', async () => {
    const r = await k(['get', 'pdb', 'web', '-n', 'team', '-o', 'jsonpath={.status.disruptionsAllowed}']);
    return r.stdout.trim() === '1';
  });
  await step('rollout status', ['rollout', 'status', 'deployment/web', '-n', 'team', '--watch=false']);
  await step('cordon', ['cordon', 'node-a']);
  // Replacements stay not Ready (no kubelet marks them): the budget then forbids the second eviction.
  // Grace period 0: without a kubelet to confirm it, a graceful deletion would never finish upstream.
  const drain = await step('drain', ['drain', 'node-a', '--ignore-daemonsets', '--delete-emptydir-data', '--grace-period=0', '--timeout=15s'], null);
  steps[steps.length - 1]!.out = evictionAnswers(`${drain.stdout}${drain.stderr}`);
  await step('create job', ['create', 'job', 'once', '-n', 'team', '--image=busybox']);
  writeFileSync(join(dir, 'big.yaml'), bigPod);
  await step('apply big pod', ['apply', '-f', join(dir, 'big.yaml')]);
  await until('the big pod to be reported unschedulable', async () => /FailedScheduling/.test((await k(['describe', 'pod', 'big', '-n', 'team'])).stdout));
  const describe = await step('describe pending pod', ['describe', 'pod', 'big', '-n', 'team']);
  steps[steps.length - 1]!.out = failedScheduling(describe.stdout);
  await step('pending pods', ['get', 'pods', '-n', 'team', '--field-selector', 'status.phase=Pending,spec.nodeName=', '-o', 'name']);

  const placements = (await podsJson()).items
    .map((p) => `${normalise(p.metadata.name).replace(/-\*$/, '')}@${p.spec.nodeName ?? '<none>'}`).sort();
  const objects: string[] = [];
  for (const kind of ['deployments', 'replicasets', 'daemonsets', 'jobs', 'poddisruptionbudgets']) {
    const r = await k(['get', kind, '-n', 'team', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.spec.replicas}{"\\n"}{end}']);
    for (const line of r.stdout.split('\n')) if (line.trim() !== '') objects.push(`${kind}/${normalise(line.trim())}`);
  }
  objects.push(...(await k(['get', 'nodes', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.spec.unschedulable}{"\\n"}{end}'])).stdout.split('\n').filter((l) => l !== '').map((l) => `nodes/${l}`));
  return { steps, placements, objects: objects.sort() };
}

/** drain's eviction lines: which pods were evicted and which budget answers came back, in a stable order. */
export function evictionAnswers(output: string): string {
  const lines = normalise(output).split('\n').filter((l) => /evicted|Cannot evict|drained|error when evicting/.test(l));
  return [...new Set(lines.map((l) => l.replace(/\(will retry after \d+s\)/, '(will retry)')))].sort().join('\n');
}

/** describe's FailedScheduling event line, without its age and count columns. */
export function failedScheduling(describe: string): string {
  const line = describe.split('\n').find((l) => l.includes('FailedScheduling')) ?? '';
  const from = line.indexOf('default-scheduler');
  return from < 0 ? line.trim() : line.slice(from + 'default-scheduler'.length).trim();
}
