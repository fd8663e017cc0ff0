// Structured logging with klog's verbosity levels and component-base's two formats: klog's text
// header (`I0102 15:04:05.000006   123 name] "msg" key="value"`) and JSON (k8s.io/component-base/logs).

export type LogFormat = 'text' | 'json';

type KeyValues = Readonly<Record<string, unknown>>;

export interface LoggerOptions {
  /** Messages at `v(n)` with n above this are dropped (klog's -v). */
  verbosity?: number;
  format?: LogFormat;
  /** Where finished lines go (stderr by default, as klog writes). */
  sink?: (line: string) => void;
  /** Wall clock in ms since the epoch, injectable for tests. */
  now?: () => number;
  pid?: number;
}

/** What a caller logs through: info at a verbosity, errors, warnings. */
export interface Logger {
  /** A logger that writes only when `level` is enabled; `v(0)` always writes. */
  v(level: number): Logger;
  enabled(level: number): boolean;
  info(msg: string, kv?: KeyValues): void;
  warning(msg: string, kv?: KeyValues): void;
  error(err: unknown, msg: string, kv?: KeyValues): void;
  /** A logger whose lines carry `name` (klog's logger name). */
  withName(name: string): Logger;
}

interface Core {
  verbosity: number;
  format: LogFormat;
  sink: (line: string) => void;
  now: () => number;
  pid: number;
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/** klog's header: severity letter, MMDD, hh:mm:ss.micro (UTC), pid, the logger's name. */
function textHeader(severity: string, ms: number, pid: number, name: string): string {
  const d = new Date(ms);
  const micros = Math.floor((ms % 1000) * 1000);
  return `${severity}${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCDate(), 2)} ${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(micros, 6)} ${String(pid).padStart(7, ' ')} ${name}]`;
}

/** A value as klog's text format prints it: strings quoted, numbers and booleans bare, errors by message. */
export function formatTextValue(v: unknown): string {
  if (v instanceof Error) return JSON.stringify(v.message);
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(v);
    case 'undefined':
      return '<nil>';
    default:
      return v === null ? '<nil>' : JSON.stringify(v);
  }
}

function jsonValue(v: unknown): unknown {
  return v instanceof Error ? v.message : v;
}

class LoggerImpl implements Logger {
  constructor(
    private readonly core: Core,
    private readonly name: string,
    /** The verbosity this logger writes at; -1 marks a disabled logger. */
    private readonly level: number,
  ) {}

  v(level: number): Logger {
    return new LoggerImpl(this.core, this.name, level <= this.core.verbosity ? level : -1);
  }

  enabled(level: number): boolean {
    return level <= this.core.verbosity;
  }

  withName(name: string): Logger {
    return new LoggerImpl(this.core, this.name ? `${this.name}/${name}` : name, this.level);
  }

  info(msg: string, kv?: KeyValues): void {
    if (this.level < 0) return;
    this.write('I', msg, undefined, kv);
  }

  warning(msg: string, kv?: KeyValues): void {
    if (this.level < 0) return;
    this.write('W', msg, undefined, kv);
  }

  error(err: unknown, msg: string, kv?: KeyValues): void {
    this.write('E', msg, err ?? undefined, kv);
  }

  private write(severity: 'I' | 'W' | 'E', msg: string, err: unknown, kv: KeyValues | undefined): void {
    const { core } = this;
    const ms = core.now();
    if (core.format === 'json') {
      const rec: Record<string, unknown> = { ts: ms, caller: this.name || undefined, msg };
      if (severity === 'E') {
        if (err !== undefined) rec.err = err instanceof Error ? err.message : String(err);
      } else {
        rec.v = Math.max(this.level, 0);
      }
      if (severity === 'W') rec.severity = 'warning';
      if (kv) for (const k of Object.keys(kv)) rec[k] = jsonValue(kv[k]);
      core.sink(JSON.stringify(rec) + '\n');
      return;
    }
    let line = `${textHeader(severity, ms, core.pid, this.name || 'kube-scheduler-ts')} ${JSON.stringify(msg)}`;
    if (err !== undefined) line += ` err=${formatTextValue(err instanceof Error ? err.message : String(err))}`;
    if (kv) for (const k of Object.keys(kv)) line += ` ${k}=${formatTextValue(kv[k])}`;
    core.sink(line + '\n');
  }
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const core: Core = {
    verbosity: opts.verbosity ?? 0,
    format: opts.format ?? 'text',
    sink: opts.sink ?? ((line) => process.stderr.write(line)),
    now: opts.now ?? Date.now,
    pid: opts.pid ?? process.pid,
  };
  return new LoggerImpl(core, '', 0);
}

/** A logger that drops everything (tests, library use). */
export const discardLogger: Logger = createLogger({ verbosity: -1, sink: () => undefined });
