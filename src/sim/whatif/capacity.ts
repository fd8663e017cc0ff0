// `capacity`: planners' questions answered by the real scheduler on a scenario's cluster: how many
// more copies of a pod fit and what stops the next one (cluster-capacity's question, with every
// node's reasons), and how many nodes of a template must be added so every pending pod fits.
import type { Node, Pod } from '../../api/types.js';
import { podKey } from '../../api/types.js';
import { computePodResourceRequests, Resource } from '../../api/resource_requests.js';
import { cloneJSON } from '../../util/json_clone.js';
import { daemonShouldRunOn, newDaemonPod } from '../../cluster/memory/controllers/daemonset.js';
import type { Workload } from '../../cluster/memory/controllers/owned.js';
import type { AttemptRecord } from '../../scheduler/scheduler.js';
import { createEmbedded, type Embedded, type EmbeddedOptions } from '../scenario/embedded.js';
import { refusals, type NodeRefusal } from './node_refusals.js';
import { RemovalCertificate } from './removal_certificate.js';
import { isDaemonPod } from '../scenario/whatif_steps.js';
import { leaving, recreatedCopy } from './probe_copy.js';
import type { ProgressListener } from './progress.js';
import type { Scenario } from '../scenario/scenario.js';
import { runSimulation } from '../simulate/simulate.js';
import type { CompositePodGroup, PodGroup } from '../../api/scheduling.js';
import { treeRootKey } from '../explain/explain_groups.js';
import { freeResources, type FreeResources } from './free_resources.js';

export type CapacityOptions = Omit<EmbeddedOptions, 'onAttempt'> & {
  /** Told how far a long question has got (stderr's progress line). */
  onProgress?: ProgressListener;
};

/**
 * The scenario's cluster with its pending pods created and scheduled (timeline steps not played),
 * the scheduler left running for the questions asked next; `onAttempt` sees every attempt.
 */
export async function scheduledScenario(sc: Scenario, o: CapacityOptions, onAttempt: (a: AttemptRecord) => void): Promise<Embedded> {
  let attempts = 0;
  let settingUp = true;
  const counted = (a: AttemptRecord) => {
    if (settingUp) o.onProgress?.("the scenario's pending pods: attempts", ++attempts, 0);
    onAttempt(a);
  };
  const env = await createEmbedded({ ...sc, steps: [] }, { ...o, onAttempt: counted });
  for (const p of sc.pending) env.cluster.create(p);
  await env.cluster.controllers.settled();
  await env.scheduler.loop.drain();
  settingUp = false;
  return env;
}

export interface FitCount {
  /** The pod the copies are made of (namespace/name). */
  pod: string;
  /** How many copies were placed before one could not be, or `max` was reached. */
  fits: number;
  /** Copies per node, most first. */
  placements: { node: string; copies: number }[];
  /** Why the next copy does not fit (upstream's FitError message and each node's reasons); null when `max` stopped it. */
  stoppedBy: { message: string; nodes: NodeRefusal[] } | null;
  /** The scenario's own pending pods, scheduled first. */
  pending: { scheduled: number; unschedulable: number };
  /** What the nodes have left once the copies are placed (cpu, memory, pods, extended resources). */
  free: FreeResources;
}

/**
 * Schedules the scenario's pending pods, then copies of `pod` one at a time until one does not
 * fit or `max` are placed. Copies never preempt (preemptionPolicy Never): the question is what
 * fits beside the current load. Timeline steps are not played.
 */
export async function countFits(sc: Scenario, pod: Pod, o: CapacityOptions & { max?: number }): Promise<FitCount> {
  const max = o.max ?? 100_000;
  let last: AttemptRecord | null = null;
  const { cluster, scheduler } = await scheduledScenario(sc, o, (a) => { last = a; });
  try {
    const pendingKeys = new Set(sc.pending.map(podKey));
    const bound = new Set(cluster.bindings.map((b) => b.pod));
    const scheduled = [...pendingKeys].filter((k) => bound.has(k)).length;

    const base = cloneJSON(pod);
    const ns = base.metadata.namespace ?? 'default';
    const prefix = `${base.metadata.name ?? 'pod'}-copy-`;
    const perNode = new Map<string, number>();
    let fits = 0;
    let stoppedBy: FitCount['stoppedBy'] = null;
    while (fits < max) {
      // The store copies what it is given, so the copies can share `base`'s objects.
      const unbound = recreatedCopy(base);
      const copy: Pod = { ...unbound, metadata: { ...unbound.metadata, name: `${prefix}${fits}`, namespace: ns } };
      last = null;
      cluster.create(copy);
      await scheduler.loop.drain();
      const a = last as AttemptRecord | null;
      if (a === null || a.outcome !== 'Scheduled') {
        stoppedBy = { message: a?.message ?? 'the copy was not attempted (gated or not for this scheduler)', nodes: refusals(a?.diagnosis ?? null) };
        break;
      }
      perNode.set(a.node, (perNode.get(a.node) ?? 0) + 1);
      fits++;
      o.onProgress?.('copies placed', fits, 0);
    }
    return {
      pod: podKey(base),
      fits,
      placements: [...perNode].map(([node, copies]) => ({ node, copies })).sort((x, y) => y.copies - x.copies || x.node.localeCompare(y.node)),
      stoppedBy,
      pending: { scheduled, unschedulable: pendingKeys.size - scheduled },
      free: freeResources(cluster),
    };
  } finally {
    scheduler.stop();
  }
}

export interface NodesNeeded {
  /** The node the added ones copy. */
  template: string;
  /** How many copies make every pending pod fit, or null when `limit` copies are not enough. */
  nodes: number | null;
  /** Pending pods still unschedulable with no node added. */
  unschedulableWithout: number;
  /** The simulations run to find it (each a full run of the scenario). */
  probes: { nodes: number; unschedulable: number }[];
  /** When nodes alone do not help: the pods still left out with the most nodes tried, and why. */
  leftOut: { pod: string; message: string }[];
}

/**
 * The scenario with `count` copies of `template` added, named `<prefix><i>`, each with a copy of
 * `daemonPods` (the template's DaemonSet pods: their controllers run one on every new node too).
 */
function withNodes(sc: Scenario, template: Node, count: number, prefix: string, daemonPods: readonly Pod[]): Scenario {
  const added: Node[] = [];
  const pods: Pod[] = [];
  for (let i = 0; i < count; i++) {
    const name = `${prefix}${i}`;
    added.push(copyOfNode(template, name));
    for (const p of daemonPods) pods.push(daemonPodOn(p, name));
  }
  return { ...sc, nodes: [...sc.nodes, ...added], pods: [...sc.pods, ...pods] };
}

/** `template` as a new node called `name`: its labels (the hostname label renamed too), annotations, spec and status. */
function copyOfNode(template: Node, name: string): Node {
  const labels = { ...(template.metadata.labels ?? {}) };
  if ('kubernetes.io/hostname' in labels) labels['kubernetes.io/hostname'] = name;
  return { ...cloneJSON(template), metadata: { name, labels, ...(template.metadata.annotations ? { annotations: { ...template.metadata.annotations } } : {}) } };
}


/** Whether `ds` controls pod `p`: by uid when both have one, else by name, in the same namespace. */
function owns(ds: Workload, p: Pod): boolean {
  if ((ds.metadata.namespace ?? 'default') !== (p.metadata.namespace ?? 'default')) return false;
  const ref = (p.metadata.ownerReferences ?? []).find((r) => r.controller === true && r.kind === 'DaemonSet');
  if (ref === undefined) return false;
  return ref.uid && ds.metadata.uid ? ref.uid === ds.metadata.uid : ref.name === ds.metadata.name;
}

/**
 * The DaemonSet pods every added node gets, each pinned to the first added node (withNodes re-pins
 * the copies): `fromDaemonSets`, the pod each of the scenario's DaemonSets would create on an added
 * node (its controller's eligibility: node name, affinity and selector, taints against the daemon
 * tolerations; added nodes differ only in name); `running`, the template's own DaemonSet pods
 * whose DaemonSet the scenario lacks (a snapshot without workloads), as they run.
 */
function templateDaemonPods(sc: Scenario, template: Node, prefix: string): { fromDaemonSets: Pod[]; running: Pod[] } {
  const first = copyOfNode(template, `${prefix}0`);
  const daemonSets = sc.objects.filter((o): o is Workload => o.kind === 'DaemonSet');
  const fromDaemonSets = daemonSets.filter((ds) => daemonShouldRunOn(ds, first)).map((ds) => {
    const pod = newDaemonPod(ds, first.metadata.name ?? '');
    delete pod.metadata.generateName;
    pod.metadata.name = ds.metadata.name ?? 'daemon';
    pod.spec.nodeName = first.metadata.name;
    return pod;
  });
  const running = sc.pods.filter((p) => p.spec.nodeName === template.metadata.name && isDaemonPod(p) && !daemonSets.some((ds) => owns(ds, p)));
  return { fromDaemonSets, running };
}

/** A DaemonSet pod moved to `node`, re-pinned there as the DaemonSet controller pins its pods (metadata.name in a required term). */
function daemonPodOn(p: Pod, node: string): Pod {
  const copy = cloneJSON(p);
  for (const term of copy.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    for (const f of term.matchFields ?? []) if (f.key === 'metadata.name') f.values = [node];
  }
  return { ...copy, metadata: { ...copy.metadata, name: `${p.metadata.name ?? 'daemon'}-${node}`, uid: undefined, resourceVersion: undefined }, spec: { ...copy.spec, nodeName: node } };
}

/**
 * A first guess at the nodes to add, from requests alone: the left-out pods, largest cpu first,
 * packed first-fit onto copies of the template holding only its DaemonSet pods (cpu, memory,
 * extended resources, pod count). Only where the search starts: every answer is checked by full
 * simulations.
 */
function packingGuess(leftOut: readonly Pod[], template: Node, daemonPods: readonly Pod[]): number {
  const allocatable = Resource.fromList(template.status?.allocatable ?? template.status?.capacity);
  for (const p of daemonPods) allocatable.sub(computePodResourceRequests(p).resource);
  allocatable.allowedPodNumber -= daemonPods.length;
  const fitsIn = (r: Resource, free: Resource) => r.milliCPU <= free.milliCPU && r.memory <= free.memory && free.allowedPodNumber >= 1
    && [...(r.scalarResources ?? [])].every(([k, v]) => v <= (free.scalarResources?.get(k) ?? 0));
  const bins: Resource[] = [];
  const requests = leftOut.map((p) => computePodResourceRequests(p).resource).sort((a, b) => b.milliCPU - a.milliCPU || b.memory - a.memory);
  for (const r of requests) {
    const empty = new Resource();
    empty.add(allocatable);
    // A pod too big for an empty node: nodes like this cannot help it, which the simulations will show.
    if (!fitsIn(r, empty)) continue;
    let bin = bins.find((b) => fitsIn(r, b));
    if (bin === undefined) bins.push((bin = empty));
    bin.sub(r);
    bin.allowedPodNumber -= 1;
  }
  return bins.length;
}

/**
 * The fewest copies of `template` to add so that no pending pod (nor any pod the timeline creates;
 * with `only`, none of those pods) ends unschedulable, each new node carrying the template's DaemonSet pods. Each probe is a full
 * simulation (more nodes never leave more pods out, so the search is sound); it starts from a
 * packing guess of the pods left out with none added, and gallops (then bisects) from there: a
 * good guess needs two probes besides the first.
 */
export async function nodesNeeded(sc: Scenario, template: Node, o: CapacityOptions & { limit?: number; prefix?: string; only?: ReadonlySet<string> }): Promise<NodesNeeded> {
  const limit = o.limit ?? 10_000;
  const prefix = o.prefix ?? `${template.metadata.name ?? 'node'}-added-`;
  const probes: NodesNeeded['probes'] = [];
  let leftOut: NodesNeeded['leftOut'] = [];
  const { fromDaemonSets, running } = templateDaemonPods(sc, template, prefix);
  // Every added node holds these; with the workload controllers on, the DaemonSet controller
  // creates its own pods there, so only the snapshot's pods are added by hand.
  const daemonPods = [...fromDaemonSets, ...running];
  const addedDaemonPods = sc.controllers === true ? running : daemonPods;
  /** Runs the scenario with n nodes added; `idle` says an added node stayed empty though pods were left out. */
  const probe = async (n: number): Promise<{ left: number; idle: boolean }> => {
    let attempts = 0;
    const what = `simulation ${probes.length + 1} (${n} nodes added): pods attempted`;
    const onAttempt = o.onProgress && (() => o.onProgress!(what, ++attempts, 0));
    const report = await runSimulation(n === 0 ? sc : withNodes(sc, template, n, prefix, addedDaemonPods), { ...o, onAttempt });
    // `only`: the pods that must fit (a gang's members); the others may stay left out.
    const out = report.pods.filter((p) => (p.outcome === 'Unschedulable' || p.outcome === 'Pending' || p.outcome === 'Gated') && (o.only === undefined || o.only.has(p.pod)));
    probes.push({ nodes: n, unschedulable: out.length });
    leftOut = out.map((p) => ({ pod: p.pod, message: p.message }));
    const idle = out.length > 0 && report.nodes.some((a) => a.node.startsWith(prefix) && a.pods.count === daemonPods.length);
    return { left: out.length, idle };
  };
  const name = template.metadata.name ?? '';
  const without = (await probe(0)).left;
  if (without === 0) return { template: name, nodes: 0, unschedulableWithout: 0, probes, leftOut: [] };
  const podsByKey = new Map([...sc.pending, ...sc.steps.flatMap((s) => s.create.filter((x): x is Pod => x.kind === 'Pod'))].map((p) => [podKey(p), p]));
  const guess = Math.min(limit, Math.max(1, packingGuess(leftOut.flatMap((l) => podsByKey.get(l.pod) ?? []), template, daemonPods)));
  // low: known to leave pods out; high: known to fit them all (once found).
  let low = 0;
  let high: number;
  const first = await probe(guess);
  if (first.left === 0) {
    // Most often the guess is right: one node fewer must then fail.
    high = guess;
    if (guess - 1 > low) {
      if ((await probe(guess - 1)).left > 0) low = guess - 1;
      else high = guess - 1;
    }
  } else {
    // An added node nobody used: the pods left out cannot use a node like this one at all.
    if (first.idle || guess >= limit) return { template: name, nodes: null, unschedulableWithout: without, probes, leftOut };
    low = guess;
    for (let step = 1; ; step *= 2) {
      const n = Math.min(guess + step, limit);
      const { left, idle } = await probe(n);
      if (left === 0) {
        high = n;
        break;
      }
      if (idle || n >= limit) return { template: name, nodes: null, unschedulableWithout: without, probes, leftOut };
      low = n;
    }
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if ((await probe(mid)).left === 0) high = mid;
    else low = mid;
  }
  return { template: name, nodes: high, unschedulableWithout: without, probes, leftOut: [] };
}

export interface NodeRemoval {
  node: string;
  /** Whether every pod on it (DaemonSet pods aside) found a place on the other nodes. */
  removable: boolean;
  /**
   * How it was decided: `room`, from the filters alone, each pod shown on a distinct node where it
   * fits now (nodes with room, not the scheduler's choice; also a node with nothing to move);
   * `scheduler`, by scheduling the pods one at a time, each shown where the scheduler put it.
   */
  decidedBy: 'room' | 'scheduler';
  /** The pods that would move, with where they went (or why not, for the first that did not fit). */
  pods: { pod: string; node: string; message: string }[];
}

/**
 * For each node (all, or those named), whether it could be removed with its pods rescheduled on
 * the others, as a scale-down simulation asks, after the scenario's pending pods are scheduled.
 * First by the fit certificate (removal_certificate.ts): when each pod fits enough other nodes
 * as the cluster is, the node is removable and no scheduling cycle runs, so the scheduler's state
 * (its rotating start node, its tie-break draws) stays as if the node had not been asked about.
 * Otherwise, or for every node with `placements`, the probe: the node is cordoned and its pods
 * (DaemonSet pods excepted) are recreated unbound, one at a time, never preempting; then
 * everything is put back before the next node is tried, so each answer is about removing that
 * node alone. Only the probe says a node is not removable.
 */
export async function removableNodes(sc: Scenario, o: CapacityOptions & { nodes?: readonly string[]; placements?: boolean }): Promise<NodeRemoval[]> {
  let last: AttemptRecord | null = null;
  const records = new Map<string, AttemptRecord>();
  const { cluster, scheduler } = await scheduledScenario(sc, o, (a) => {
    last = a;
    records.set(podKey(a.pod), a);
  });
  // With the workload controllers on, a removed pod's controller may make a replacement that the
  // probe schedules too, which the certificate does not account for.
  const certificate = o.placements === true || sc.controllers === true ? null : new RemovalCertificate(scheduler, o.config.profiles, o.registry);
  try {
    // Pods left pending are not part of the question, and must not take the room a probe frees.
    for (const p of cluster.list<Pod>('Pod')) if (!p.spec.nodeName) cluster.remove('Pod', p.metadata.namespace ?? 'default', p.metadata.name ?? '');
    const names = o.nodes ?? cluster.list<Node>('Node').map((n) => n.metadata.name ?? '').sort();
    // Each probe puts the cluster back as it found it, so the pods of a node are indexed once
    // (a listing of every pod per node was 5,000 x 100,000 visits on a large cluster).
    const podsByNode = new Map<string, Pod[]>();
    // With pod groups on, a gang moves whole: its members on every node, by the root of its
    // tree (the PodGroup itself without composites), as the scheduler takes a tree as one entity.
    const membersByGroup = new Map<string, Pod[]>();
    const groupOf = scheduler.podGroups === null ? () => null
      : treeRootKey(scheduler.features.enableCompositePodGroup ? [...cluster.list<PodGroup>('PodGroup'), ...cluster.list<CompositePodGroup>('CompositePodGroup')] : []);
    for (const p of cluster.list<Pod>('Pod')) {
      const n = p.spec.nodeName;
      if (!n || isDaemonPod(p) || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
      let list = podsByNode.get(n);
      if (list === undefined) podsByNode.set(n, (list = []));
      list.push(p);
      const g = groupOf(p);
      if (g !== null) membersByGroup.set(g, [...(membersByGroup.get(g) ?? []), p]);
    }
    const out: NodeRemoval[] = [];
    for (const [i, name] of names.entries()) {
      o.onProgress?.('nodes tried', i, names.length);
      const node = cluster.get<Node>('Node', '', name);
      if (node === undefined) continue;
      const moving = podsByNode.get(name) ?? [];
      // Nothing to move: removable without touching the cluster (a cordon and uncordon with no
      // cycle between them leave the scheduler as they found it).
      if (moving.length === 0) {
        out.push({ node: name, removable: true, decidedBy: 'room', pods: [] });
        continue;
      }
      // The groups (trees) with a member here: each is rescheduled whole, so the fit certificate (pods alone) does not apply.
      const groups = [...new Set(moving.map(groupOf).filter((g): g is string => g !== null))];
      const witnesses = groups.length > 0 ? null : (certificate?.witnesses(name, moving) ?? null);
      if (witnesses !== null) {
        out.push({ node: name, removable: true, decidedBy: 'room', pods: moving.map((p, j) => ({ pod: podKey(p), node: witnesses[j]!, message: '' })) });
        continue;
      }
      cluster.update<Node>({ ...node, spec: { ...(node.spec ?? {}), unschedulable: true } });
      const result: NodeRemoval = { node: name, removable: true, decidedBy: 'scheduler', pods: [] };
      const copies: Pod[] = [];
      const singles = moving.filter((p) => groupOf(p) === null);
      const gangs = groups.map((g) => membersByGroup.get(g) ?? []);
      const removed = [...singles, ...gangs.flat()];
      for (const p of singles) {
        cluster.remove('Pod', p.metadata.namespace ?? 'default', p.metadata.name ?? '');
        last = null;
        copies.push(cluster.create(recreatedCopy(p, leaving(name, scheduler.profiles.get(p.spec.schedulerName ?? 'default-scheduler')))));
        await scheduler.loop.drain();
        const a = last as AttemptRecord | null;
        const placed = a?.outcome === 'Scheduled';
        result.pods.push({ pod: podKey(p), node: placed ? a!.node : '', message: placed ? '' : (a?.message ?? 'not attempted') });
        if (!placed) {
          result.removable = false;
          break;
        }
      }
      // Each gang (or tree): every member removed, then recreated together so one group cycle places them; kept whole means all placed.
      for (const members of result.removable ? gangs : []) {
        for (const p of members) cluster.remove('Pod', p.metadata.namespace ?? 'default', p.metadata.name ?? '');
        records.clear();
        for (const p of members) copies.push(cluster.create(recreatedCopy(p, leaving(name, scheduler.profiles.get(p.spec.schedulerName ?? 'default-scheduler')))));
        await scheduler.loop.drain();
        for (const p of members) {
          const a = records.get(podKey(p));
          const placed = a?.outcome === 'Scheduled';
          result.pods.push({ pod: podKey(p), node: placed ? a!.node : '', message: placed ? '' : (a?.message ?? 'not attempted') });
          if (!placed) result.removable = false;
        }
        if (!result.removable) break;
      }
      // Put the cluster back as it was: copies out, the original pods back on the node, uncordoned.
      for (const c of copies) cluster.remove('Pod', c.metadata.namespace ?? 'default', c.metadata.name ?? '');
      for (const p of removed) if (cluster.get('Pod', p.metadata.namespace ?? 'default', p.metadata.name ?? '') === undefined) cluster.create({ ...p, metadata: { ...p.metadata, uid: undefined, resourceVersion: undefined } });
      cluster.update<Node>({ ...cluster.get<Node>('Node', '', name)!, spec: node.spec ?? {} });
      await scheduler.loop.drain();
      out.push(result);
    }
    o.onProgress?.('nodes tried', names.length, names.length);
    return out;
  } finally {
    scheduler.stop();
  }
}
