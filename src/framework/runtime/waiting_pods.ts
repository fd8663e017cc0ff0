// Pods waiting at Permit (runtime/waiting_pods_map.go): each Wait plugin must allow, any may reject.
import type { Pod } from '../../api/types.js';
import type { WaitingPod } from '../interfaces.js';
import { Code, Status } from '../status.js';
import type { Clock, TimerHandle } from '../../util/clock.js';
import { formatGoDuration } from '../../util/duration.js';

export class WaitingPodImpl implements WaitingPod {
  private readonly pending = new Map<string, TimerHandle>();
  private settle!: (s: Status | null) => void;
  private done = false;
  /** Resolves with null when every plugin allowed, or the rejection status. */
  readonly result: Promise<Status | null>;

  constructor(
    readonly pod: Pod,
    pluginTimeouts: Map<string, number>,
    private readonly clock: Clock,
  ) {
    this.result = new Promise((resolve) => (this.settle = resolve));
    for (const [plugin, ms] of pluginTimeouts) {
      const timer = clock.setTimeout(() => this.reject(plugin, `rejected due to timeout after waiting ${formatGoDuration(ms)} at plugin ${plugin}`), ms);
      this.pending.set(plugin, timer);
    }
  }

  pendingPlugins(): string[] {
    return [...this.pending.keys()];
  }

  allow(pluginName: string): void {
    if (this.done || !this.pending.has(pluginName)) return;
    this.clock.clearTimeout(this.pending.get(pluginName)!);
    this.pending.delete(pluginName);
    if (this.pending.size === 0) this.finish(null);
  }

  reject(pluginName: string, message: string): void {
    if (this.done) return;
    this.finish(new Status(Code.Unschedulable, [message]).withPlugin(pluginName));
  }

  preempt(pluginName: string, message: string): boolean {
    if (this.done) return false;
    this.finish(new Status(Code.Error, [message]).withPlugin(pluginName));
    return true;
  }

  private finish(s: Status | null): void {
    this.done = true;
    for (const t of this.pending.values()) this.clock.clearTimeout(t);
    this.pending.clear();
    this.settle(s);
  }
}
