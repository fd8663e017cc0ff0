// Victim ordering by importance (pkg/scheduler/util/utils.go: MoreImportantPod, GetPodStartTime,
// GetEarliestPodStartTime), as the preemption plugin applies it.
import type { Pod } from '../../api/types.js';
import type { PodInfo } from '../../framework/pod_info.js';

/**
 * The pod's start time in ms. A pod that has not started yet counts as starting "now" upstream,
 * later than any real start time, so it is +Infinity here (no clock needed to compare).
 */
export function podStartTime(pod: Pod): number {
  const t = pod.status?.startTime;
  if (!t) return Infinity;
  let ms = parsedTimes.get(t);
  if (ms === undefined) {
    ms = Date.parse(t);
    if (Number.isNaN(ms)) ms = Infinity;
    // Timestamps have a one-second resolution: many pods share one. Bounded, not an LRU.
    if (parsedTimes.size >= 4096) parsedTimes.clear();
    parsedTimes.set(t, ms);
  }
  return ms;
}

const parsedTimes = new Map<string, number>();

interface Keyed {
  readonly pod: PodInfo;
  readonly priority: number;
  readonly start: number;
  readonly index: number;
}

function compareImportance(a: Keyed, b: Keyed): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.start !== b.start) return a.start < b.start ? -1 : 1;
  // Upstream's victims read the clock for a pod not started when they are built, in the node's
  // order: of two such pods the earlier listed is the older, as the index says.
  return a.index - b.index;
}

/**
 * Sorts pods from most to least important: higher priority first, then the longer running.
 * Ties come out in the order upstream's sort.Slice (insertion sort for short lists) leaves them.
 */
export function sortByImportance(pods: PodInfo[]): void {
  if (pods.length < 2) return;
  const keyed: Keyed[] = new Array<Keyed>(pods.length);
  for (let i = 0; i < pods.length; i++) {
    const p = pods[i]!;
    keyed[i] = { pod: p, priority: p.priority, start: podStartTime(p.pod), index: i };
  }
  keyed.sort(compareImportance);
  for (let i = 0; i < keyed.length; i++) pods[i] = keyed[i]!.pod;
}

/** The earliest start time among the highest-priority victims (GetEarliestPodStartTime). */
export function earliestStartOfHighestPriority(victims: readonly PodInfo[]): number {
  if (victims.length === 0) return -Infinity;
  let maxPriority = victims[0]!.priority;
  let earliest = podStartTime(victims[0]!.pod);
  for (let i = 1; i < victims.length; i++) {
    const v = victims[i]!;
    const p = v.priority;
    if (p === maxPriority) {
      const s = podStartTime(v.pod);
      if (s < earliest) earliest = s;
    } else if (p > maxPriority) {
      maxPriority = p;
      earliest = podStartTime(v.pod);
    }
  }
  return earliest;
}
