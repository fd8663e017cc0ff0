// What CLI commands share: output streams, exit codes, usage errors.
import { BadInputError } from '../util/bad_input.js';

/** What a command may know of the terminal its output goes to. */
interface TerminalInfo {
  readonly columns: number;
  /** False when NO_COLOR is set (https://no-color.org). */
  readonly color: boolean;
}

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The terminal stdout writes to; null (or absent) when it is a file or a pipe. */
  terminal?: () => TerminalInfo | null;
  /** Whether stderr is a terminal (progress lines are drawn there only then, unless asked for). */
  stderrIsTerminal?: () => boolean;
}

export const processIO: CliIO = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  terminal: () => (process.stdout.isTTY ? { columns: process.stdout.columns || 80, color: colorAllowed(process.env) } : null),
  stderrIsTerminal: () => process.stderr.isTTY === true,
};

/** NO_COLOR set to anything but the empty string turns colour off. */
export function colorAllowed(env: Readonly<Record<string, string | undefined>>): boolean {
  return (env.NO_COLOR ?? '') === '';
}

/** Exit status for bad input: a bad flag, configuration file or scenario. */
export const ExitBadInput = 2;

export class UsageError extends BadInputError {
  override name = 'UsageError';
}

interface SystemError {
  code?: unknown;
  syscall?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
}

const listenProblems: Readonly<Record<string, string>> = {
  EADDRINUSE: 'address already in use',
  EACCES: 'permission denied',
  EADDRNOTAVAIL: 'address not available on this machine',
};

/**
 * One line for an address a command was told to listen on and cannot (a port in use, a host that
 * does not resolve): bad input, not a crash. Undefined for any other error.
 */
export function describeListenError(err: unknown): string | undefined {
  const e = (err ?? {}) as SystemError;
  if (typeof e.code !== 'string') return undefined;
  if (e.syscall === 'listen' && listenProblems[e.code]) {
    const where = typeof e.address === 'string' ? `${e.address.includes(':') ? `[${e.address}]` : e.address}:${String(e.port)}` : `port ${String(e.port)}`;
    return `cannot listen on ${where}: ${listenProblems[e.code]}`;
  }
  if (e.syscall === 'getaddrinfo' && (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN' || e.code === 'EAI_NONAME')) {
    return `cannot listen on ${JSON.stringify(String(e.hostname ?? ''))}: no such host`;
  }
  return undefined;
}

/** The -v level in a command's arguments (klog spellings), 0 when absent or unreadable. */
export function verbosityOf(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--?v=(\d+)$/.exec(a);
    if (m) return Number(m[1]);
    if ((a === '-v' || a === '--v') && /^\d+$/.test(argv[i + 1] ?? '')) return Number(argv[i + 1]);
  }
  return 0;
}

/** A command takes its arguments (after the command name) and returns the exit status. */
export type Command = (argv: string[], io: CliIO) => Promise<number>;
