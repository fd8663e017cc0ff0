// Issue #26's done-when for one scenario of pod groups: the same placements from `simulate`, from
// `simulate --serve` with the nodes, groups and pods sent over its API, from our `run` against the
// pinned kube-apiserver, and from upstream's own kube-scheduler on that kube-apiserver. Over an API
// the jobs go one after the other, each once the previous one is decided: the order simulate's
// queue takes them in. A scenario makes every decision unique, so the comparison is exact.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { binaries, Child, ControlPlane, eventually, missingBinaries, startOurs, type ApiResponse } from './control_plane.js';
import { defaultConfiguration } from '../../src/config/index.js';
import { FeatureGates } from '../../src/config/feature_gates.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../src/plugins/registry.js';
import { podGroupFieldGates } from '../../src/cluster/memory/store.js';
import { runExplain } from '../../src/sim/explain/explain.js';
import { clusterGates } from '../../src/sim/scenario/embedded.js';
import { scenarioFromDocuments } from '../../src/sim/scenario/scenario.js';
import { serveScenario } from '../../src/sim/serve/serve.js';
import { runSimulation } from '../../src/sim/simulate/simulate.js';

type Obj = Record<string, unknown>;
type Api = (method: string, path: string, body?: unknown, contentType?: string) => Promise<ApiResponse>;
type Placements = Record<string, string>;

/** One job: its groups (composites before the groups under them) and its pods, created in that order. */
export interface Job {
  readonly groups: readonly Obj[];
  members(schedulerName: string): Obj[];
}

export interface GroupScenario {
  /** The describe's title. */
  readonly title: string;
  /** `--feature-gates` of every scheduler and of kube-apiserver. */
  readonly gates: string;
  /** kube-apiserver's `--runtime-config` (the API versions the groups need). */
  readonly runtimeConfig: string;
  readonly nodes: readonly Obj[];
  /** Running pods, bound. */
  load(schedulerName: string): Obj[];
  /** Objects created once before any job (a Workload the groups refer to). */
  readonly shared: readonly Obj[];
  readonly jobs: readonly Job[];
  /** The placements every mode must give: pod -> node, '' for not scheduled. */
  readonly expected: Readonly<Placements>;
}

interface ApiPod {
  spec: { nodeName?: string };
  status?: { conditions?: { type: string; status: string; reason?: string }[] };
}

const resources: Readonly<Record<string, string>> = {
  PodGroup: 'podgroups',
  CompositePodGroup: 'compositepodgroups',
  Workload: 'workloads',
};

/** The collection a namespaced scheduling object is created in. */
function collection(obj: Obj): string {
  const kind = String(obj.kind);
  const plural = resources[kind];
  if (plural === undefined) throw new Error(`no collection known for kind ${kind}`);
  const ns = (obj.metadata as { namespace?: string }).namespace ?? 'default';
  return `/apis/${String(obj.apiVersion)}/namespaces/${ns}/${plural}`;
}

const nameOf = (obj: Obj): string => (obj.metadata as { name: string }).name;
const podsPath = '/api/v1/namespaces/default/pods';

async function create(api: Api, path: string, body: unknown): Promise<void> {
  const r = await api('POST', path, body);
  assert.ok(r.status === 201 || r.status === 200, `POST ${path}: ${r.status} ${JSON.stringify(r.body)}`);
}

/** The cluster's nodes, running pods and shared objects, over the API. */
async function createCluster(api: Api, s: GroupScenario): Promise<void> {
  for (const n of s.nodes) {
    await create(api, '/api/v1/nodes', n);
    // kube-apiserver's admission taints a new node not-ready until a kubelet reports; none runs.
    const r = await api('PATCH', `/api/v1/nodes/${nameOf(n)}`, { spec: { taints: null } }, 'application/merge-patch+json');
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  for (const p of s.load('default-scheduler')) await create(api, podsPath, p);
  for (const o of s.shared) await create(api, collection(o), o);
}

/** Where the pod went: its node, '' once the scheduler marked it unschedulable, undefined while undecided. */
async function decision(api: Api, name: string): Promise<string | undefined> {
  const r = await api('GET', `${podsPath}/${name}`);
  if (r.status !== 200) return undefined;
  const pod = r.body as ApiPod;
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
  return scheduled?.status === 'False' && scheduled.reason === 'Unschedulable' ? '' : undefined;
}

/** Each job's groups and members, created once the previous job is decided. */
async function scheduleJobs(api: Api, s: GroupScenario, schedulerName: string): Promise<Placements> {
  const out: Placements = {};
  for (const job of s.jobs) {
    for (const g of job.groups) await create(api, collection(g), g);
    const pods = job.members(schedulerName);
    for (const p of pods) await create(api, podsPath, p);
    for (const p of pods) {
      const name = nameOf(p);
      out[name] = await eventually(`${name} to be bound or found unschedulable`, () => decision(api, name), 60_000, 250);
    }
  }
  return out;
}

/** Deletes one object and waits until it is gone; `finalizers` drops what no controller runs here to drop. */
async function remove(api: Api, path: string, finalizers: boolean): Promise<void> {
  await api('DELETE', path, { gracePeriodSeconds: 0 });
  if (finalizers) await api('PATCH', path, { metadata: { finalizers: null } }, 'application/merge-patch+json');
  await eventually(`${path} to be gone`, async () => ((await api('GET', path)).status === 404 ? true : undefined));
}

/**
 * Removes the jobs' pods at once (no kubelet confirms a graceful deletion), then their groups,
 * the groups under a composite first. Protection admission gives groups a finalizer that
 * kube-controller-manager (not run here) drops once nothing uses them: dropped here as it would.
 */
async function removeJobs(api: Api, s: GroupScenario): Promise<void> {
  for (const job of s.jobs) {
    for (const p of job.members('')) await remove(api, `${podsPath}/${nameOf(p)}`, false);
    for (const g of [...job.groups].reverse()) await remove(api, `${collection(g)}/${nameOf(g)}`, true);
  }
}

function jsonApi(base: string): Api {
  return async (method, path, body, contentType = 'application/json') => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': contentType }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON.
    }
    return { status: res.status, body: parsed };
  };
}

/** The whole scenario for `simulate`: load bound, every job's members pending in order. */
export function scenarioDocument(s: GroupScenario): Obj {
  return {
    nodes: s.nodes,
    pods: s.load('default-scheduler'),
    objects: [...s.shared, ...s.jobs.flatMap((j) => j.groups)],
    pending: s.jobs.flatMap((j) => j.members('default-scheduler')),
  };
}

const oursName = 'kube-scheduler-ts';

/** The four modes' tests for `s`; the control plane's are skipped, saying why, when its binaries are not built. */
export function describeEveryMode(s: GroupScenario): void {
  const registry = inTreeRegistry();
  const featureGates = FeatureGates.parse([s.gates]);
  const skip = missingBinaries();
  const prefixed = Object.fromEntries(Object.entries(s.expected).map(([k, v]) => [`default/${k}`, v]));
  const simulateOptions = (seed: number) => ({ config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, featureGates, seed });

  describe(`${s.title}: the same placements in every mode`, { timeout: 600_000 }, () => {
    it('simulate: the expected placements, whatever the seed, each node the only best', async () => {
      // Loaded with the gates, as the CLI loads a scenario (a composite Workload needs CompositePodGroup).
      const sc = scenarioFromDocuments([scenarioDocument(s)], s.title, { gates: podGroupFieldGates(clusterGates(featureGates)) });
      for (const seed of [1, 2, 3]) {
        const report = await runSimulation(sc, simulateOptions(seed));
        const got = Object.fromEntries(report.pods.filter((p) => p.pod in prefixed).map((p) => [p.pod.slice('default/'.length), p.node]));
        assert.deepEqual(got, s.expected, `seed ${seed}`);
      }
      // No tie for the seed to break: each placed member's best node is the only one with its total.
      const explained = await runExplain(sc, { ...simulateOptions(1), diagnose: true });
      for (const p of explained.pods) {
        if (p.outcome === 'Scheduled' && Object.keys(p.scores).length > 1) assert.deepEqual(p.bestNodes, [p.node], `${p.pod}: ${JSON.stringify(p.scores)}`);
      }
    });

    it('simulate --serve: nodes, groups and pods sent over the API', async () => {
      const sc = scenarioFromDocuments([{ nodes: [] }], `${s.title}-serve`);
      const serving = await serveScenario(sc, { ...simulateOptions(1), port: 0, kubelet: false });
      try {
        const api = jsonApi(serving.url);
        await createCluster(api, s);
        assert.deepEqual(await scheduleJobs(api, s, 'default-scheduler'), s.expected);
      } finally {
        await serving.close();
      }
    });

    describe('the pinned kube-apiserver', { skip: skip ?? false }, () => {
      let cp: ControlPlane;
      let upstream: Child;
      let ours: Child;
      const api: Api = (method, path, body, contentType) => cp.api(method, path, body, contentType);

      before(async () => {
        cp = await ControlPlane.start([`--feature-gates=${s.gates}`, `--runtime-config=${s.runtimeConfig}`]);
        await createCluster(api, s);
        ours = startOurs(cp, oursName, [`--feature-gates=${s.gates}`]);
        upstream = new Child('kube-scheduler', binaries.kubeScheduler, [
          '--kubeconfig', cp.kubeconfig, '--authentication-kubeconfig', cp.kubeconfig, '--authorization-kubeconfig', cp.kubeconfig,
          '--leader-elect=false', '--secure-port', '0', `--feature-gates=${s.gates}`,
        ]);
      });

      after(async () => {
        await ours?.stop();
        await upstream?.stop();
        await cp?.stop();
      });

      it('run: our scheduler places the jobs as simulate does', async (t) => {
        try {
          assert.deepEqual(await scheduleJobs(api, s, oursName), s.expected);
        } catch (err) {
          t.diagnostic(`--- ours\n${ours.tail()}\n${cp.logs()}`);
          throw err;
        } finally {
          await removeJobs(api, s);
        }
      });

      it('beside it, upstream kube-scheduler places them alike', async (t) => {
        try {
          assert.deepEqual(await scheduleJobs(api, s, 'default-scheduler'), s.expected);
        } catch (err) {
          t.diagnostic(`--- upstream kube-scheduler\n${upstream.tail()}`);
          throw err;
        }
      });
    });
  });

  if (skip) console.log(`# ${s.title} on the pinned control plane skipped: ${skip}`);
}
