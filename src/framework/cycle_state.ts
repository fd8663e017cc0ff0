// CycleState: per-attempt scratch space that plugins share (framework/cycle_state.go).
import type { CycleDiagnosis } from './cycle_diagnosis.js';
import type { NodeRowSelection } from './node_rows.js';

/** Anything a plugin stores in CycleState must be clonable, for preemption dry runs. */
export interface StateData {
  clone(): StateData;
  /**
   * A copy whose writes the attempt never sees, for runs only diagnosis makes (Filter past the
   * first rejection, preemption explained on every node). Needed by state that `clone` shares
   * and Filter writes into (what it found per node, for PostFilter or Reserve); else `clone`.
   */
  diagnosticClone?(): StateData;
}

// The sets below start as this one: they are replaced as a whole, never changed in place, so a
// cycle need not allocate four empty sets.
const none: ReadonlySet<string> = new Set<string>();

export class CycleState {
  private readonly storage = new Map<string, StateData>();
  /** Filter plugins whose PreFilter returned Skip (replaced as a whole, never changed in place). */
  skipFilterPlugins: ReadonlySet<string> = none;
  /**
   * Which PreFilter run set skipFilterPlugins (numbered across frameworks; 0: none), shared by
   * clones: a framework keeps the Filter plugins to walk for its last run (skip sets are shared
   * across runs, so they cannot tell runs apart).
   */
  preFilterRun = 0;
  /** Score plugins whose PreScore returned Skip (replaced as a whole, never changed in place). */
  skipScorePlugins: ReadonlySet<string> = none;
  /** PreBind plugins whose pre-flight returned Skip (replaced as a whole, never changed in place). */
  skipPreBindPlugins: ReadonlySet<string> = none;
  /** PreBind plugins whose pre-flight allowed running them in parallel. */
  parallelPreBindPlugins: ReadonlySet<string> = none;
  /** Pods that plugins want moved to activeQ once this attempt ends (keyed by namespace/name). */
  podsToActivate = new Map<string, unknown>();
  /** Whether this attempt records per-plugin metrics (sampled). */
  recordPluginMetrics = false;
  /** Where the cycle records what diagnosis asks for; null (the default) records nothing. */
  diagnosis: CycleDiagnosis | null = null;
  /** Keep every Score plugin's answers before normalizing (opportunistic batching stores them). */
  recordRawScores = false;
  /**
   * The nodes being scored as rows of the snapshot's table, set by the algorithm around Score
   * (see NodeRowSelection.rowsFor); null otherwise. Not copied by clones.
   */
  scoredRows: NodeRowSelection | null = null;
  /**
   * The state of the pod-group scheduling cycle this attempt belongs to, shared by the group's
   * members (GetPodGroupSchedulingCycle); null outside a group cycle.
   */
  podGroupCycle: CycleState | null = null;

  // The last key read and its value: a Filter plugin reads its PreFilter state once per node,
  // and one comparison is cheaper than a Map lookup. Writes and deletes forget it.
  private lastKey: string | null = null;
  private lastValue: StateData | undefined = undefined;

  read<T extends StateData>(key: string): T | undefined {
    if (key === this.lastKey) return this.lastValue as T | undefined;
    const v = this.storage.get(key);
    this.lastKey = key;
    this.lastValue = v;
    return v as T | undefined;
  }

  write(key: string, value: StateData): void {
    this.lastKey = null;
    this.storage.set(key, value);
  }

  delete(key: string): void {
    this.lastKey = null;
    this.storage.delete(key);
  }

  clone(): CycleState {
    return this.copy(false);
  }

  /** A clone for diagnosis-only runs: what they write stays out of this attempt. */
  diagnosticClone(): CycleState {
    return this.copy(true);
  }

  private copy(diagnostic: boolean): CycleState {
    const c = new CycleState();
    for (const [k, v] of this.storage) c.storage.set(k, diagnostic && v.diagnosticClone !== undefined ? v.diagnosticClone() : v.clone());
    // Shared: the framework replaces these sets (never changes them) once PreFilter/PreScore ran.
    c.skipFilterPlugins = this.skipFilterPlugins;
    c.preFilterRun = this.preFilterRun;
    c.skipScorePlugins = this.skipScorePlugins;
    c.podsToActivate = this.podsToActivate;
    c.recordPluginMetrics = this.recordPluginMetrics;
    // Shared: preemption's dry runs on clones report into the same attempt's diagnosis.
    c.diagnosis = this.diagnosis;
    c.podGroupCycle = this.podGroupCycle;
    return c;
  }
}
