// Status and codes of the scheduling framework (framework/interface.go).

export enum Code {
  Success = 0,
  Error = 1,
  Unschedulable = 2,
  UnschedulableAndUnresolvable = 3,
  Wait = 4,
  Skip = 5,
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
