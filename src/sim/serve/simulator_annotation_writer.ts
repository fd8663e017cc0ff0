// Writes each pod's scheduling results as kube-scheduler-simulator's annotations (serve
// --simulator-annotations), in batches off the scheduling cycle: an attempt is only noted when it
// ends (its record kept until then); a timer encodes and writes what was noted since the last batch.
import type { Pod } from '../../api/types.js';
import { podKey } from '../../api/types.js';
import type { MemoryCluster } from '../../cluster/memory/store.js';
import type { Framework } from '../../framework/runtime/framework.js';
import type { AttemptRecord } from '../../scheduler/scheduler.js';
import type { Clock, TimerHandle } from '../../util/clock.js';
import { annotateResults, simulatorResult, type ProfilePlugins } from './simulator_annotations.js';

/** How long attempts gather before they are written. */
const batchDelayMs = 200;
/**
 * Pods noted before a batch is written at once rather than when the delay ends: their attempt
 * records are held until then (about 200 KB each at 2,000 nodes).
 */
const maxPendingPods = 100;
/** Attempts per pod a batch keeps for its result-history (a pod retried faster than batches). */
const maxAttemptsPerPod = 5;

interface PendingPod {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  attempts: { record: AttemptRecord; plugins: ProfilePlugins }[];
}

export function profilePlugins(fwk: Framework): ProfilePlugins {
  const names = (ps: readonly { name: string }[]) => ps.map((p) => p.name);
  return {
    preFilter: names(fwk.preFilterPlugins),
    filter: names(fwk.filterPlugins),
    postFilter: names(fwk.postFilterPlugins),
    preScore: names(fwk.preScorePlugins),
    score: names(fwk.scorePlugins),
    reserve: names(fwk.reservePlugins),
    permit: names(fwk.permitPlugins),
    preBind: names(fwk.preBindPlugins),
    bind: names(fwk.bindPlugins),
  };
}

export class SimulatorAnnotationWriter {
  private readonly pending = new Map<string, PendingPod>();
  private timer: TimerHandle | null = null;

  /** `pluginsOf` answers the plugins of the profile that scheduled the pod, null for an unknown one. */
  constructor(
    private readonly cluster: MemoryCluster,
    private readonly clock: Clock,
    private readonly pluginsOf: (pod: Pod) => ProfilePlugins | null,
  ) {}

  /** Notes an attempt (the scheduler's onAttempt); its encoding waits for the batch. */
  record(a: AttemptRecord): void {
    const plugins = this.pluginsOf(a.pod);
    if (plugins === null) return;
    const key = podKey(a.pod);
    let p = this.pending.get(key);
    const uid = a.pod.metadata.uid ?? '';
    if (!p || p.uid !== uid) this.pending.set(key, (p = { namespace: a.pod.metadata.namespace ?? 'default', name: a.pod.metadata.name ?? '', uid, attempts: [] }));
    p.attempts.push({ record: a, plugins });
    if (p.attempts.length > maxAttemptsPerPod) p.attempts.shift();
    if (this.pending.size >= maxPendingPods) this.schedule(0);
    else this.schedule(batchDelayMs);
  }

  private schedule(delayMs: number): void {
    if (this.timer !== null) {
      if (delayMs > 0) return;
      this.clock.clearTimeout(this.timer);
    }
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.flush();
    }, delayMs);
  }

  /**
   * Writes every noted pod's annotations on its current object (a pod deleted or replaced since
   * is left alone). Only annotations change, which no queueing hint requeues a pod for.
   */
  flush(): void {
    const batch = [...this.pending.values()];
    this.pending.clear();
    for (const p of batch) {
      const pod = this.cluster.getPod(p.namespace, p.name);
      if (!pod || (pod.metadata.uid ?? '') !== p.uid) continue;
      const results = p.attempts.map((x) => simulatorResult(x.record, x.plugins));
      const annotations = annotateResults(pod.metadata.annotations, results);
      this.cluster.update<Pod>({ ...pod, metadata: { ...pod.metadata, annotations } });
    }
  }

  /** Writes what is noted and stops the timer. */
  close(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.flush();
  }
}
