// The one way the runtime calls a plugin and runs an extension point (the metrics wrappers of
// runtime/framework.go: run<Point>Plugin and the deferred extension point durations): the
// timing, the metrics observation and a throw turned into a status live here and nowhere else
// but the untimed per-node Filter loop (Framework.runFilterPlugins), which saves a call per node.
import type { ExtensionPointLabel, MetricsRecorder } from '../metrics_recorder.js';
import type { CycleState } from '../cycle_state.js';
import type { Plugin, ScorePlugin } from '../interfaces.js';
import type { NodeInfo } from '../node_info.js';
import type { PodInfo } from '../pod_info.js';
import { Code, Status, codeName, type CodeName } from '../status.js';
import type { MaybePromise } from '../../util/maybe_promise.js';

/**
 * How one extension point calls a plugin. Specs are module-level constants and the arguments go
 * through positionally, so a call allocates nothing (Filter and Score run per node).
 */
export interface CallSpec<P extends Plugin, A, B, C, R, D = undefined> {
  /** The label the plugin's duration is recorded under; null for calls upstream does not time. */
  readonly point: ExtensionPointLabel | null;
  readonly call: (p: P, a: A, b: B, c: C, d: D) => R;
  /** The status the metrics record for an answer (null is Success). */
  readonly status: (r: R) => Status | null | undefined;
  /** The answer standing for a plugin that threw `s` (Status.fromThrown of what it threw). */
  readonly thrown: (s: Status, p: P) => R;
}

/** A spec whose plugins may answer later (PreBind, Bind, PostFilter waiting for an extender). */
export type AsyncCallSpec<P extends Plugin, A, B, C, R, D = undefined> = Omit<CallSpec<P, A, B, C, R, D>, 'call'> & {
  readonly call: (p: P, a: A, b: B, c: C, d: D) => MaybePromise<R>;
};

const defaultMonotonicSeconds = (): number => performance.now() / 1000;

/** The metrics label of a status: null and undefined are Success. */
export const statusName = (s: Status | null | undefined): CodeName => codeName(s ? s.code : Code.Success);

export class PluginCalls {
  /** Monotonic seconds, for the durations the recorder receives. */
  readonly monotonicSeconds: () => number;

  constructor(
    private readonly recorder: MetricsRecorder | null,
    private readonly profileName: string,
    monotonicSeconds?: () => number,
  ) {
    this.monotonicSeconds = monotonicSeconds ?? defaultMonotonicSeconds;
  }

  /** Whether extension points are timed (a recorder is configured). */
  get measured(): boolean {
    return this.recorder !== null;
  }

  /**
   * One plugin call: timed when `timed` (a sampled cycle, or a point upstream always times), a
   * throw turned into the spec's answer for an error status.
   */
  call<P extends Plugin, A, B, C, R, D = undefined>(spec: CallSpec<P, A, B, C, R, D>, p: P, timed: boolean, a: A, b: B, c: C, d?: D): R {
    const start = timed ? this.monotonicSeconds() : 0;
    let r: R;
    try {
      r = spec.call(p, a, b, c, d as D);
    } catch (err) {
      r = spec.thrown(Status.fromThrown(err), p);
    }
    if (timed) this.observePlugin(p.name, spec.point, spec.status(r), start);
    return r;
  }

  /**
   * `call` for the per-node Score call: the same answer, but untimed it calls the plugin's method
   * directly (through the spec, the extra call per plugin per node cost SchedulingBasic 15% of
   * its CPU time per pod).
   */
  callScore(spec: CallSpec<ScorePlugin, CycleState, PodInfo, NodeInfo, number | Status>, p: ScorePlugin, timed: boolean, state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): number | Status {
    if (timed) return this.call(spec, p, true, state, pod, nodeInfo);
    try {
      return p.score(state, pod, nodeInfo);
    } catch (err) {
      return spec.thrown(Status.fromThrown(err), p);
    }
  }

  /** As `call`, for a plugin that may answer with a promise: timed until it settles; a rejection counts as a throw. */
  callAsync<P extends Plugin, A, B, C, R, D = undefined>(spec: AsyncCallSpec<P, A, B, C, R, D>, p: P, timed: boolean, a: A, b: B, c: C, d?: D): MaybePromise<R> {
    const start = timed ? this.monotonicSeconds() : 0;
    let out: MaybePromise<R>;
    try {
      out = spec.call(p, a, b, c, d as D);
    } catch (err) {
      out = spec.thrown(Status.fromThrown(err), p);
    }
    const done = (r: R): R => {
      if (timed) this.observePlugin(p.name, spec.point, spec.status(r), start);
      return r;
    };
    if (out instanceof Promise) return out.then(done, (err: unknown) => done(spec.thrown(Status.fromThrown(err), p)));
    return done(out);
  }

  /** Runs a whole extension point, its duration recorded with the status `status` reads from the result. */
  point<T>(label: ExtensionPointLabel, run: () => T, status: (r: T) => Status | null | undefined): T {
    if (this.recorder === null) return run();
    const start = this.monotonicSeconds();
    const r = run();
    this.observeExtensionPoint(label, status(r), start);
    return r;
  }

  /** As `point`, for an extension point that may finish later: its duration ends when it does. */
  pointAsync<T>(label: ExtensionPointLabel, run: () => MaybePromise<T>, status: (r: T) => Status | null | undefined): MaybePromise<T> {
    if (this.recorder === null) return run();
    const start = this.monotonicSeconds();
    const out = run();
    const done = (r: T): T => {
      this.observeExtensionPoint(label, status(r), start);
      return r;
    };
    return out instanceof Promise ? out.then(done) : done(out);
  }

  /**
   * Where an extension point's timing starts (0 without a recorder): with observeExtensionPoint
   * after the run, `point` without a closure, for the points every cycle runs.
   */
  pointStart(): number {
    return this.recorder === null ? 0 : this.monotonicSeconds();
  }

  /** Records an extension point's duration since `start`; nothing without a recorder. */
  observeExtensionPoint(label: ExtensionPointLabel, s: Status | null | undefined, start: number): void {
    this.recorder?.observeExtensionPointDuration(label, statusName(s), this.profileName, this.monotonicSeconds() - start);
  }

  private observePlugin(plugin: string, label: ExtensionPointLabel | null, s: Status | null | undefined, start: number): void {
    if (label !== null) this.recorder?.observePluginDuration(plugin, label, statusName(s), this.monotonicSeconds() - start);
  }
}
