// A CLI command declared once: its flags (with their help and checks), its arguments and its
// help text. Parsing, the `--help` output and the usage errors (exit 2 naming the flag and the
// reason) derive from the declaration.
import { parseArgs } from 'node:util';
import { UsageError } from './io.js';

export interface FlagSpec {
  readonly name: string;
  readonly short?: string;
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  /** The value's placeholder in the help ("FILE"); omitted for booleans. */
  readonly value?: string;
  /** The help text; lines after a newline are indented under the first. */
  readonly help: string;
  /** The heading the flag is listed under in the help; "Options:" when omitted. */
  readonly section?: string;
  /** Why a given value is refused ("must be an integer"), or null when it is fine. */
  readonly check?: (value: string) => string | null;
  /**
   * As kube-scheduler's pflag flags: a refusal reads `invalid argument "V" for "--F" flag: REASON`,
   * and a boolean also takes `--F=true|false`.
   */
  readonly pflag?: boolean;
}

export interface CommandSpec {
  /** The subcommand's name: the first word of `usage`. */
  readonly name: string;
  /** Its line in the command list of `kube-scheduler-ts --help`: the arguments shown and what it does. */
  readonly summary: { readonly args: string; readonly text: string };
  /** What follows "Usage: kube-scheduler-ts " on the help's first line. */
  readonly usage: string;
  /** What the command does, between the usage line and the options. */
  readonly about: string;
  readonly flags: readonly FlagSpec[];
  /** The most positional arguments it takes, and the error for more. */
  readonly maxPositionals: number;
  readonly tooManyPositionals: (positionals: readonly string[]) => string;
  /** Text after the options. */
  readonly footer?: string;
}

type FlagValue<F extends FlagSpec> = F['type'] extends 'boolean' ? boolean : F['multiple'] extends true ? string[] : string;

/** The parsed values of flags declared `as const`: each optional, typed by its declaration. */
export type ValuesOf<Fs extends readonly FlagSpec[]> = { [F in Fs[number] as F['name']]?: FlagValue<F> };

/** The parsed flags of a command declared `as const`. */
export type FlagValues<S extends CommandSpec> = ValuesOf<S['flags']>;

/** parseArgs' options for declared flags, typed by them. */
type OptionsOf<Fs extends readonly FlagSpec[]> = {
  [F in Fs[number] as F['name']]: { type: F['type']; multiple: F['multiple'] extends true ? true : false; short?: string };
};

/** parseArgs' options for declared flags. */
function optionsOf<const Fs extends readonly FlagSpec[]>(flags: Fs): OptionsOf<Fs> {
  const options: Record<string, { type: 'string' | 'boolean'; multiple: boolean; short?: string }> = {};
  for (const f of flags) options[f.name] = { type: f.type, multiple: f.multiple === true, ...(f.short ? { short: f.short } : {}) };
  // Built from the same declarations the type is.
  return options as OptionsOf<Fs>;
}

/** Go's strconv.ParseBool, which pflag's booleans use. */
export function parseGoBool(v: string): boolean | null {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
  return null;
}

/** The usage error for a refused value, worded as the flag's declaration says. */
function refusal(f: FlagSpec, value: string, reason: string): UsageError {
  return new UsageError(f.pflag ? `invalid argument "${value}" for "--${f.name}" flag: ${reason}` : `--${f.name} ${reason}, got "${value}"`);
}

/**
 * Takes out the spellings parseArgs lacks and pflag accepts: `-x=V` for a short flag's `--name=V`,
 * and a pflag boolean's `--name` / `--name=true|false` (the last one given wins).
 */
function pflagSpellings(spec: CommandSpec, argv: readonly string[]): { args: string[]; bools: Map<string, boolean> } {
  const args: string[] = [];
  const bools = new Map<string, boolean>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      args.push(...argv.slice(i));
      break;
    }
    const eq = a.indexOf('=');
    const short = /^-[a-zA-Z]=/.test(a) ? spec.flags.find((f) => f.short === a[1] && f.type === 'string') : undefined;
    if (short) {
      args.push(`--${short.name}${a.slice(2)}`);
      continue;
    }
    const name = a.startsWith('--') ? a.slice(2, eq < 0 ? undefined : eq) : '';
    const bool = name === '' ? undefined : spec.flags.find((f) => f.pflag && f.type === 'boolean' && f.name === name);
    if (!bool) {
      args.push(a);
      continue;
    }
    const text = eq < 0 ? 'true' : a.slice(eq + 1);
    const value = parseGoBool(text);
    if (value === null) throw refusal(bool, text, `strconv.ParseBool: parsing "${text}": invalid syntax`);
    bools.set(bool.name, value);
  }
  return { args, bools };
}

/** Parses `argv` as `spec` declares it; a usage error names the flag and the reason. */
export function parseCommand<S extends CommandSpec>(spec: S, argv: string[]): { values: FlagValues<S>; positionals: string[] } {
  const { args, bools } = pflagSpellings(spec, argv);
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: optionsOf(spec.flags) as Record<string, { type: 'string' | 'boolean'; multiple: boolean }> });
  if (positionals.length > spec.maxPositionals) throw new UsageError(spec.tooManyPositionals(positionals));
  for (const f of spec.flags) {
    const given = values[f.name];
    if (f.check === undefined || given === undefined || typeof given === 'boolean') continue;
    for (const v of Array.isArray(given) ? given : [given]) {
      if (typeof v !== 'string') continue;
      const reason = f.check(v);
      if (reason !== null) throw refusal(f, v, reason);
    }
  }
  for (const [name, value] of bools) values[name] = value;
  // parseArgs typed the values by `options`, which is built at run time from the same declarations.
  return { values: values as FlagValues<S>, positionals };
}

/** A flag's line(s) in the help: the name and placeholder, then the help from column 24. */
function flagHelp(f: FlagSpec): string {
  const label = `${f.short ? `-${f.short}, ` : ''}--${f.name}${f.value ? ` ${f.value}` : ''}`;
  const [first, ...rest] = f.help.split('\n');
  const head = label.length <= 20 ? `  ${label.padEnd(20)}  ${first}` : `  ${label}  ${first}`;
  return [head, ...rest.map((l) => `${' '.repeat(24)}${l}`)].join('\n') + '\n';
}

/** The flags' part of a help text. */
function flagsHelp(flags: readonly FlagSpec[]): string {
  return flags.map(flagHelp).join('');
}

/** The command's `--help` text: the flags under their sections' headings, in declaration order. */
export function commandHelp(spec: CommandSpec): string {
  const sections = new Map<string, FlagSpec[]>();
  for (const f of spec.flags) {
    const heading = f.section ?? 'Options:';
    const list = sections.get(heading);
    if (list) list.push(f);
    else sections.set(heading, [f]);
  }
  const body = [...sections].map(([heading, flags]) => `${heading}\n${flagsHelp(flags)}`).join('\n');
  return `Usage: kube-scheduler-ts ${spec.usage}\n\n${spec.about}\n\n${body}${spec.footer ?? ''}`;
}

/** The command list of the top-level help: one line per command, its text from column 40 when the arguments fit. */
export function commandList(specs: readonly CommandSpec[]): string {
  return specs
    .map((s) => {
      const synopsis = `${s.name} ${s.summary.args}`;
      return synopsis.length <= 36 ? `  ${synopsis.padEnd(36)}  ${s.summary.text}\n` : `  ${synopsis}  ${s.summary.text}\n`;
    })
    .join('');
}

/** Checks shared by several commands' flags. */
export const checks = {
  integer: (v: string): string | null => (Number.isInteger(Number(v)) && v.trim() !== '' ? null : 'must be an integer'),
  nonNegativeInteger: (v: string): string | null => (Number.isInteger(Number(v)) && Number(v) >= 0 && v.trim() !== '' ? null : 'must be a non-negative integer'),
  oneOf:
    (...allowed: string[]) =>
    (v: string): string | null =>
      allowed.includes(v) ? null : `must be ${allowed.slice(0, -1).join(', ')}${allowed.length > 1 ? ' or ' : ''}${allowed[allowed.length - 1]}`,
};

/** Flags several commands declare alike. */
export const sharedFlags = {
  featureGates: { name: 'feature-gates', type: 'string', multiple: true, value: 'A=true,B=false', help: "Feature gates of the pinned release (v1.37.2), as kube-scheduler's (repeatable)" },
  seed: { name: 'seed', type: 'string', value: 'N', help: 'Seed of the random source; default 1', check: checks.integer },
  output: { name: 'output', short: 'o', type: 'string', value: 'text|json', help: 'Default text', check: checks.oneOf('text', 'json') },
  rowWorkers: {
    name: 'row-workers', type: 'string', value: 'N', check: checks.nonNegativeInteger,
    help: 'Worker threads for Filter walks of 1,000+ nodes (none by default; 0: the row\npass on the main thread alone; the same decisions; not in diagnosed attempts;\ndocs/performance.md)',
  },
  progress: { name: 'progress', type: 'boolean', help: 'a progress line on stderr even when stderr is not a terminal (it is drawn on a terminal)' },
} as const satisfies Record<string, FlagSpec>;

/** A flag's integer (checked by its declaration), or undefined when absent. */
export const optionalInt = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));

/** The error for arguments past a command's one scenario. */
export const pastScenario = (p: readonly string[]): string => `unexpected arguments: ${p.slice(1).join(' ')}`;
