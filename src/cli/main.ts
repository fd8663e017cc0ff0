// The kube-scheduler-ts command: dispatches to one command module per subcommand.
import { ExitBadInput, describeListenError, processIO, verbosityOf, type CliIO, type Command } from './io.js';
import { explainCommand, simulateCommand } from './commands/simulate.js';
import { benchCommand, benchUsage } from './commands/bench.js';
import { BadInputError } from '../util/bad_input.js';

export { type CliIO } from './io.js';

/** Exit status for a failure that is not the input's fault. */
const ExitInternalError = 1;

interface CommandEntry {
  run: Command;
  help: string;
  /** The command's own usage text, when it has one. */
  usage?: () => Promise<string>;
}

const commands: Record<string, CommandEntry> = {
  simulate: { run: simulateCommand, help: 'simulate [scenario]   Schedule a scenario on an embedded cluster and report the result' },
  explain: { run: explainCommand, help: "explain [scenario]    Schedule each pending pod once and explain every node's verdicts, scores and preemption" },
  // Loaded on use: @kubernetes/client-node takes over a second to import.
  run: {
    run: async (argv, io) => (await import('./commands/run.js')).runCommand(argv, io),
    usage: async () => (await import('./commands/run.js')).runUsage,
    help: 'run [--kubeconfig FILE] [--config FILE]  Schedule the pods of a real cluster (see README: Run as a second scheduler)',
  },
  serve: { run: async (argv, io) => (await import('./commands/serve.js')).serveCommand(argv, io), help: 'serve [--port N] [scenario]  Serve a scenario\'s cluster over the Kubernetes API while scheduling (= simulate --serve)' },
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
  bench: { run: benchCommand, usage: async () => benchUsage, help: "bench [filter]        Run upstream's scheduler_perf workloads on the embedded scheduler (--json, --compare)" },
};

function usage(): string {
  return `Usage: kube-scheduler-ts <command> [options]

Commands:
${Object.values(commands).map((c) => `  ${c.help}`).join('\n')}

simulate / explain options:
  --config FILE         KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1), YAML or JSON
  --seed N              Seed of the random source (tie-breaking among top nodes); default 1
  --output text|json    Output format (simulate: text by default; explain: text on a terminal, else json)
  --tie-break name      explain: pick the first top-scored node (and pod-group placement) by name instead of sampling
  --pod NAME            explain: only this pod (namespace/name or name)
  --all-nodes           explain text: name every node of a group of identical verdicts
  --width N             explain text: cut lines at N columns (default: the terminal's width)
  --timeline            explain: run the scenario as simulate does (retries, steps) and explain
                        each pod's last attempt, with all its attempts
  --report FILE         simulate: also write a self-contained HTML report (charts, every pod's decision)
  --report-scores N|all simulate --report: the best-scored nodes each pod's score table keeps (all: every
                        scored node); by default as many as a budget of 4 million rows over all pods
                        allows, at least 10 (explain --pod has every row)
  --serve [--port N]    simulate: serve the cluster over the Kubernetes API while scheduling (web UI at /ui/)
  --pod-start-delay D   serve: how long after its binding a pod turns Running and Ready (default 0s)
  --simulator-annotations  serve: after each attempt write the pod's results as kube-scheduler-simulator's
                        annotations (kube-scheduler-simulator.sigs.k8s.io/filter-result, score-result, ...,
                        result-history), in batches; cut to fit the API's 256 KiB annotation limit
  --from-cluster        read a live cluster, read-only, instead of a scenario file (simulate, explain,
                        serve; with --kubeconfig, -n/--namespace, -l/--selector, --field-selector,
                        --kube-api-qps, --kube-api-burst: see snapshot --help)
  --plugins FILE        load out-of-tree plugins from a module (.mjs, .js or .ts) exporting \`plugins\`
                        (repeatable; serve and run take it too)
  --feature-gates A=true,B=false  feature gates of the pinned release (v1.37.2), as kube-scheduler's
                        (repeatable; serve, run and bench take it too)

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
    io.stdout(command.usage ? await command.usage() : usage());
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
