// FitError and Diagnosis: why no node fits, and upstream's message for it (framework/types.go).
import type { Pod } from '../../api/types.js';
import { NodeToStatus } from '../node_to_status.js';
import { Code, type Status } from '../status.js';

/** Shared by every undiagnosed attempt, so they allocate nothing for it. */
const noPlugins: readonly string[] = Object.freeze([]);

export class Diagnosis {
  nodeToStatus = new NodeToStatus();
  /** Plugins that rejected the pod (Unschedulable or UnschedulableAndUnresolvable). */
  unschedulablePlugins = new Set<string>();
  /** Plugins that returned Pending. */
  pendingPlugins = new Set<string>();
  preFilterMsg = '';
  /** The PreFilter rejection, when PreFilter rejected the pod (for explain). */
  preFilterStatus: Status | null = null;
  postFilterMsg = '';
  /**
   * In a diagnosed cycle: every Filter plugin that rejected each rejected node, in plugin order
   * (nodeToStatus keeps only the first), and the Filter plugins the cycle ran. Null otherwise.
   */
  allFilters: Map<string, readonly Status[]> | null = null;
  filterPlugins: readonly string[] = noPlugins;

  /** Records which plugin a rejection came from (Diagnosis.AddPluginStatus); Pending counts as both. */
  addPluginStatus(s: Status): void {
    if (!s.plugin || !s.isRejected()) return;
    // A walk records one plugin's verdict node after node: the sets only grow, so a repeat of
    // the last plugin and code would change nothing.
    if (s.plugin === this.lastPlugin && s.code === this.lastCode) return;
    this.lastPlugin = s.plugin;
    this.lastCode = s.code;
    this.unschedulablePlugins.add(s.plugin);
    if (s.code === Code.Pending) this.pendingPlugins.add(s.plugin);
  }

  private lastPlugin = '';
  private lastCode = Code.Success;
}

export class FitError extends Error {
  override name = 'FitError';

  constructor(
    readonly pod: Pod,
    readonly numAllNodes: number,
    readonly diagnosis: Diagnosis,
  ) {
    super();
  }

  /** Upstream's text: `0/N nodes are available: <preFilter or sorted filter reasons>. <postFilter>` (no period after it). */
  override get message(): string {
    let msg = `0/${this.numAllNodes} nodes are available:`;
    const d = this.diagnosis;
    if (d.preFilterMsg !== '') {
      msg += ` ${d.preFilterMsg}.`;
    } else {
      const counts = new Map<string, number>();
      for (const [, status] of d.nodeToStatus.entries()) {
        for (const r of status.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
      }
      // Nodes never evaluated (outside PreFilter's node subset) count with the absent-node status.
      const absent = this.numAllNodes - d.nodeToStatus.size;
      if (absent > 0) {
        for (const r of d.nodeToStatus.absentNodesStatus.reasons) counts.set(r, (counts.get(r) ?? 0) + absent);
      }
      // Upstream sorts the "N reason" strings as strings, so "13 x" sorts before "2 y".
      const parts = [...counts].map(([r, n]) => `${n} ${r}`).sort(compareGoStrings);
      if (parts.length > 0) msg += ` ${parts.join(', ')}.`;
    }
    if (d.postFilterMsg !== '') msg += ` ${d.postFilterMsg}`;
    return msg;
  }

  override set message(_: string) {
    // Error's constructor assigns message; ours is always derived.
  }
}

/** Byte-wise comparison as Go's sort.Strings does (not locale-aware). */
function compareGoStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export const ErrNoNodesAvailable = new Error('no nodes available to schedule pods');
