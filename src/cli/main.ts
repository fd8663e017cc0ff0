// The kube-scheduler-ts command: dispatches to one command module per subcommand.
import { ExitBadInput, describeListenError, processIO, verbosityOf, type CliIO, type Command } from './io.js';
import { BadInputError } from '../util/bad_input.js';

export { type CliIO } from './io.js';

/** Exit status for a failure that is not the input's fault. */
const ExitInternalError = 1;

interface CommandEntry {
  run: Command;
  help: string;
  /** The command's `--help` text, from its declaration. */
  usage: () => Promise<string>;
}

const commands: Record<string, CommandEntry> = {
  // Every command is loaded on use: `run` must not pay for the embedded cluster and the bench catalog.
  simulate: { run: async (argv, io) => (await import('./commands/simulate.js')).simulateCommand(argv, io), usage: async () => (await import('./commands/simulate.js')).simulateUsage, help: 'simulate [scenario]   Schedule a scenario on an embedded cluster and report the result' },
  explain: { run: async (argv, io) => (await import('./commands/simulate.js')).explainCommand(argv, io), usage: async () => (await import('./commands/simulate.js')).explainUsage, help: "explain [scenario]    Schedule each pending pod once and explain every node's verdicts, scores and preemption" },
  run: {
    // The first node and pod lists go out before the scheduler's modules load (run_first_lists.ts).
    run: async (argv, io) => {
      const first = (await import('./commands/run_first_lists.js')).startFirstLists(argv);
      return (await import('./commands/run.js')).runCommand(argv, io, process, first);
    },
    usage: async () => (await import('./commands/run.js')).runUsage,
    help: 'run [--kubeconfig FILE] [--config FILE]  Schedule the pods of a real cluster (see README: Run as a second scheduler)',
  },
  serve: {
    run: async (argv, io) => (await import('./commands/serve.js')).serveCommand(argv, io),
    usage: async () => (await import('./commands/serve.js')).serveUsage,
    help: 'serve [--port N] [scenario]  Serve a scenario\'s cluster over the Kubernetes API while scheduling (= simulate --serve)',
  },
  capacity: {
    run: async (argv, io) => (await import('./commands/capacity.js')).capacityCommand(argv, io),
    usage: async () => (await import('./commands/capacity.js')).capacityUsage,
    help: 'capacity [scenario] --pod FILE | --add-nodes-like NODE  How many more pods fit; how many nodes to add',
  },
  compare: {
    run: async (argv, io) => (await import('./commands/compare.js')).compareCommand(argv, io),
    usage: async () => (await import('./commands/compare.js')).compareUsage,
    help: 'compare [scenario] --config A [--config B]  One scenario under several configurations, side by side',
  },
  snapshot: {
    run: async (argv, io) => (await import('./commands/snapshot.js')).snapshotCommand(argv, io),
    usage: async () => (await import('./commands/snapshot.js')).snapshotUsage,
    help: 'snapshot [-o FILE] [--kubeconfig FILE]  Write a live cluster (read-only) as a scenario file',
  },
  bench: { run: async (argv, io) => (await import('./commands/bench.js')).benchCommand(argv, io), usage: async () => (await import('./commands/bench.js')).benchUsage, help: "bench [filter]        Run upstream's scheduler_perf workloads on the embedded scheduler (--json, --compare)" },
};

function usage(): string {
  return `Usage: kube-scheduler-ts <command> [options]

Commands:
${Object.values(commands).map((c) => `  ${c.help}`).join('\n')}

Each command's --help lists its options.

With no scenario, the bundled scenarios/default.yaml is used.
`;
}

export async function runCli(argv: string[], io: CliIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '-h' || name === '--help' || name === 'help') {
    io.stdout(usage());
    return name ? 0 : ExitBadInput;
  }
  const command = commands[name];
  if (!command) {
    io.stderr(`error: unknown command "${name}"\n\n${usage()}`);
    return ExitBadInput;
  }
  if (rest.includes('-h') || rest.includes('--help')) {
    io.stdout(await command.usage());
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
