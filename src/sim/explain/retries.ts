// The pending pods' later attempts and where each ends up, as the differential harness makes
// them (upstream/internal/explain/retries.go): after every pending pod's first attempt, rounds
// of retries in the harness's order, then each pod's final place.
import type { Pod } from '../../api/types.js';
import { podKey } from '../../api/types.js';
import { DefaultSchedulerName } from '../../config/types.js';
import type { MemoryCluster } from '../../cluster/memory/store.js';
import type { Scheduler } from '../../scheduler/scheduler.js';

/** A round in which no retry binds a pod or deletes a victim ends the retries earlier. */
const maxRetryRounds = 3;

/** What retryRounds reads and writes of an attempt's report (explain's ExplainPod). */
interface RetriedReport {
  node: string;
  victims: readonly string[];
  seq?: number;
  retries?: this[];
  final?: string;
}

/** One more attempt of a pending pod (`live`: the API's copy); null when the scheduler reported none. */
type RetryAttempt<T> = (pending: Pod, live: Pod) => Promise<T | null>;

/** The API's copy of a pending pod when it can be tried again: unbound, out of any binding cycle, let in by PreEnqueue. */
function retryable(cluster: MemoryCluster, scheduler: Scheduler, pending: Pod): Pod | null {
  const live = cluster.getPod(pending.metadata.namespace ?? 'default', pending.metadata.name ?? '');
  if (!live || live.spec.nodeName) return null;
  const fwk = scheduler.profiles.get(live.spec.schedulerName ?? DefaultSchedulerName);
  const uid = live.metadata.uid ?? '';
  if (!fwk || fwk.getPodInPreBind(uid) !== undefined || fwk.getWaitingPod(uid) !== undefined || scheduler.cache.isAssumedPod(live)) return null;
  return fwk.runPreEnqueuePlugins(live) === null ? live : null;
}

/**
 * Where the pod ended up: `bound NODE`, `assumed NODE` (still in its binding cycle), `deleted`,
 * or `pending`, with ` nominated NODE` when its status names one.
 */
function finalOf(cluster: MemoryCluster, scheduler: Scheduler, pending: Pod): string {
  const live = cluster.getPod(pending.metadata.namespace ?? 'default', pending.metadata.name ?? '');
  if (!live) return 'deleted';
  if (live.spec.nodeName) return `bound ${live.spec.nodeName}`;
  if (scheduler.cache.isAssumedPod(live)) return `assumed ${scheduler.cache.getPod(live)?.spec.nodeName ?? ''}`;
  const nominated = live.status?.nominatedNodeName ?? '';
  return nominated === '' ? 'pending' : `pending nominated ${nominated}`;
}

const priorityOf = (p: Pod): number => p.spec.priority ?? 0;

/**
 * Retries `single` (the pending pods scheduled one by one, in the scenario's order) in rounds:
 * each round tries every one still retryable, highest priority first (then the scenario's
 * order), re-checking each just before its turn. Each report in `reports` (by pod key) gets its
 * `retries` and its `final` place.
 */
export async function retryRounds<T extends RetriedReport>(cluster: MemoryCluster, scheduler: Scheduler, single: readonly Pod[], reports: ReadonlyMap<string, T>, attempt: RetryAttempt<T>): Promise<void> {
  const order = single.filter((p) => reports.has(podKey(p)));
  let seq = 0;
  for (let round = 0; round < maxRetryRounds; round++) {
    await cluster.controllersIdle();
    const live = new Map<string, Pod>();
    for (const p of order) {
      const l = retryable(cluster, scheduler, p);
      if (l) live.set(podKey(p), l);
    }
    // Array.prototype.sort is stable: equal priorities keep the scenario's order.
    const candidates = order.filter((p) => live.has(podKey(p))).sort((a, b) => priorityOf(live.get(podKey(b))!) - priorityOf(live.get(podKey(a))!));
    let progressed = false;
    for (const p of candidates) {
      await cluster.controllersIdle();
      const l = retryable(cluster, scheduler, p);
      if (!l) continue;
      const out = await attempt(p, l);
      if (out === null) continue;
      if (out.node !== '' || out.victims.length > 0) progressed = true;
      out.seq = ++seq;
      const report = reports.get(podKey(p))!;
      (report.retries ??= []).push(out);
    }
    if (!progressed) break;
  }
  await cluster.controllersIdle();
  for (const p of order) {
    reports.get(podKey(p))!.final = finalOf(cluster, scheduler, p);
  }
}
