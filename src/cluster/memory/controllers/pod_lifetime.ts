// Pod run times for simulations: a pod annotated with a run duration finishes that long after it
// is bound, freeing its node's resources, as its containers would exit on a real node (the
// embedded cluster has no kubelet). Pods that restart Always are deleted instead, as their
// workload controller would then replace them.
import type { Pod } from '../../../api/types.js';
import type { TimerHandle } from '../../../util/clock.js';
import { DurationError, parseDurationNanos } from '../../../util/duration.js';
import { completedPodStatus } from '../kubelet.js';
import type { ControllerContext } from './store.js';

/** The annotation (on a pod or a workload's pod template) giving the pod's run time as a Go duration ("90s", "1h30m"). */
export const runDurationAnnotation = 'simulation.kube-scheduler-ts.io/run-duration';

/** The pod's run time in ms, or undefined when it has none or it does not parse. */
function runDurationMs(pod: Pod): number | undefined {
  const v = pod.metadata.annotations?.[runDurationAnnotation];
  if (v === undefined) return undefined;
  try {
    const nanos = parseDurationNanos(v);
    return nanos >= 0 ? nanos / 1e6 : undefined;
  } catch (err) {
    if (err instanceof DurationError) return undefined;
    throw err;
  }
}

/** Finishes bound pods with a run time once it has passed. */
export class PodLifetimes {
  private readonly timers = new Map<string, { handle: TimerHandle; at: number }>();

  constructor(private readonly ctx: ControllerContext) {}

  /** Starts the timer of a pod that has just been bound; drops it when the pod is gone. */
  observe(type: 'ADDED' | 'MODIFIED' | 'DELETED', pod: Pod): void {
    // The common case, a pod without a run time and no timers running, costs one lookup.
    if (this.timers.size === 0 && pod.metadata.annotations?.[runDurationAnnotation] === undefined) return;
    const key = `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
    if (type === 'DELETED' || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') {
      const t = this.timers.get(key);
      if (t !== undefined) this.ctx.clock.clearTimeout(t.handle);
      this.timers.delete(key);
      return;
    }
    if (!pod.spec.nodeName || this.timers.has(key)) return;
    const ms = runDurationMs(pod);
    if (ms === undefined) return;
    const uid = pod.metadata.uid;
    const handle = this.ctx.clock.setTimeout(() => {
      this.timers.delete(key);
      this.finish(pod.metadata.namespace ?? 'default', pod.metadata.name ?? '', uid);
    }, ms);
    this.timers.set(key, { handle, at: this.ctx.clock.now() + ms });
  }

  /** Cancels every pending run-time timer. */
  stop(): void {
    for (const t of this.timers.values()) this.ctx.clock.clearTimeout(t.handle);
    this.timers.clear();
  }

  /** When the next pod finishes, or undefined: a simulation runs its clock on to it. */
  nextFinishAt(): number | undefined {
    let min: number | undefined;
    for (const t of this.timers.values()) if (min === undefined || t.at < min) min = t.at;
    return min;
  }

  private finish(namespace: string, name: string, uid: string | undefined): void {
    const cur = this.ctx.store.get<Pod>('Pod', namespace, name);
    if (cur === undefined || cur.metadata.uid !== uid) return;
    if ((cur.spec.restartPolicy ?? 'Always') === 'Always') {
      this.ctx.store.remove('Pod', namespace, name);
      return;
    }
    this.ctx.store.update<Pod>({ ...cur, status: completedPodStatus(cur, this.ctx.clock.now()) });
  }
}
