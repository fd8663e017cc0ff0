// `explain`'s view of a pod group's cycle (schedule_one_podgroup.go seen from outside): which
// members were placed where, what stopped the group (the plugin and its message), the member
// rejected on its own first, and the victims. Built from the members' attempt records, so it
// serves a single group cycle and a timeline alike.
import { podGroupKey, podGroupKeyOfPod, podGroupMinCount, type PodGroup } from '../../api/scheduling.js';
import { podKey, type Pod } from '../../api/types.js';
import type { AttemptRecord } from '../../scheduler/scheduler.js';

/** A group's or a member's outcome; `Waiting`: held before its cycle (PreEnqueue), never attempted. */
type ExplainGroupOutcome = 'Scheduled' | 'Unschedulable' | 'Error' | 'Waiting';

interface ExplainGroupMember {
  pod: string;
  outcome: ExplainGroupOutcome;
  /** The node it was bound to; '' unless Scheduled. */
  node: string;
  message: string;
}

export interface ExplainGroup {
  /** namespace/name of the PodGroup. */
  group: string;
  policy: 'gang' | 'basic';
  /** gang.minCount, or 1 for a basic group. */
  minCount: number;
  /** Scheduled when at least minCount members were bound (a basic group: any). */
  outcome: ExplainGroupOutcome;
  /** How many members were bound. */
  placed: number;
  members: ExplainGroupMember[];
  /**
   * What stopped the group: the plugin that judged it and upstream's message; null when it was
   * placed. The plugin is '' when the verdict reached the members only through the group's
   * failure (every member tried: `pod group is unschedulable, ...`); firstRejected names the cause.
   */
  stoppedBy: { plugin: string; message: string } | null;
  /** The first member rejected on its own: the plugins that rejected it on some node, and its FitError message. */
  firstRejected: { pod: string; plugins: string[]; message: string } | null;
  /** The pods the group's cycle evicts (namespace/name). */
  victims: string[];
}

/** Why a never-attempted member is held: the plugin gating it and its message. */
export type WaitingPods = ReadonlyMap<string, { plugin: string; message: string }>;

/** The prefix of the message every member of a rejected group carries (errPodGroupUnschedulable). */
const groupPrefix = 'pod group is unschedulable';

/**
 * One entry per PodGroup that has pending members, in the order their first member is pending.
 * `records` holds each member's last attempt; `waiting` the members the queue still gates.
 */
export function explainGroups(
  pending: readonly Pod[],
  podGroups: readonly PodGroup[],
  records: ReadonlyMap<string, AttemptRecord>,
  waiting: WaitingPods,
): ExplainGroup[] {
  const byKey = new Map(podGroups.map((pg) => [podGroupKey(pg.metadata.namespace ?? 'default', pg.metadata.name ?? ''), pg]));
  const membersOf = new Map<string, Pod[]>();
  for (const p of pending) {
    const key = podGroupKeyOfPod(p);
    if (key === null) continue;
    let list = membersOf.get(key);
    if (list === undefined) membersOf.set(key, (list = []));
    list.push(p);
  }
  const out: ExplainGroup[] = [];
  for (const [key, pods] of membersOf) {
    const pg = byKey.get(key);
    out.push(explainGroup(key, pg, pods, records, waiting));
  }
  return out;
}

function explainGroup(key: string, pg: PodGroup | undefined, pods: readonly Pod[], records: ReadonlyMap<string, AttemptRecord>, waiting: WaitingPods): ExplainGroup {
  const minCount = pg === undefined ? 1 : podGroupMinCount(pg);
  const members: ExplainGroupMember[] = [];
  const victims = new Set<string>();
  let stoppedBy: ExplainGroup['stoppedBy'] = null;
  let firstRejected: ExplainGroup['firstRejected'] = null;
  let held: { plugin: string; message: string } | null = null;
  let errors = 0;
  for (const p of pods) {
    const k = podKey(p);
    const a = records.get(k);
    if (a === undefined) {
      const w = waiting.get(k);
      held ??= w ?? null;
      members.push({ pod: k, outcome: 'Waiting', node: '', message: w?.message ?? '' });
      continue;
    }
    for (const v of a.victims) victims.add(v);
    members.push({ pod: k, outcome: a.outcome, node: a.node, message: a.message });
    if (a.outcome === 'Error') errors++;
    if (a.outcome === 'Scheduled') continue;
    if (a.diagnosis !== null && firstRejected === null) {
      firstRejected = { pod: k, plugins: [...a.diagnosis.unschedulablePlugins].sort(), message: a.message };
    } else if (a.diagnosis === null && stoppedBy === null && (a.plugin ?? '') !== '') {
      // A member the cycle did not reach carries the group's verdict with its plugin (PlacementFeasible's).
      stoppedBy = { plugin: a.plugin!, message: a.message };
    } else if (a.diagnosis === null && stoppedBy === null && !a.message.startsWith(groupPrefix) && a.outcome === 'Error') {
      stoppedBy = { plugin: '', message: a.message };
    }
  }
  const placed = members.filter((m) => m.outcome === 'Scheduled').length;
  const attempted = members.some((m) => m.outcome !== 'Waiting');
  const outcome: ExplainGroupOutcome = !attempted ? 'Waiting' : placed > 0 && placed >= minCount ? 'Scheduled' : errors > 0 ? 'Error' : 'Unschedulable';
  if (outcome === 'Scheduled') stoppedBy = null;
  else if (outcome === 'Waiting') stoppedBy = held;
  else if (stoppedBy === null) {
    // Every member was tried: the group's verdict is what the placed ones were failed with.
    const verdict = members.find((m) => m.message.startsWith(groupPrefix));
    stoppedBy = verdict !== undefined ? { plugin: '', message: verdict.message }
      : firstRejected !== null ? { plugin: firstRejected.plugins.join(', '), message: firstRejected.message } : null;
  }
  return {
    group: key,
    policy: pg?.spec.schedulingPolicy.gang !== undefined ? 'gang' : 'basic',
    minCount,
    outcome,
    placed,
    members,
    stoppedBy,
    firstRejected,
    victims: [...victims].sort(),
  };
}
