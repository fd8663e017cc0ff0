// The kube-scheduler-ts command: dispatches to one command module per subcommand.
import { ExitBadInput, describeListenError, processIO, verbosityOf, type CliIO, type Command } from './io.js';
import { runSpec } from './commands/run_spec.js';
import { benchSpec, capacitySpec, compareSpec, explainSpec, serveSpec, simulateSpec, snapshotSpec } from './commands/specs.js';
import { commandHelp, commandList, type CommandSpec } from './command_spec.js';
import { BadInputError } from '../util/bad_input.js';
import type { FirstLists } from './commands/run_first_lists.js';

export { type CliIO } from './io.js';

/** Exit status for a failure that is not the input's fault. */
const ExitInternalError = 1;

/** A command's declaration (its help, its line in the list) and what runs it, imported on use. */
interface CommandEntry {
  readonly spec: CommandSpec;
  /** `early`: what bin.ts started before loading this module (only `run` has any). */
  readonly load: (early: FirstLists | null | undefined) => Promise<Command>;
}

// In the order the help lists them. The declarations are at hand (commands/specs.ts), every
// command's code is loaded on use: `run` must not pay for the embedded cluster and the bench
// catalog, nor the help for any command.
const commands: Record<string, CommandEntry> = {
  simulate: { spec: simulateSpec, load: async () => (await import('./commands/simulate.js')).simulateCommand },
  explain: { spec: explainSpec, load: async () => (await import('./commands/simulate.js')).explainCommand },
  // The first node and pod lists go out before the scheduler's modules load (run_first_lists.ts):
  // bin.ts sends them before it loads this module; a caller of runCli that did not, here.
  run: {
    spec: runSpec,
    load: async (early) => async (argv, io) => {
      const first = early !== undefined ? early : (await import('./commands/run_first_lists.js')).startFirstLists(argv);
      return (await import('./commands/run.js')).runCommand(argv, io, process, first);
    },
  },
  serve: { spec: serveSpec, load: async () => (await import('./commands/serve.js')).serveCommand },
  capacity: { spec: capacitySpec, load: async () => (await import('./commands/capacity.js')).capacityCommand },
  compare: { spec: compareSpec, load: async () => (await import('./commands/compare.js')).compareCommand },
  snapshot: { spec: snapshotSpec, load: async () => (await import('./commands/snapshot.js')).snapshotCommand },
  bench: { spec: benchSpec, load: async () => (await import('./commands/bench.js')).benchCommand },
};

/** The top-level help; the command list comes from the commands' declarations. */
function usage(): string {
  return `Usage: kube-scheduler-ts <command> [options]

Commands:
${commandList(Object.values(commands).map((c) => c.spec))}
Each command's --help lists its options.

With no scenario, the bundled scenarios/default.yaml is used.
`;
}

/** `early`: `run`'s first lists, already sent by bin.ts (null: it sent none, `run` lists as usual). */
export async function runCli(argv: string[], io: CliIO = processIO, early?: FirstLists | null): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '-h' || name === '--help' || name === 'help') {
    io.stdout(usage());
    return name ? 0 : ExitBadInput;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    io.stderr(`error: unknown command "${name}"\n\n${usage()}`);
    return ExitBadInput;
  }
  if (rest.includes('-h') || rest.includes('--help')) {
    io.stdout(commandHelp(command.spec));
    return 0;
  }
  try {
    return await (await command.load(early))(rest, io);
  } catch (err) {
    if (isBadInput(err)) {
      io.stderr(`error: ${(err as Error).message}\n`);
      return ExitBadInput;
    }
    const listen = describeListenError(err);
    if (listen) {
      io.stderr(`error: ${listen}\n`);
      return ExitBadInput;
    }
    // Anything else is our fault: one line, and the stack for whoever asked for debugging output.
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`error: ${message}\n`);
    if (verbosityOf(rest) >= 4 && err instanceof Error && err.stack) io.stderr(`${err.stack}\n`);
    return ExitInternalError;
  }
}

/**
 * Errors that come from what the user gave: flags, files, and a configuration the framework
 * cannot build a profile from (FrameworkError: the checks configuration validation cannot make
 * ahead, such as an out-of-tree plugin that implements no extension point it is enabled at), and
 * extenders that cannot be set up (ExtenderSetupError: unreadable TLS files, found at start-up).
 */
function isBadInput(err: unknown): boolean {
  if (err instanceof BadInputError) return true;
  // node:util parseArgs' own errors, which cannot share our base class.
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}
