// The kube-scheduler-ts command: dispatches to one command module per subcommand.
import { ExitBadInput, describeListenError, processIO, verbosityOf, type CliIO, type Command } from './io.js';
import { runSpec } from './commands/run_flags.js';
import { commandHelp, commandList, type CommandSpec } from './command_spec.js';
import { BadInputError } from '../util/bad_input.js';

export { type CliIO } from './io.js';

/** Exit status for a failure that is not the input's fault. */
const ExitInternalError = 1;

/** A command's declaration (its help, its line in the list) and what runs it. */
interface CommandModule {
  readonly spec: CommandSpec;
  readonly run: Command;
}

/** A command whose module is imported on first use. */
function lazy<M>(load: () => Promise<M>, pick: (m: M) => CommandModule): () => Promise<CommandModule> {
  return async () => pick(await load());
}

// In the order the help lists them. Every command is loaded on use: `run` must not pay for the
// embedded cluster and the bench catalog.
const commands: Record<string, () => Promise<CommandModule>> = {
  simulate: lazy(() => import('./commands/simulate.js'), (m) => ({ spec: m.simulateSpec, run: m.simulateCommand })),
  explain: lazy(() => import('./commands/simulate.js'), (m) => ({ spec: m.explainSpec, run: m.explainCommand })),
  // The first node and pod lists go out before the scheduler's modules load (run_first_lists.ts).
  run: async () => ({
    spec: runSpec,
    run: async (argv, io) => {
      const first = (await import('./commands/run_first_lists.js')).startFirstLists(argv);
      return (await import('./commands/run.js')).runCommand(argv, io, process, first);
    },
  }),
  serve: lazy(() => import('./commands/serve.js'), (m) => ({ spec: m.serveSpec, run: m.serveCommand })),
  capacity: lazy(() => import('./commands/capacity.js'), (m) => ({ spec: m.capacitySpec, run: m.capacityCommand })),
  compare: lazy(() => import('./commands/compare.js'), (m) => ({ spec: m.compareSpec, run: m.compareCommand })),
  snapshot: lazy(() => import('./commands/snapshot.js'), (m) => ({ spec: m.snapshotSpec, run: m.snapshotCommand })),
  bench: lazy(() => import('./commands/bench.js'), (m) => ({ spec: m.benchSpec, run: m.benchCommand })),
};

/** The top-level help; the command list comes from the commands' declarations. */
async function usage(): Promise<string> {
  const specs = await Promise.all(Object.values(commands).map(async (load) => (await load()).spec));
  return `Usage: kube-scheduler-ts <command> [options]

Commands:
${commandList(specs)}
Each command's --help lists its options.

With no scenario, the bundled scenarios/default.yaml is used.
`;
}

export async function runCli(argv: string[], io: CliIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '-h' || name === '--help' || name === 'help') {
    io.stdout(await usage());
    return name ? 0 : ExitBadInput;
  }
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    io.stderr(`error: unknown command "${name}"\n\n${await usage()}`);
    return ExitBadInput;
  }
  const command = await load();
  if (rest.includes('-h') || rest.includes('--help')) {
    io.stdout(commandHelp(command.spec));
    return 0;
  }
  try {
    return await command.run(rest, io);
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
