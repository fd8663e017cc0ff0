// Status and codes of the scheduling framework (framework/interface.go).

/**
 * What a plugin's verdict means to the scheduler: for the pod's place in the queue (backoff, the
 * unschedulable pool), for preemption, and for the rest of the cycle.
 */
export enum Code {
  /** The plugin ran and the pod may go on (a node fits, the step is done). `null` means the same and is what the hot path returns. */
  Success = 0,
  /**
   * Something unexpected: a bug, bad input, a failed API call, an exception. Not for an expected
   * "does not fit". The attempt ends; no preemption is tried; no plugin is recorded as the
   * rejecter, so no event is awaited: the pod is retried after its backoff.
   */
  Error = 1,
  /**
   * The pod does not fit here, but may once something changes, including the eviction of
   * lower-priority pods: from PreFilter or Filter, PostFilter plugins (preemption) run and count
   * this node as a candidate. The pod then waits in the unschedulable pool for a cluster event
   * the rejecting plugin registered (EnqueueExtensions) whose queueing hint says Queue, and
   * goes through backoff. The reasons say why, in words a user reads.
   */
  Unschedulable = 2,
  /**
   * As Unschedulable, but evicting pods cannot help: preemption passes over this node (a plugin's
   * own PostFilter must do the same). PreFilter's node subset gives this code to the nodes it
   * leaves out. Requeueing and backoff are as for Unschedulable.
   */
  UnschedulableAndUnresolvable = 3,
  /** From Permit only: hold the pod at Permit until every waiting plugin allows it, one rejects it, or the timeout passes. */
  Wait = 4,
  /**
   * Nothing to do: from PreFilter, the plugin's Filter and PreFilterExtensions are skipped for
   * this pod's cycle; from PreScore, its Score; from Bind, the next Bind plugin decides.
   */
  Skip = 5,
  /**
   * The cycle went as it should, but the plugin must wait for something outside the scheduler
   * (an external component acting on the result) before the pod can go on. Not a wasted cycle,
   * so no backoff: when one of the plugin's registered events arrives with a Queue hint, the pod
   * goes straight to activeQ. No preemption is tried.
   */
  Pending = 6,
}

const codeNames = ['Success', 'Error', 'Unschedulable', 'UnschedulableAndUnresolvable', 'Wait', 'Skip', 'Pending'] as const;
export type CodeName = (typeof codeNames)[number];

export function codeName(code: Code): CodeName {
  return codeNames[code]!;
}

/**
 * The result of running a plugin. Success is usually represented by `null` (upstream's nil
 * *Status) so that the hot path allocates nothing when a node passes.
 */
export class Status {
  /** The plugin that produced this status; set by the runtime when empty. */
  plugin = '';

  constructor(
    readonly code: Code,
    readonly reasons: readonly string[] = [],
    readonly error?: Error,
  ) {}

  static success(): null {
    return null;
  }

  static error(err: Error | string): Status {
    const e = typeof err === 'string' ? new Error(err) : err;
    return new Status(Code.Error, [e.message], e);
  }

  /**
   * The status of something a plugin or a step threw: an Error is kept (its type and cause chain
   * stay readable), anything else becomes its string. Every catch that turns a throw into a status
   * goes through here.
   */
  static fromThrown(err: unknown): Status {
    return Status.error(err instanceof Error ? err : String(err));
  }

  static unschedulable(...reasons: string[]): Status {
    return new Status(Code.Unschedulable, reasons);
  }

  static unresolvable(...reasons: string[]): Status {
    return new Status(Code.UnschedulableAndUnresolvable, reasons);
  }

  static skip(): Status {
    return new Status(Code.Skip);
  }

  static wait(): Status {
    return new Status(Code.Wait);
  }

  static pending(...reasons: string[]): Status {
    return new Status(Code.Pending, reasons);
  }

  /**
   * A verdict that never varies, made once and handed out for every node it rejects, so a
   * rejection allocates nothing. Frozen with its plugin set: no holder can change it for the rest.
   */
  static constant(code: Code, plugin: string, ...reasons: string[]): Status {
    const s = new Status(code, Object.freeze(reasons));
    s.plugin = plugin;
    return Object.freeze(s);
  }

  /** Names the plugin; a shared (frozen) status naming another plugin is copied, never changed. */
  withPlugin(plugin: string): Status {
    if (this.plugin === plugin) return this;
    if (Object.isFrozen(this)) return new Status(this.code, this.reasons, this.error).withPlugin(plugin);
    this.plugin = plugin;
    return this;
  }

  /** All reasons joined as upstream's Status.Message(). */
  message(): string {
    return this.reasons.join(', ');
  }

  isRejected(): boolean {
    return this.code === Code.Unschedulable || this.code === Code.UnschedulableAndUnresolvable || this.code === Code.Pending;
  }

  asError(): Error {
    return this.error ?? new Error(this.message());
  }
}

/** True for null (Success) and an explicit Success status. */
export function isSuccess(s: Status | null | undefined): boolean {
  return s === null || s === undefined || s.code === Code.Success;
}

export function isSkip(s: Status | null | undefined): boolean {
  return s !== null && s !== undefined && s.code === Code.Skip;
}

export function isRejected(s: Status | null | undefined): boolean {
  return s !== null && s !== undefined && s.isRejected();
}
