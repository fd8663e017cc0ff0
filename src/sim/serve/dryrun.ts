// The dry-run scheduling service of `serve`: where given pods would go against the current state,
// answered by the real configuration and plugins on a private copy of the embedded cluster, so the
// live store, its scheduler and its watchers never see the question (no upstream counterpart; the
// scheduling itself is pkg/scheduler/schedule_one.go as everywhere else).
import type { KubeObject, Pod, PriorityClass } from '../../api/types.js';
import { admitGroupPriority } from '../../api/admission/priority.js';
import { podKey } from '../../api/types.js';
import { ResourceRegistry } from '../../apiserver/registry.js';
import { findResource, resources } from '../../apiserver/resources.js';
import { badRequest, ServedStatusError } from '../../apiserver/status.js';
import { MemoryCluster } from '../../cluster/memory/store.js';
import { Scheduler, type AttemptRecord } from '../../scheduler/scheduler.js';
import { FakeClock, seededRandom, type Clock } from '../../util/clock.js';
import { cloneJSON } from '../../util/json_clone.js';
import { clusterGates, embeddedDeps, quietLimitMs, type EmbeddedOptions } from '../scenario/embedded.js';
import { refusals, type NodeRefusal } from '../whatif/node_refusals.js';
import { isCompositePodGroup, type CompositePodGroup, type PodGroup, type SchedulingGroup } from '../../api/scheduling.js';
import { validatePodGroup } from '../../api/validation/scheduling.js';
import { forbidden, invalid } from '../../apiserver/status.js';
import { Name as GangSchedulingName, waitingForQuorum } from '../../plugins/gangscheduling/gang_scheduling.js';
import { explainGroups, explainTree, type ExplainGroup, type ExplainTree } from '../explain/explain_groups.js';

/** Where the endpoint is served: a group of our own, so no Kubernetes API path can clash with it. */
export const dryRunSchedulePath = '/apis/dryrun.kube-scheduler-ts.io/v1/schedule';

export type DryRunOptions = Omit<EmbeddedOptions, 'onAttempt' | 'recordScores' | 'diagnose'> & {
  /** A PodGroup the asked pods form (podGroupOfRequest): created first, its members scheduled together. */
  podGroup?: unknown;
  /** A CompositePodGroup tree the asked pods form (treeOfRequest): its groups created first, every member scheduled together. */
  tree?: TreeRequest;
};

/** A request's tree: `compositePodGroup` (the root) and `groups` (the composites and PodGroups under it). */
export interface TreeRequest {
  compositePodGroup: unknown;
  groups: unknown;
}

type DryRunOutcome =
  /** The scheduler placed it (maybe after preempting). */
  | 'Scheduled'
  /** No node fits, and preemption does not make room either. */
  | 'Unschedulable'
  /** A scheduling gate holds it: not attempted. */
  | 'Gated'
  /** spec.nodeName was given: the scheduler never sees it, it simply runs there. */
  | 'Assigned'
  /** No profile schedules its schedulerName: not attempted. */
  | 'Pending';

interface DryRunPodResult {
  /** namespace/name (a generateName resolved as the API server would). */
  pod: string;
  outcome: DryRunOutcome;
  /** The node it would run on; '' when none. */
  node: string;
  /** Upstream's FitError message of its last failed attempt; '' when it fitted at once. */
  message: string;
  /** Each node's reasons in that failed attempt, by node name. */
  nodes: NodeRefusal[];
  /** Set when its failed attempt preempted: the node nominated and the pods evicted there. */
  preemption: { node: string; victims: string[] } | null;
  attempts: number;
}

export interface DryRunResult {
  apiVersion: 'dryrun.kube-scheduler-ts.io/v1';
  kind: 'ScheduleResult';
  /** The live store's resourceVersion the answer was computed against. */
  resourceVersion: string;
  /** The pods already pending in the store, which the copy schedules before the given ones. */
  pending: { scheduled: number; unschedulable: number };
  /** How many of the given pods were scheduled ("how many of these fit"). */
  scheduled: number;
  pods: DryRunPodResult[];
  /** With a podGroup in the request: the group's cycle as `explain` shows it (outcome, placed, what stopped it). */
  group?: ExplainGroup;
  /** With a compositePodGroup in the request: the tree's cycle as `explain`'s `trees` shows it, child group by child group. */
  tree?: ExplainTree;
}

/** Kinds copied into the private cluster: everything the API server serves except events and leases. */
const copiedKinds = [...new Set(resources.map((r) => r.storeKind))].filter((k) => k !== 'Event' && k !== 'Lease');
const podsResource = findResource('', 'v1', 'pods')!;

const maxReplicas = 10_000;
const bodyShapes = '{ "pods": [...] }, { "template": <pod template>, "replicas": n } (either with "podGroup": <PodGroup>, or "compositePodGroup": <CompositePodGroup> and "groups": [...]), a Pod or a List of pods';
const podGroupKind = { group: 'scheduling.k8s.io', kind: 'PodGroup' };

/** The PodGroup a request body's pods form (`podGroup` beside `pods` or `template`), or undefined. */
export function podGroupOfRequest(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  return (body as { podGroup?: unknown }).podGroup;
}

/** The CompositePodGroup tree a request body's pods form (`compositePodGroup` and `groups` beside `pods` or `template`), or undefined. */
export function treeOfRequest(body: unknown): TreeRequest | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const o = body as { compositePodGroup?: unknown; groups?: unknown };
  return o.compositePodGroup === undefined && o.groups === undefined ? undefined : { compositePodGroup: o.compositePodGroup, groups: o.groups };
}

const treeResources = {
  CompositePodGroup: findResource('scheduling.k8s.io', 'v1alpha3', 'compositepodgroups', resources)!,
  PodGroup: findResource('scheduling.k8s.io', 'v1beta1', 'podgroups', resources)!,
};

/**
 * Creates the request's tree in the copy through the API server's create path (Priority
 * admission, validation, defaults), root first, after checking it is one tree: every group of
 * `groups` a PodGroup or CompositePodGroup in the root's namespace whose parent is the root or a
 * composite of `groups`. Returns the created groups, root first (kind set).
 */
function createdTree(t: TreeRequest, scheduler: Scheduler, registry: ResourceRegistry): SchedulingGroup[] {
  if (!scheduler.features.enableCompositePodGroup) throw badRequest('compositePodGroup: trees need --feature-gates GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true');
  const isObject = (v: unknown): v is { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown }; spec?: { parentCompositePodGroupName?: unknown } } => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(t.compositePodGroup)) throw badRequest('compositePodGroup must be a CompositePodGroup object: { metadata, spec }');
  if (!Array.isArray(t.groups) || t.groups.length === 0) throw badRequest('groups must list the PodGroups and CompositePodGroups under compositePodGroup (each with its kind)');
  const root = t.compositePodGroup;
  const ns = typeof root.metadata?.namespace === 'string' && root.metadata.namespace !== '' ? root.metadata.namespace : 'default';
  if (root.spec?.parentCompositePodGroupName !== undefined) throw badRequest(`compositePodGroup.spec.parentCompositePodGroupName: Invalid value: "${String(root.spec.parentCompositePodGroupName)}": the root of the asked tree has no parent`);
  const composites = new Set([root.metadata?.name, ...t.groups.filter((g) => isObject(g) && g.kind === 'CompositePodGroup').map((g) => (g as { metadata?: { name?: unknown } }).metadata?.name)]);
  const bodies: { field: string; kind: 'CompositePodGroup' | 'PodGroup'; body: unknown }[] = [{ field: 'compositePodGroup', kind: 'CompositePodGroup', body: root }];
  for (const [i, g] of t.groups.entries()) {
    if (!isObject(g)) throw badRequest(`groups[${i}] must be a PodGroup or CompositePodGroup object: { kind, metadata, spec }`);
    if (g.kind !== 'PodGroup' && g.kind !== 'CompositePodGroup') throw badRequest(`groups[${i}].kind: Unsupported value: "${String(g.kind)}": supported values: "CompositePodGroup", "PodGroup"`);
    const gns = typeof g.metadata?.namespace === 'string' && g.metadata.namespace !== '' ? g.metadata.namespace : 'default';
    if (gns !== ns) throw badRequest(`groups[${i}].metadata.namespace: Invalid value: "${gns}": must be the compositePodGroup's namespace "${ns}"`);
    const parent = g.spec?.parentCompositePodGroupName;
    if (parent === undefined || !composites.has(parent)) throw badRequest(`groups[${i}].spec.parentCompositePodGroupName: Invalid value: "${String(parent ?? '')}": must name the compositePodGroup or a CompositePodGroup of groups`);
    bodies.push({ field: `groups[${i}]`, kind: g.kind, body: g });
  }
  return bodies.map(({ field, kind, body }) => {
    try {
      const created = registry.create({ resource: treeResources[kind], namespace: ns, name: '', subresource: '' }, { ...cloneJSON(body as object), apiVersion: kind === 'PodGroup' ? 'scheduling.k8s.io/v1beta1' : 'scheduling.k8s.io/v1alpha3', kind });
      return { ...(created as unknown as SchedulingGroup), kind } as SchedulingGroup;
    } catch (err) {
      if (!(err instanceof ServedStatusError)) throw err;
      throw new ServedStatusError({ ...err.status, message: `${field}: ${err.status.message ?? ''}` });
    }
  });
}

/** A member body of a tree: it must name one of the tree's PodGroups, in the tree's namespace. */
function asTreeMember(body: unknown, groups: readonly SchedulingGroup[], i: number): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const b = body as { metadata?: { namespace?: unknown }; spec?: { schedulingGroup?: { podGroupName?: unknown } } };
  const ns = groups[0]!.metadata.namespace ?? 'default';
  const podNs = typeof b.metadata?.namespace === 'string' && b.metadata.namespace !== '' ? b.metadata.namespace : 'default';
  if (podNs !== ns) throw badRequest(`pods[${i}].metadata.namespace: Invalid value: "${podNs}": must be the compositePodGroup's namespace "${ns}"`);
  const named = b.spec?.schedulingGroup?.podGroupName;
  if (!groups.some((g) => !isCompositePodGroup(g) && g.metadata.name === named)) throw badRequest(`pods[${i}].spec.schedulingGroup.podGroupName: Invalid value: "${String(named ?? '')}": must name a PodGroup of groups`);
  return body;
}

/**
 * The request's PodGroup checked as the API server checks a create (Priority admission, then
 * validation); the gate must be on.
 */
function checkedPodGroup(body: unknown, scheduler: Scheduler, copy: MemoryCluster): PodGroup {
  if (scheduler.podGroups === null) throw badRequest('podGroup: pod groups need --feature-gates GenericWorkload=true');
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('podGroup must be a PodGroup object: { metadata, spec }');
  const pg = { ...cloneJSON(body), apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup' } as PodGroup;
  pg.metadata = { ...(pg.metadata ?? {}), namespace: pg.metadata?.namespace || 'default' };
  delete pg.status;
  if (typeof pg.spec === 'object' && pg.spec !== null) {
    const admitted = admitGroupPriority(pg.spec, copy.list<PriorityClass>('PriorityClass'), { noun: 'pod group', preemptionPolicy: copy.gates.podGroupPreemptionPolicy === true });
    if ('error' in admitted) throw forbidden({ group: podGroupKind.group, name: 'podgroups' }, pg.metadata.name ?? '', admitted.error);
  }
  const errs = validatePodGroup(pg);
  if (errs.length > 0) throw invalid(podGroupKind, pg.metadata.name ?? '', errs);
  return pg;
}

/** A member body naming the group (filled in when it names none); one naming another group, or in another namespace, is refused. */
function asMember(body: unknown, pg: PodGroup, i: number): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const b = body as { metadata?: { namespace?: unknown }; spec?: { schedulingGroup?: { podGroupName?: unknown } } };
  const name = pg.metadata.name ?? '';
  const ns = pg.metadata.namespace ?? 'default';
  const podNs = typeof b.metadata?.namespace === 'string' && b.metadata.namespace !== '' ? b.metadata.namespace : 'default';
  if (podNs !== ns) throw badRequest(`pods[${i}].metadata.namespace: Invalid value: "${podNs}": must be the podGroup's namespace "${ns}"`);
  const named = b.spec?.schedulingGroup?.podGroupName;
  if (named !== undefined && named !== name) throw badRequest(`pods[${i}].spec.schedulingGroup.podGroupName: Invalid value: "${String(named)}": must name the podGroup "${name}"`);
  return { ...b, spec: { ...(b.spec ?? {}), schedulingGroup: { podGroupName: name } } };
}

/**
 * The pods a request body asks about: `{ pods: [...] }`, a Pod, a List/PodList, or
 * `{ template, replicas }` (a ReplicaSet's question: copies named `<name>-<i>`, or after generateName).
 */
export function podsOfRequest(body: unknown): unknown[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest(`the request body must be a JSON object: ${bodyShapes}`);
  const o = body as { kind?: unknown; pods?: unknown; items?: unknown; template?: unknown; replicas?: unknown };
  if (o.kind === 'Pod') return [body];
  if (o.template !== undefined) return replicasOf(o.template, o.replicas);
  const list = o.kind === 'List' || o.kind === 'PodList' ? o.items : o.pods;
  if (!Array.isArray(list) || list.length === 0) throw badRequest(`the request body has no pods: send ${bodyShapes}`);
  return list;
}

function replicasOf(template: unknown, replicas: unknown): unknown[] {
  if (template === null || typeof template !== 'object' || Array.isArray(template)) throw badRequest('template must be a pod template: { metadata, spec }');
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 1 || replicas > maxReplicas) throw badRequest(`replicas must be an integer from 1 to ${maxReplicas}`);
  const t = template as { metadata?: { name?: unknown; generateName?: unknown } };
  const meta = t.metadata ?? {};
  const prefix = typeof meta.generateName === 'string' && meta.generateName !== '' ? meta.generateName : `${typeof meta.name === 'string' && meta.name !== '' ? meta.name : 'replica'}-`;
  const out: unknown[] = [];
  for (let i = 0; i < replicas; i++) {
    const copy = cloneJSON(template) as { metadata?: Record<string, unknown> };
    const { generateName: _generated, ...metadata } = copy.metadata ?? {};
    out.push({ ...copy, apiVersion: 'v1', kind: 'Pod', metadata: { ...metadata, name: `${prefix}${i}` } });
  }
  return out;
}

/**
 * Answers for `pods` (request bodies, validated here as the API server validates creates) against
 * `live`'s current objects. The copy is taken synchronously, so it is one consistent state even
 * while the live scheduler binds; nothing is written to `live`.
 */
export async function dryRunSchedule(live: MemoryCluster, liveClock: Clock, pods: readonly unknown[], o: DryRunOptions): Promise<DryRunResult> {
  const resourceVersion = String(live.currentResourceVersion);
  const clock = new FakeClock(liveClock.now());
  const random = seededRandom(o.seed ?? 1);
  // Its own uids: the copied objects keep theirs, and the scheduler's cache is keyed by uid.
  // Admission only for the asked pods: the copied ones were admitted when the live store took
  // them, and merging matchLabelKeys again would repeat their selector terms.
  let admitting = false;
  const admitPod = o.admitPod;
  const copy = new MemoryCluster({ clock, admitPod: admitPod && ((p) => (admitting ? admitPod(p) : p)), gates: clusterGates(o.featureGates), random, uidPrefix: 'dryrun-uid-' });
  // PriorityClasses first: pods are defaulted against them on create.
  for (const kind of ['PriorityClass', ...copiedKinds.filter((k) => k !== 'PriorityClass')]) {
    for (const obj of live.list(kind)) copy.create(obj);
  }
  admitting = true;
  const attempts = new Map<string, AttemptRecord[]>();
  const scheduler = Scheduler.fromConfig(o.config, embeddedDeps({
    ...o,
    onAttempt: (a) => {
      const k = podKey(a.pod);
      const list = attempts.get(k);
      if (list) list.push(a);
      else attempts.set(k, [a]);
    },
  }, copy, clock));
  try {
    await scheduler.start();
    const pendingBefore = copy.list<Pod>('Pod').filter((p) => !p.spec.nodeName && !isTerminal(p)).map(podKey);
    await settle(copy, scheduler, clock, o);
    const stillPending = pendingBefore.filter((k) => !copy.get<Pod>('Pod', ...splitKey(k))?.spec.nodeName).length;

    const registry = new ResourceRegistry(copy, clock, random);
    const out: DryRunPodResult[] = [];
    let group: ExplainGroup | undefined;
    let tree: ExplainTree | undefined;
    if (o.podGroup !== undefined && o.tree !== undefined) throw badRequest('give podGroup or compositePodGroup with groups, not both');
    /** Every member created at once, so one cycle sees them together; their answers and last attempts. */
    const scheduleTogether = async (bodies: readonly unknown[]) => {
      const created = bodies.map((body, i) => createValidated(registry, body, i) as Pod);
      await settle(copy, scheduler, clock, o);
      const waiting = gatedPods(scheduler);
      for (const c of created) out.push(resultOf(copy, c, attempts.get(podKey(c)) ?? [], scheduler, waiting.get(podKey(c))));
      const last = new Map<string, AttemptRecord>();
      for (const c of created) {
        const a = attempts.get(podKey(c))?.at(-1);
        if (a !== undefined) last.set(podKey(c), a);
      }
      return { created, last, waiting };
    };
    if (o.podGroup !== undefined) {
      // A whole group: the PodGroup, then every member at once, so its cycle sees them together.
      const pg = checkedPodGroup(o.podGroup, scheduler, copy);
      if (copy.get('PodGroup', pg.metadata.namespace ?? 'default', pg.metadata.name ?? '') !== undefined) {
        throw badRequest(`podGroup: podgroups "${pg.metadata.name ?? ''}" already exists in namespace "${pg.metadata.namespace ?? 'default'}"`);
      }
      copy.create(pg);
      const { created, last, waiting } = await scheduleTogether(pods.map((body, i) => asMember(body, pg, i)));
      group = explainGroups(created, [pg], last, waiting)[0];
    } else if (o.tree !== undefined) {
      // A whole tree: its groups, then every member at once; the queue takes the tree as one entity.
      const groups = createdTree(o.tree, scheduler, registry);
      const { created, last, waiting } = await scheduleTogether(pods.map((body, i) => asTreeMember(body, groups, i)));
      tree = explainTree(groups[0] as CompositePodGroup, groups, created, last, waiting);
    } else {
      for (let i = 0; i < pods.length; i++) {
        const created = createValidated(registry, pods[i], i) as Pod;
        await settle(copy, scheduler, clock, o);
        out.push(resultOf(copy, created, attempts.get(podKey(created)) ?? [], scheduler));
      }
    }
    return {
      apiVersion: 'dryrun.kube-scheduler-ts.io/v1',
      kind: 'ScheduleResult',
      resourceVersion,
      pending: { scheduled: pendingBefore.length - stillPending, unschedulable: stillPending },
      scheduled: out.filter((p) => p.outcome === 'Scheduled').length,
      pods: out,
      ...(group !== undefined ? { group } : {}),
      ...(tree !== undefined ? { tree } : {}),
    };
  } finally {
    scheduler.stop();
  }
}

/** Creates the i-th pod through the API server's create path (admission, validation, defaults); errors name the pod. */
function createValidated(registry: ResourceRegistry, body: unknown, i: number): KubeObject {
  const ns = typeof body === 'object' && body !== null ? (body as { metadata?: { namespace?: unknown } }).metadata?.namespace : undefined;
  try {
    return registry.create({ resource: podsResource, namespace: typeof ns === 'string' && ns !== '' ? ns : 'default', name: '', subresource: '' }, cloneJSON(body));
  } catch (err) {
    if (!(err instanceof ServedStatusError)) throw err;
    throw new ServedStatusError({ ...err.status, message: `pods[${i}]: ${err.status.message ?? ''}` });
  }
}

/**
 * Runs the copy's scheduler until nothing is left to do: drains, then lets backoffs expire (a
 * preemptor's retry once its victims are gone) until nothing has changed for longer than the
 * longest backoff, as `simulate` does.
 */
async function settle(copy: MemoryCluster, scheduler: Scheduler, clock: FakeClock, o: DryRunOptions): Promise<void> {
  const quietLimit = quietLimitMs(o.config);
  let lastProgressAt = clock.now();
  let bound = copy.bindings.length;
  for (;;) {
    await scheduler.loop.drain();
    if (copy.bindings.length !== bound) {
      bound = copy.bindings.length;
      lastProgressAt = clock.now();
    }
    const timerAt = scheduler.queue.nextBackoffExpiry() !== undefined ? clock.nextTimerAt() : undefined;
    if (timerAt === undefined || timerAt - lastProgressAt > quietLimit) return;
    clock.runUntil(timerAt);
  }
}

/** The pods the copy's queue holds at PreEnqueue, with the plugin and its message. */
function gatedPods(scheduler: Scheduler): Map<string, { plugin: string; message: string }> {
  const out = new Map<string, { plugin: string; message: string }>();
  for (const qp of scheduler.queue.pendingPods()) {
    if (qp.gatingPlugin === null) continue;
    out.set(qp.podInfo.key, { plugin: qp.gatingPlugin, message: qp.gatingPlugin === GangSchedulingName ? waitingForQuorum : `held at PreEnqueue by ${qp.gatingPlugin}` });
  }
  return out;
}

function resultOf(copy: MemoryCluster, created: Pod, tries: readonly AttemptRecord[], scheduler: Scheduler, gated?: { message: string }): DryRunPodResult {
  const key = podKey(created);
  const now = copy.get<Pod>('Pod', ...splitKey(key));
  const node = now?.spec.nodeName ?? '';
  const failed = [...tries].reverse().find((a) => a.outcome !== 'Scheduled') ?? null;
  const preempted = [...tries].reverse().find((a) => a.nominatedNode !== '' && a.victims.length > 0) ?? null;
  const base = {
    pod: key,
    node,
    message: failed?.message ?? '',
    nodes: refusals(failed?.diagnosis ?? null),
    preemption: preempted ? { node: preempted.nominatedNode, victims: [...preempted.victims] } : null,
    attempts: tries.length,
  };
  if (tries.length === 0) {
    if (created.spec.nodeName) return { ...base, outcome: 'Assigned', node: created.spec.nodeName };
    if ((created.spec.schedulingGates ?? []).length > 0) return { ...base, outcome: 'Gated', message: `scheduling gated by ${(created.spec.schedulingGates ?? []).map((g) => g.name).join(', ')}` };
    if (gated !== undefined) return { ...base, outcome: 'Gated', message: gated.message };
    const name = created.spec.schedulerName ?? 'default-scheduler';
    if (!scheduler.profiles.has(name)) return { ...base, outcome: 'Pending', message: `no profile schedules pods of schedulerName "${name}"` };
  }
  return { ...base, outcome: node ? 'Scheduled' : 'Unschedulable' };
}

function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
}

function isTerminal(p: Pod): boolean {
  return p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
}
