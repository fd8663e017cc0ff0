// `simulate`: runs the scheduler over a scenario on a simulated clock until it is idle and the
// timeline is done, and reports every pod's fate (the schema in scenarios/README.md).
import { Name as GangSchedulingName, waitingForQuorum } from '../../plugins/gangscheduling/gang_scheduling.js';
import type { Node, Pod } from '../../api/types.js';
import { podKey } from '../../api/types.js';
import { clusterScopedKinds } from '../../api/kinds.js';
import { computePodResourceRequests, isExtendedResourceName, Resource } from '../../api/resource_requests.js';
import type { MemoryCluster } from '../../cluster/memory/store.js';
import type { Features } from '../../framework/features.js';
import type { SchedulingQueue } from '../../queue/scheduling_queue.js';
import type { AttemptRecord } from '../../scheduler/scheduler.js';
import { createEmbedded, quietLimitMs, type EmbeddedOptions } from '../scenario/embedded.js';
import { ScenarioError, type Scenario } from '../scenario/scenario.js';
import { deviceReport, type DeviceReport } from '../report/dra_report.js';
import { restartWithConfiguration, stepConfigurations } from './reconfigure.js';
import { applyStepOps } from '../scenario/whatif_steps.js';

type SimOutcome = 'Scheduled' | 'Unschedulable' | 'Gated' | 'Preempted' | 'Deleted' | 'Pending';

export interface SimPod {
  pod: string;
  outcome: SimOutcome;
  node: string;
  attempts: number;
  scheduledAt: number | null;
  message: string;
  nominatedNode: string;
  preemptedBy: string;
}

export interface NodeAllocation {
  node: string;
  cpu: { requested: number; allocatable: number };
  memory: { requested: number; allocatable: number };
  pods: { count: number; allocatable: number };
  /** Each extended resource the node offers (nvidia.com/gpu, ...), when it has any. */
  extended?: { name: string; requested: number; allocatable: number }[];
}

export interface SimReport {
  pods: SimPod[];
  nodes: NodeAllocation[];
  summary: {
    scheduled: number;
    unschedulable: number;
    pending: number;
    preempted: number;
    simulatedSeconds: number;
    wallSeconds: number;
    podsPerSecond: number;
  };
  /** Plugins the configuration names that are not built yet. */
  unavailablePlugins: string[];
  /** Device use per node and per pool, when the scenario has ResourceSlices. */
  devices?: DeviceReport;
}

/** Watches a run as it goes (the HTML report's collector). */
export interface SimulationObserver {
  /** After each attempt, with the queue as the attempt left it. */
  attempt(a: AttemptRecord, queue: SchedulingQueue): void;
  /** The cluster as the run left it, before the report is built, and the features its scheduler had. */
  finished(cluster: MemoryCluster, features: Features): void;
}

/**
 * Runs the scenario; `o.onAttempt`, when given, sees every attempt after the report has, and
 * `observer` the queue after each attempt and the cluster at the end.
 */
export async function runSimulation(sc: Scenario, o: EmbeddedOptions, observer?: SimulationObserver): Promise<SimReport> {
  const configs = stepConfigurations(sc, o.registry);
  const records = new Map<string, SimPod>();
  // Attempts a pod had under schedulers a `reconfigure` step replaced (a new one counts from 1).
  const attemptsBefore = new Map<string, number>();
  const order: string[] = [];
  const track = (key: string): SimPod => {
    let r = records.get(key);
    if (!r) {
      r = { pod: key, outcome: 'Pending', node: '', attempts: 0, scheduledAt: null, message: '', nominatedNode: '', preemptedBy: '' };
      records.set(key, r);
      order.push(key);
    }
    return r;
  };
  for (const p of sc.pods) {
    const r = track(podKey(p));
    r.outcome = 'Scheduled';
    r.node = p.spec.nodeName ?? '';
  }
  for (const p of sc.pending) track(podKey(p));

  let scheduledCount = 0;
  const onAttempt = (a: AttemptRecord) => {
    const key = podKey(a.pod);
    const r = track(key);
    r.attempts = (attemptsBefore.get(key) ?? 0) + a.attempt;
    if (a.outcome === 'Scheduled') {
      r.outcome = 'Scheduled';
      r.node = a.node;
      r.message = '';
      r.scheduledAt = a.time / 1000;
      scheduledCount++;
    } else {
      r.outcome = 'Unschedulable';
      r.message = a.message;
      if (a.nominatedNode) r.nominatedNode = a.nominatedNode;
    }
    for (const v of a.victims) {
      const vr = track(v);
      vr.outcome = 'Preempted';
      vr.preemptedBy = key;
    }
    o.onAttempt?.(a);
    observer?.attempt(a, env.scheduler.queue);
  };
  const runOptions: EmbeddedOptions = { ...o, onAttempt };
  const env = await createEmbedded(sc, runOptions);
  const { clock, cluster } = env;
  let scheduler = env.scheduler;
  const unavailablePlugins = new Set<string>();
  const noteUnavailablePlugins = () => {
    for (const names of scheduler.unavailablePlugins().values()) for (const n of names) unavailablePlugins.add(n);
  };
  // Pods in backoff get their retry, until nothing changes for longer than the longest backoff.
  let quietLimit = quietLimitMs(o.config);
  const wallStart = performance.now();

  for (const p of sc.pending) cluster.create(p);

  const applyStep = async (i: number) => {
    const step = sc.steps[i]!;
    const config = configs[i];
    if (config !== undefined) {
      noteUnavailablePlugins();
      for (const r of records.values()) attemptsBefore.set(r.pod, r.attempts);
      scheduler = await restartWithConfiguration(env, config, runOptions);
      quietLimit = quietLimitMs(config);
    }
    for (const [j, obj] of step.create.entries()) {
      if (obj.kind === 'Pod') track(podKey(obj as Pod));
      try {
        cluster.create(obj);
      } catch (err) {
        throw new ScenarioError(`${sc.name}: steps[${i}].create[${j}]: ${(err as Error).message}`);
      }
    }
    for (const obj of step.update) cluster.update(obj);
    for (const d of step.delete) {
      const ns = clusterScopedKinds.has(d.kind) ? '' : (d.namespace ?? 'default');
      if (cluster.remove(d.kind, ns, d.name) && d.kind === 'Pod') markDeleted(`${d.namespace ?? 'default'}/${d.name}`);
    }
    if (step.ops) for (const key of applyStepOps(cluster, step.ops)) markDeleted(key);
  };
  const markDeleted = (key: string) => {
    const r = track(key);
    if (r.outcome !== 'Preempted') r.outcome = 'Deleted';
  };

  let lastProgressAt = 0;
  let bound = 0;
  let nextStep = 0;
  let stepAt = sc.steps.length > 0 ? sc.steps[0]!.afterMs : Infinity;
  for (;;) {
    // Pods the workload controllers create in reaction to the last change are in the queue first.
    await cluster.controllers.settled();
    await scheduler.loop.drain();
    // The resourceclaim controller's passes may outlast the drain (a deleted pod's claims freed):
    // let them finish and schedule what they enabled before the simulated clock moves on.
    await cluster.controllersIdle();
    await scheduler.loop.drain();
    if (cluster.bindings.length !== bound) {
      bound = cluster.bindings.length;
      lastProgressAt = clock.now();
    }
    const backingOff = scheduler.queue.nextBackoffExpiry() !== undefined;
    const timerAt = backingOff ? clock.nextTimerAt() : undefined;
    const finishAt = cluster.controllers.lifetimes.nextFinishAt();
    if (nextStep < sc.steps.length && (timerAt === undefined || stepAt <= timerAt) && (finishAt === undefined || stepAt <= finishAt)) {
      clock.runUntil(stepAt);
      await applyStep(nextStep++);
      lastProgressAt = clock.now();
      stepAt = nextStep < sc.steps.length ? clock.now() + sc.steps[nextStep]!.afterMs : Infinity;
      continue;
    }
    if (finishAt !== undefined && (timerAt === undefined || finishAt <= timerAt)) {
      // A pod's run time ends: its resources free up, and its controller may start another.
      clock.runUntil(finishAt);
      lastProgressAt = clock.now();
      continue;
    }
    if (timerAt !== undefined && timerAt - lastProgressAt <= quietLimit) {
      clock.runUntil(timerAt);
      continue;
    }
    break;
  }
  const wallSeconds = (performance.now() - wallStart) / 1000;

  // Pods still held by the queue are gated or unschedulable.
  for (const qp of scheduler.queue.pendingPods()) {
    const r = track(qp.podInfo.key);
    if (qp.gatingPlugin !== null) r.outcome = 'Gated';
    if (qp.gatingPlugin === GangSchedulingName) r.message = waitingForQuorum;
    else if (r.outcome === 'Pending' && r.attempts > 0) r.outcome = 'Unschedulable';
  }
  noteUnavailablePlugins();
  scheduler.stop();
  observer?.finished(cluster, scheduler.features);

  const pods = order.map((k) => records.get(k)!);
  const nodes = allocationReport(cluster.list<Node>('Node'), cluster.list<Pod>('Pod'));
  const count = (o: SimOutcome) => pods.filter((p) => p.outcome === o).length;
  const devices = deviceReport(cluster);
  return {
    pods,
    nodes,
    summary: {
      scheduled: count('Scheduled'),
      unschedulable: count('Unschedulable'),
      pending: count('Pending') + count('Gated'),
      preempted: count('Preempted'),
      simulatedSeconds: clock.now() / 1000,
      wallSeconds,
      podsPerSecond: wallSeconds > 0 ? scheduledCount / wallSeconds : 0,
    },
    unavailablePlugins: [...unavailablePlugins],
    ...(devices !== null ? { devices } : {}),
  };
}

function allocationReport(nodes: Node[], pods: Pod[]): NodeAllocation[] {
  const requested = new Map<string, { r: Resource; count: number }>();
  for (const p of pods) {
    const n = p.spec.nodeName;
    if (!n || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
    let e = requested.get(n);
    if (!e) requested.set(n, (e = { r: new Resource(), count: 0 }));
    // Only the requests: a whole PodInfo (affinity terms, tolerations) per pod cost 2 s on 100,000 pods.
    e.r.add(computePodResourceRequests(p).resource);
    e.count++;
  }
  return nodes.map((n) => {
    const alloc = Resource.fromList(n.status?.allocatable ?? n.status?.capacity);
    const e = requested.get(n.metadata.name!);
    const extended: NonNullable<NodeAllocation['extended']> = [];
    for (const [name, allocatable] of alloc.scalarResources ?? []) {
      if (allocatable > 0 && isExtendedResourceName(name)) extended.push({ name, requested: e?.r.scalarResources?.get(name) ?? 0, allocatable });
    }
    extended.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return {
      node: n.metadata.name!,
      cpu: { requested: e?.r.milliCPU ?? 0, allocatable: alloc.milliCPU },
      memory: { requested: e?.r.memory ?? 0, allocatable: alloc.memory },
      pods: { count: e?.count ?? 0, allocatable: alloc.allowedPodNumber },
      ...(extended.length > 0 ? { extended } : {}),
    };
  });
}

