// Pods in PreBind whose binding preemption may still cancel (runtime/pods_in_prebind_map.go).
import type { PodInPreBind } from '../interfaces.js';

export class PodInPreBindImpl implements PodInPreBind {
  private finished = false;
  /** Why the binding was cancelled, once it was. */
  cancelled: string | null = null;
  private readonly controller = new AbortController();
  /** What the PreBind plugins are given: aborted when the binding is cancelled (upstream's cancelled context). */
  readonly signal: AbortSignal = this.controller.signal;

  cancel(message: string): boolean {
    if (this.finished) return false;
    if (this.cancelled === null) {
      this.cancelled = message;
      this.controller.abort(new Error(message));
    }
    return true;
  }

  /** PreBind is over: from now on the binding cannot be cancelled. False when it already was (MarkPrebound). */
  markPrebound(): boolean {
    if (this.cancelled !== null) return false;
    this.finished = true;
    return true;
  }
}
