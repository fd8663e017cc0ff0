// `explain`: schedules each pending pod once, in order, and reports per node why it was
// rejected or how it scored (the schema in scenarios/README.md, extended as the README's
// "Explain output" says). With `diagnose` every attempt is diagnosed: every Filter plugin's
// verdict per node, raw/normalized/weighted scores, preemption per node, the attempts.
import type { Pod } from '../../api/types.js';
import { podKey } from '../../api/types.js';
import { kindKeyOf } from '../../api/kinds.js';
import type { PreemptionCandidateDiagnosis, PreemptionDiagnosis, PreemptionNodeVerdict } from '../../framework/cycle_diagnosis.js';
import { codeName, type Status } from '../../framework/status.js';
import type { AttemptRecord } from '../../scheduler/scheduler.js';
import type { CompositePlacementRecord } from '../../scheduler/composite_algorithm.js';
import { createEmbedded, type EmbeddedOptions } from '../scenario/embedded.js';
import type { Scenario } from '../scenario/scenario.js';
import { runSimulation, type SimReport } from '../simulate/simulate.js';
import { deviceDiagnosis, podClaims, podDevices, type ExplainDevice } from '../report/dra_report.js';
import type { RequestShortfall } from '../../plugins/dynamicresources/index.js';
import { type PodGroup, type SchedulingGroup } from '../../api/scheduling.js';
import { Name as GangSchedulingName, waitingForQuorum } from '../../plugins/gangscheduling/gang_scheduling.js';
import type { Scheduler } from '../../scheduler/scheduler.js';
import { explainGroups, explainTrees, type ExplainGroup, type ExplainTree } from './explain_groups.js';
import { DefaultSchedulerName } from '../../config/types.js';
import { PodWriteRecorder } from './pod_writes.js';
import { createdAfterMembers, treeRoots } from './tree_roots.js';
import { retryRounds } from './retries.js';

export interface ExplainStatus {
  plugin: string;
  code: string;
  reasons: string[];
}

/** One plugin's score on one node: its Score answer, after NormalizeScore, its weight, and the product. */
export interface ExplainScore {
  raw: number;
  normalized: number;
  weight: number;
  weighted: number;
}

export interface ExplainCandidate {
  node: string;
  victims: string[];
  pdbViolations: number;
  violatedBudgets: string[];
  highestVictimPriority: number;
  sumOfVictimPriorities: number;
  victimCount: number;
  /** RFC 3339; null when none of them has started. */
  earliestStartOfHighestPriorityVictims: string | null;
  /** The rule of pickOneNodeForPreemption that ruled this candidate out; null for the chosen one. */
  eliminatedBy: string | null;
}

export interface ExplainPreemptionNode {
  verdict: PreemptionNodeVerdict;
  /** NotHelpful: the filter verdict that made preemption pointless; StillRejected, Error: the dry run's. */
  status: ExplainStatus | null;
  /** StillRejected: every Filter plugin that rejects with all lower-priority pods removed. */
  stillRejectedBy: ExplainStatus[];
  /** Candidate: the victims it would take and their cost. */
  candidate: ExplainCandidate | null;
  /** Whether the scheduler's own dry run looked at the node (it stops once it has enough candidates). */
  dryRun: boolean;
}

export interface ExplainPreemption {
  /** Why the pod may not preempt at all; '' when it may. */
  notEligible: string;
  nodes: Record<string, ExplainPreemptionNode>;
  /** The candidates the scheduler chose among, in its order. */
  candidates: ExplainCandidate[];
  chosen: string;
  decidedBy: string | null;
}

export interface ExplainAttempt {
  attempt: number;
  /** Seconds on the simulated clock when the attempt ended. */
  time: number;
  outcome: 'Scheduled' | 'Unschedulable' | 'Error';
  node: string;
  message: string;
  nominatedNode: string;
  victims: string[];
  /** The event that requeued the pod for this attempt and the plugin whose queueing hint let it; null for the first. */
  requeuedBy: { event: string; plugin: string } | null;
}

export interface ExplainPod {
  pod: string;
  outcome: 'Scheduled' | 'Unschedulable' | 'Error';
  node: string;
  message: string;
  filter: Record<string, ExplainStatus>;
  preFilter: ExplainStatus | null;
  scores: Record<string, Record<string, number>>;
  bestNodes: string[];
  nominatedNode: string;
  victims: string[];
  /** Diagnosed: the Filter plugins run for the pod, in order (those whose PreFilter skipped left out). */
  filterPlugins: string[];
  /** Diagnosed: per rejected node, every Filter plugin that rejected it, in order. */
  allFilters: Record<string, ExplainStatus[]>;
  /** Diagnosed: per scored node, per plugin, raw/normalized/weighted. */
  scoreDetails: Record<string, Record<string, ExplainScore>>;
  /** Diagnosed, when PostFilter ran: preemption per node and the choice among candidates. */
  preemption: ExplainPreemption | null;
  /** The pod's attempts, oldest first (explain's one attempt, or every attempt of a timeline run). */
  attempts: ExplainAttempt[];
  /** Pods with resource claims: the devices allocated to them, per claim and request. */
  devices?: ExplainDevice[];
  /** Pods with resource claims: per node DynamicResources rejected, the requests it fell short on. */
  deviceDiagnosis?: Record<string, RequestShortfall[]>;
  /** With `recordWrites`, single pods: the attempt's timeline (pod_writes.ts), oldest first. */
  writes?: string[];
  /** With `recordWrites`, single pods: the later attempts once every pending pod had its first (retries.ts). */
  retries?: ExplainPod[];
  /** With `recordWrites`, single pods: where the pod ended up after the retries (retries.ts). */
  final?: string;
  /** A retry's place among all the run's retries, from 1 (retries.ts). */
  seq?: number;
}

function explainStatus(s: Status): ExplainStatus {
  return { plugin: s.plugin, code: codeName(s.code), reasons: [...s.reasons] };
}

export function explainAttempt(a: AttemptRecord, attempts: ExplainAttempt[] = [attemptSummary(a)]): ExplainPod {
  const filter: Record<string, ExplainStatus> = {};
  const allFilters: Record<string, ExplainStatus[]> = {};
  let preFilter: ExplainStatus | null = null;
  const d = a.diagnosis;
  if (d) {
    for (const [node, s] of d.nodeToStatus.entries()) filter[node] = explainStatus(s);
    if (d.preFilterStatus) preFilter = explainStatus(d.preFilterStatus);
    for (const [node, list] of d.allFilters ?? []) allFilters[node] = list.map(explainStatus);
  }
  const scored = a.result !== null && a.result.scores.length > 1;
  const scores: Record<string, Record<string, number>> = {};
  const scoreDetails: Record<string, Record<string, ExplainScore>> = {};
  for (const ns of scored ? a.result!.scores : []) {
    const row: Record<string, number> = {};
    const details: Record<string, ExplainScore> = {};
    for (const ps of ns.scores) {
      row[ps.name] = ps.score;
      if (ps.raw !== undefined) details[ps.name] = { raw: ps.raw, normalized: ps.normalized!, weight: ps.weight!, weighted: ps.score };
    }
    row.total = ns.totalScore;
    scores[ns.name] = row;
    if (Object.keys(details).length > 0) scoreDetails[ns.name] = details;
  }
  return {
    pod: podKey(a.pod),
    outcome: a.outcome,
    node: a.node,
    message: a.message,
    filter,
    preFilter,
    scores,
    bestNodes: a.result?.bestNodes ?? [],
    nominatedNode: a.nominatedNode,
    victims: [...a.victims].sort(),
    filterPlugins: [...(d?.filterPlugins ?? [])],
    allFilters,
    scoreDetails,
    preemption: a.preemption ? explainPreemption(a.preemption) : null,
    attempts,
  };
}

export function attemptSummary(a: AttemptRecord): ExplainAttempt {
  return {
    attempt: a.attempt,
    time: a.time / 1000,
    outcome: a.outcome,
    node: a.node,
    message: a.message,
    nominatedNode: a.nominatedNode,
    victims: [...a.victims].sort(),
    requeuedBy: a.requeuedBy ? { event: a.requeuedBy.event, plugin: a.requeuedBy.plugin } : null,
  };
}

function explainCandidate(c: PreemptionCandidateDiagnosis, eliminatedBy: string | null): ExplainCandidate {
  const t = c.earliestStartOfHighestPriorityVictims;
  return {
    node: c.node,
    victims: [...c.victims],
    pdbViolations: c.pdbViolations,
    violatedBudgets: [...c.violatedBudgets],
    highestVictimPriority: c.highestVictimPriority,
    sumOfVictimPriorities: c.sumOfVictimPriorities,
    victimCount: c.victimCount,
    earliestStartOfHighestPriorityVictims: t === null ? null : new Date(t).toISOString().replace('.000Z', 'Z'),
    eliminatedBy,
  };
}

function explainPreemption(p: PreemptionDiagnosis): ExplainPreemption {
  const nodes: Record<string, ExplainPreemptionNode> = {};
  for (const n of p.nodes) {
    nodes[n.node] = {
      verdict: n.verdict,
      status: n.status ? explainStatus(n.status) : null,
      stillRejectedBy: n.stillRejectedBy.map(explainStatus),
      candidate: n.candidate ? explainCandidate(n.candidate, null) : null,
      dryRun: n.dryRun,
    };
  }
  return {
    notEligible: p.notEligible,
    nodes,
    candidates: p.candidates.map((c) => explainCandidate(c, p.eliminatedBy.get(c.node) ?? null)),
    chosen: p.chosen,
    decidedBy: p.decidedBy,
  };
}

/** Explain's options: the embedded run's, and whether to diagnose each attempt. */
export type ExplainOptions = Omit<EmbeddedOptions, 'onAttempt' | 'onBindingStart' | 'recordScores'>;

/** What explain answers: each attempted pod, and each pod group with pending members (when any). */
export interface ExplainResult {
  pods: ExplainPod[];
  groups?: ExplainGroup[];
  /** Each CompositePodGroup tree with pending members, child group by child group (CompositePodGroup on). */
  trees?: ExplainTree[];
}

/** The result with `groups` and `trees` only when there are any (older readers see no new keys). */
function withGroups<T extends { pods: ExplainPod[] }>(r: T, groups: ExplainGroup[], trees: ExplainTree[]): T & Pick<ExplainResult, 'groups' | 'trees'> {
  return { ...r, ...(groups.length > 0 ? { groups } : {}), ...(trees.length > 0 ? { trees } : {}) };
}

/** Placed (a node was chosen), then failed in its binding cycle with an error (PreBind, Bind). */
const failedInBinding = (a: AttemptRecord): boolean => a.outcome === 'Error' && a.result !== null;

const scenarioPodGroups = (sc: Scenario): PodGroup[] => sc.objects.filter((o) => kindKeyOf(o) === 'PodGroup') as unknown as PodGroup[];

/** The scenario's PodGroups and CompositePodGroups (kind set, as the scheduler's objects carry it). */
const scenarioGroups = (sc: Scenario): SchedulingGroup[] => sc.objects.flatMap((o) => {
  const kind = kindKeyOf(o);
  return kind === 'PodGroup' || kind === 'CompositePodGroup' ? [{ ...(o as unknown as SchedulingGroup), kind } as SchedulingGroup] : [];
});

/** The pods the queue still holds at PreEnqueue, with the plugin and its message. */
function waitingPods(scheduler: Scheduler): Map<string, { plugin: string; message: string }> {
  const out = new Map<string, { plugin: string; message: string }>();
  for (const qp of scheduler.queue.pendingPods()) {
    const plugin = qp.gatingPlugin;
    if (plugin === null) continue;
    out.set(qp.podInfo.key, { plugin, message: plugin === GangSchedulingName ? waitingForQuorum : `held at PreEnqueue by ${plugin}` });
  }
  return out;
}

/** runExplain's options: `recordWrites` adds each single pod's `writes` (the differential harness's timeline). */
export type RunExplainOptions = ExplainOptions & { recordWrites?: boolean };

export async function runExplain(sc: Scenario, o: RunExplainOptions): Promise<ExplainResult> {
  const byPod = new Map<string, AttemptRecord>();
  /** The single pod being attempted: another pod's failed attempt meanwhile is a victim's requeue. */
  let attempted: string | null = null;
  let writes: PodWriteRecorder | null = null;
  const rounds = new Map<string, CompositePlacementRecord>();
  // The groups held back until their members exist are created in the group's turn, below.
  const env = await createEmbedded({ ...sc, objects: sc.objects.filter((obj) => !createdAfterMembers(obj)) }, {
    ...o, recordScores: true, onCompositePlacements: (r) => rounds.set(r.group, r), onAttempt: (a) => {
      const key = podKey(a.pod);
      byPod.set(key, a);
      if (attempted !== null && key !== attempted && a.outcome !== 'Scheduled') writes?.note(`requeue ${key}`);
    },
    // A pod whose binding waits in PreBind for good (no PV controller) is reported as scheduled.
    onBindingStart: (a) => {
      if (!byPod.has(podKey(a.pod))) byPod.set(podKey(a.pod), a);
    },
  });
  const out: ExplainPod[] = [];
  const groupsDone = new Set<string>();
  const groupRecords = new Map<string, AttemptRecord>();
  const gate = (pod: Pod) => env.scheduler.profiles.get(pod.spec.schedulerName ?? DefaultSchedulerName)?.runPreEnqueuePlugins(pod) ?? null;
  if (o.recordWrites) writes = new PodWriteRecorder(env.cluster, gate);
  // Without a PV controller a pod whose volumes PreBind waits for stays there, as in the harness.
  const parkedInPreBind = (bindings: number): boolean => {
    let waiting = 0;
    for (const p of env.cluster.list<Pod>('Pod')) {
      if (p.spec.nodeName || !p.spec.volumes?.some((v) => v.persistentVolumeClaim !== undefined || v.ephemeral !== undefined)) continue;
      const fwk = env.scheduler.profiles.get(p.spec.schedulerName ?? DefaultSchedulerName);
      if (fwk?.getPodInPreBind(p.metadata.uid ?? '') !== undefined) waiting++;
    }
    return waiting === bindings;
  };
  const single = new Map<string, ExplainPod>();
  /** One attempt of a single pod (`pod`: as it is tried, its nodeName included): its report. */
  const attemptSingle = async (created: Pod, pod: Pod, claimsBefore: ReturnType<typeof podClaims>): Promise<ExplainPod | null> => {
    const key = podKey(created);
    byPod.delete(key);
    writes?.start(created);
    attempted = key;
    await env.scheduler.attemptOnce(pod, o.volumeController === false ? parkedInPreBind : undefined);
    attempted = null;
    const last = byPod.get(key);
    if (!last) return null;
    const e = explainAttempt(last);
    // A pod with claims always gets both fields; one without them only when its extended
    // resources got devices (a claim DynamicResources made in PreBind) or nodes had none for them.
    const withClaims = (created.spec.resourceClaims?.length ?? 0) > 0;
    const devices = podDevices(created, env.cluster);
    if (withClaims || devices.length > 0) e.devices = devices;
    const diagnosis = deviceDiagnosis(last, env.cluster, claimsBefore, env.scheduler.features);
    if (withClaims || Object.keys(diagnosis).length > 0) e.deviceDiagnosis = diagnosis;
    if (writes) e.writes = writes.take();
    return e;
  };
  // With CompositePodGroup, a member's group is its tree's root: the tree is one entity.
  const roots = treeRoots(sc, env.scheduler.features.enableCompositePodGroup);
  const rootKey = roots.ofPod;
  const late = sc.objects.filter(createdAfterMembers);
  for (const pending of sc.pending) {
    const group = env.scheduler.podGroups !== null ? rootKey(pending) : null;
    if (group !== null) {
      // A pod group's pending members enter together and are scheduled in one group cycle.
      if (groupsDone.has(group)) continue;
      groupsDone.add(group);
      const members = sc.pending.filter((p) => rootKey(p) === group);
      for (const m of members) env.cluster.create<Pod>({ ...m, kind: 'Pod', spec: { ...m.spec, nodeName: undefined } as Pod['spec'] });
      // The tree's late groups arrive once the queue holds its members, as in the harness.
      for (const obj of late) if (roots.ofGroup(obj) === group) env.cluster.create(obj);
      byPod.clear();
      const namespace = pending.metadata.namespace ?? 'default';
      const name = pending.spec.schedulingGroup!.podGroupName!;
      // A gated member gates its whole entity (PreEnqueue): the group waits, as in the queue.
      const waiting = waitingPods(env.scheduler);
      if (members.some((m) => waiting.has(podKey(m)))) continue;
      await env.scheduler.attemptGroupOnce(namespace, name);
      const reports = new Map<string, ExplainPod>();
      for (const m of members) {
        const a = byPod.get(podKey(m));
        if (a) {
          groupRecords.set(podKey(m), a);
          const e = explainAttempt(a);
          out.push(e);
          reports.set(podKey(m), e);
        }
      }
      // With recordWrites, as the differential harness: the members placed whose binding then
      // failed (a shared claim another member wrote first) get one more group cycle together, at
      // once, reported as their retry.
      const failed = o.recordWrites ? members.filter((m) => { const a = byPod.get(podKey(m)); return a !== undefined && failedInBinding(a); }) : [];
      if (failed.length > 0) {
        for (const m of failed) byPod.delete(podKey(m));
        await env.scheduler.attemptGroupOnce(namespace, name);
        for (const m of failed) {
          const a = byPod.get(podKey(m));
          if (!a) continue;
          groupRecords.set(podKey(m), a);
          reports.get(podKey(m))!.retries = [explainAttempt(a)];
        }
      }
      // One attempt per pending pod, as upstream's harness makes: the members left unscheduled
      // leave, and with them the nominations a group's preemption gave them.
      for (const m of members) {
        if (byPod.get(podKey(m))?.outcome === 'Scheduled') continue;
        const live = env.cluster.getPod(m.metadata.namespace ?? 'default', m.metadata.name ?? '');
        if (live && !live.spec.nodeName) await env.cluster.deletePod(live);
      }
      for (const m of failed) {
        const report = reports.get(podKey(m))!;
        if (report.retries === undefined) continue;
        const live = env.cluster.getPod(m.metadata.namespace ?? 'default', m.metadata.name ?? '');
        report.final = live === undefined ? 'deleted' : live.spec.nodeName ? `bound ${live.spec.nodeName}` : 'pending';
      }
      continue;
    }
    // The pod enters the cluster unbound; a nodeName it carries is what NodeName filters on.
    const { nodeName, ...spec } = pending.spec ?? { containers: [] };
    writes?.start(null);
    let created = env.cluster.create<Pod>({ ...pending, kind: 'Pod', spec: spec as Pod['spec'] });
    // As in a cluster, the resourceclaim controller makes the pod's claims before it is scheduled
    // (only then: waiting lets earlier attempts' bindings move on, which other pods must not see).
    const withClaims = (created.spec.resourceClaims?.length ?? 0) > 0;
    if (withClaims) {
      await env.cluster.controllersIdle();
      created = env.cluster.getPod(created.metadata.namespace ?? 'default', created.metadata.name ?? '') ?? created;
    }
    const claimsBefore = withClaims ? podClaims(created, env.cluster) : [];
    const attemptPod: Pod = nodeName ? { ...created, spec: { ...created.spec, nodeName } } : created;
    const e = await attemptSingle(created, attemptPod, claimsBefore);
    if (!e) continue;
    single.set(podKey(created), e);
    out.push(e);
  }
  if (writes) {
    // The harness's retries: a pending pod naming a node is tried on it again, as at first.
    const retried = sc.pending.filter((p) => single.has(podKey(p)));
    await retryRounds(env.cluster, env.scheduler, retried, single, (pending, live) => {
      const pod = pending.spec.nodeName ? { ...live, spec: { ...live.spec, nodeName: pending.spec.nodeName } } : live;
      return attemptSingle(live, pod, (live.spec.resourceClaims?.length ?? 0) > 0 ? podClaims(live, env.cluster) : []);
    });
  }
  const waiting = waitingPods(env.scheduler);
  const groups = groupsDone.size > 0 ? explainGroups(sc.pending, scenarioPodGroups(sc), groupRecords, waiting) : [];
  const trees = groupsDone.size > 0 && env.scheduler.features.enableCompositePodGroup ? explainTrees(sc.pending, scenarioGroups(sc), groupRecords, waiting, rounds) : [];
  writes?.stop();
  env.scheduler.stop();
  return withGroups({ pods: out }, groups, trees);
}

/**
 * Explains a whole simulation (explain --timeline): the scenario runs as `simulate` runs it
 * (retries, backoff, the timeline's steps), every attempt diagnosed; each pod that was attempted
 * is explained by its last attempt, with all its attempts listed. The simulation's report comes too.
 */
export async function runExplainTimeline(sc: Scenario, o: ExplainOptions): Promise<ExplainResult & { simulation: SimReport }> {
  const last = new Map<string, AttemptRecord>();
  const attempts = new Map<string, ExplainAttempt[]>();
  const onAttempt = (a: AttemptRecord): void => {
    const key = podKey(a.pod);
    last.set(key, a);
    let list = attempts.get(key);
    if (!list) attempts.set(key, (list = []));
    list.push(attemptSummary(a));
  };
  const rounds = new Map<string, CompositePlacementRecord>();
  const simulation = await runSimulation(sc, { ...o, diagnose: true, recordScores: true, onAttempt, onCompositePlacements: (r) => rounds.set(r.group, r) });
  const pods: ExplainPod[] = [];
  for (const [key, a] of last) pods.push(explainAttempt(a, attempts.get(key)!));
  const waiting = new Map(simulation.pods.filter((p) => p.outcome === 'Gated').map((p) => [p.pod, { plugin: p.message === waitingForQuorum ? GangSchedulingName : '', message: p.message }]));
  const groups = explainGroups(sc.pending, scenarioPodGroups(sc), last, waiting);
  const trees = o.featureGates?.enabled('CompositePodGroup') === true ? explainTrees(sc.pending, scenarioGroups(sc), last, waiting, rounds) : [];
  return withGroups({ pods, simulation }, groups, trees);
}
