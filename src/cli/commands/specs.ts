// The declarations of every command but `run` (run_flags.ts): flags, checks and help, apart from
// the code that runs them, so that the top-level --help and the command list load only this.
import { parseDurationNanos, DurationError } from '../../util/duration.js';
import { checks, pastScenario, sharedFlags, type CommandSpec, type FlagSpec } from '../command_spec.js';

/** The flags that read a live cluster, declared once for every command that takes them. */
export const clusterFlags = [
  { name: 'from-cluster', type: 'boolean', help: 'read the scenario from a live cluster, read-only, instead of a file' },
  { name: 'kubeconfig', type: 'string', value: 'FILE', help: 'its kubeconfig (default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account)' },
  { name: 'namespace', short: 'n', type: 'string', multiple: true, value: 'NS', help: 'namespaced objects from NS only (repeatable; cluster-scoped kinds always come)' },
  { name: 'selector', short: 'l', type: 'string', value: 'SEL', help: 'label selector of the pods to import' },
  { name: 'field-selector', type: 'string', value: 'SEL', help: 'field selector of the pods to import' },
  { name: 'kube-api-qps', type: 'string', value: 'N', help: 'client rate limit, requests per second (default 50)' },
  { name: 'kube-api-burst', type: 'string', value: 'N', help: 'client burst (default 100)' },
  { name: 'page-size', type: 'string', value: 'N', help: 'objects per list request (default 500)' },
] as const satisfies readonly FlagSpec[];

/** The flags simulate and explain share: the scenario, the configuration and the random source. */
export const scenarioFlags = [
  { name: 'config', type: 'string', value: 'FILE', help: 'KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1), YAML or JSON' },
  { ...sharedFlags.seed, help: 'Seed of the random source (tie-breaking among top nodes); default 1' },
  {
    name: 'tie-break', type: 'string', value: 'name', check: checks.oneOf('name'),
    help: 'pick the first top-scored node (and pod-group placement) by name instead of sampling',
  },
  { name: 'plugins', type: 'string', multiple: true, value: 'FILE', help: 'load out-of-tree plugins from a module (.mjs, .js or .ts) exporting `plugins`\n(repeatable)' },
  sharedFlags.featureGates,
] as const satisfies readonly FlagSpec[];

const noScenario = '\nWith no scenario, the bundled scenarios/default.yaml is used.\n';

function reportScoresCheck(v: string): string | null {
  const n = Number(v);
  return v === 'all' || (Number.isInteger(n) && n >= 1 && v.trim() !== '') ? null : 'must be a positive integer or "all"';
}

function widthCheck(v: string): string | null {
  const n = Number(v);
  return Number.isInteger(n) && n >= 20 && v.trim() !== '' ? null : 'must be an integer of at least 20';
}

/** `simulate`, declared once: its flags, checks and help. */
export const simulateSpec = {
  name: 'simulate',
  summary: { args: '[scenario]', text: 'Schedule a scenario on an embedded cluster and report the result' },
  usage: 'simulate [scenario | --from-cluster] [options]',
  about: `Schedules the scenario's pending pods on an embedded cluster, as kube-scheduler would (retries,
backoff, preemption, the scenario's steps), and reports where each pod went or why it did not.`,
  flags: [
    ...scenarioFlags,
    { ...sharedFlags.output, help: 'Output format; default text' },
    { name: 'report', type: 'string', value: 'FILE', help: 'also write a self-contained HTML report (charts, every pod\'s decision)' },
    {
      name: 'report-scores', type: 'string', value: 'N|all', check: reportScoresCheck,
      help: "with --report: the best-scored nodes each pod's score table keeps (all: every\nscored node); by default as many as a budget of 4 million rows over all pods\nallows, at least 10 (explain --pod has every row)",
    },
    { name: 'serve', type: 'boolean', help: 'serve the cluster over the Kubernetes API while scheduling (web UI at /ui/):\nthe serve command; serve --help lists its flags' },
    // Not explain's: a diagnosed attempt (explain, --report) walks node by node for its statuses.
    sharedFlags.rowWorkers,
    ...clusterFlags,
  ],
  maxPositionals: 1,
  tooManyPositionals: pastScenario,
  footer: noScenario,
} as const satisfies CommandSpec;

/** `explain`, declared once: its flags, checks and help. */
export const explainSpec = {
  name: 'explain',
  summary: { args: '[scenario]', text: "Schedule each pending pod once and explain every node's verdicts, scores and preemption" },
  usage: 'explain [scenario | --from-cluster] [options]',
  about: `Schedules each pending pod once and explains every node's verdicts (each Filter plugin's), scores
(each Score plugin's, weighted and normalized) and what preemption would do.`,
  flags: [
    ...scenarioFlags,
    { ...sharedFlags.output, help: 'Output format; default text on a terminal, else json' },
    { name: 'pod', type: 'string', value: 'NAME', help: 'only this pod (namespace/name or name)' },
    { name: 'all-nodes', type: 'boolean', help: 'text: name every node of a group of identical verdicts' },
    { name: 'width', type: 'string', value: 'N', check: widthCheck, help: "text: cut lines at N columns (default: the terminal's width)" },
    { name: 'timeline', type: 'boolean', help: "run the scenario as simulate does (retries, steps) and explain each pod's\nlast attempt, with all its attempts" },
    ...clusterFlags,
  ],
  maxPositionals: 1,
  tooManyPositionals: pastScenario,
  footer: noScenario,
} as const satisfies CommandSpec;

/** Why a Go duration flag ("2s", "1m30s") is refused, or null. */
function durationCheck(v: string): string | null {
  try {
    if (parseDurationNanos(v) >= 0) return null;
  } catch (err) {
    if (!(err instanceof DurationError)) throw err;
  }
  return 'must be a duration such as 2s or 1m30s';
}

function portCheck(v: string): string | null {
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 && n <= 65535 && v.trim() !== '' ? null : 'must be a port number (0 picks a free one)';
}

/** `serve` (and `simulate --serve`), declared once: its flags, checks and help. */
export const serveSpec = {
  name: 'serve',
  summary: { args: '[--port N] [scenario]', text: "Serve a scenario's cluster over the Kubernetes API while scheduling (= simulate --serve)" },
  usage: 'serve [scenario | --from-cluster] [options]',
  about: `Serves the scenario's cluster over the Kubernetes API (kubectl, client libraries, the web UI at
/ui/) while the embedded scheduler schedules the pods clients create; the same as simulate --serve.`,
  flags: [
    { name: 'port', type: 'string', value: 'N', check: portCheck, help: 'Port to listen on; default 6443 (0 picks a free one)' },
    { name: 'address', type: 'string', value: 'IP', help: 'Address to listen on; default 127.0.0.1' },
    { name: 'config', type: 'string', value: 'FILE', help: 'KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1), YAML or JSON' },
    sharedFlags.seed,
    { name: 'plugins', type: 'string', multiple: true, value: 'FILE', help: 'out-of-tree plugins module (.mjs, .js or .ts) exporting `plugins` (repeatable)' },
    sharedFlags.featureGates,
    { name: 'pod-start-delay', type: 'string', value: 'D', check: durationCheck, help: 'How long after its binding a pod turns Running and Ready; default 0s' },
    {
      name: 'simulator-annotations', type: 'boolean',
      help: "after each attempt write the pod's results as kube-scheduler-simulator's\nannotations (kube-scheduler-simulator.sigs.k8s.io/filter-result, score-result,\n..., result-history), in batches; cut to fit the API's 256 KiB annotation limit",
    },
    { name: 'v', type: 'string', value: 'N', check: checks.nonNegativeInteger, help: 'Log verbosity: 4 logs every API request on stderr' },
    { name: 'serve', type: 'boolean', help: 'Accepted and ignored (simulate --serve passes it)' },
    ...clusterFlags,
  ],
  maxPositionals: 1,
  tooManyPositionals: pastScenario,
  footer: '\nWith no scenario, the bundled scenarios/default.yaml is used.\n',
} as const satisfies CommandSpec;

const question = 'Questions:';

/** `capacity`, declared once: its questions and options, their checks and help. */
export const capacitySpec = {
  name: 'capacity',
  summary: { args: '[scenario] --pod FILE | --add-nodes-like NODE', text: 'How many more pods fit; how many nodes to add' },
  usage: 'capacity [scenario | --from-cluster] (--pod FILE [--max N] | --gang FILE [--members N] [--max N] | --add-nodes-like NODE | --node-template FILE | --removable [--nodes A,B] [--placements]) [options]',
  about: `Answers capacity questions with the real scheduler on the scenario's cluster (its pending pods
scheduled first).`,
  flags: [
    { name: 'pod', section: question, type: 'string', value: 'FILE', help: 'How many more copies of this Pod fit, and why the next one does not\n(every node\'s reasons). Copies never preempt.' },
    { name: 'max', section: question, type: 'string', value: 'N', help: 'Stop counting at N copies; default 100000 (--gang: 10000)' },
    {
      name: 'gang', section: question, type: 'string', value: 'FILE',
      help: "How many more pod groups like FILE's fit, each all or nothing (FILE: a\nPodGroup and the Pod every member copies; needs --feature-gates\nGenericWorkload=true; or a CompositePodGroup tree: the composites, the\nPodGroups under them and one Pod per PodGroup, with CompositePodGroup=true).\nWith --add-nodes-like or --node-template: how many nodes must be added so\none such group fits as well as every pending pod",
    },
    { name: 'members', section: question, type: 'string', value: 'N', help: "With --gang: members per PodGroup; default each gang's minCount (basic: 1)" },
    { name: 'add-nodes-like', section: question, type: 'string', value: 'NODE', help: 'How many nodes like NODE must be added so that every pending pod fits' },
    { name: 'node-template', section: question, type: 'string', value: 'FILE', help: 'The same, with a Node from FILE as the template' },
    { name: 'limit', section: question, type: 'string', value: 'N', help: 'Give up beyond N added nodes; default 10000' },
    {
      name: 'removable', section: question, type: 'boolean',
      help: "Which nodes could be removed, each alone, with their pods (DaemonSet pods\naside) rescheduled on the others; --nodes A,B to try only those. A node\nwhose pods each fit enough other nodes is answered from the filters alone,\neach pod shown with a node that has room for it",
    },
    { name: 'nodes', section: question, type: 'string', value: 'A,B', help: 'With --removable: only these nodes' },
    { name: 'placements', section: question, type: 'boolean', help: 'With --removable: run the scheduler for every node, to show where it\nwould put each pod (slower: a scheduling cycle per pod moved)' },
    { name: 'config', type: 'string', value: 'FILE', help: 'KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1)' },
    { name: 'plugins', type: 'string', multiple: true, value: 'FILE', help: 'out-of-tree plugins module (repeatable)' },
    sharedFlags.featureGates,
    sharedFlags.seed,
    sharedFlags.output,
    sharedFlags.progress,
    ...clusterFlags,
  ],
  maxPositionals: 1,
  tooManyPositionals: pastScenario,
} as const satisfies CommandSpec;

/** `compare`, declared once: its flags, checks and help. */
export const compareSpec = {
  name: 'compare',
  summary: { args: '[scenario] --config A [--config B]', text: 'One scenario under several configurations, side by side' },
  usage: 'compare [scenario | --from-cluster] --config A.yaml [--config B.yaml ...] [options]',
  about: `Runs the scenario once per configuration (the same seed each time) and compares: pods scheduled and
left out (with upstream's reasons), nodes used, how evenly cpu and memory are requested across nodes,
how fragmented the free cpu is, and every pod whose node or outcome differs.
With one --config, it is compared with the scenario's own configuration (or upstream's defaults).`,
  flags: [
    { name: 'config', type: 'string', multiple: true, value: 'FILE', help: 'A KubeSchedulerConfiguration to compare (repeatable)' },
    { name: 'plugins', type: 'string', multiple: true, value: 'FILE', help: 'out-of-tree plugins module, available to every configuration (repeatable)' },
    sharedFlags.featureGates,
    sharedFlags.seed,
    sharedFlags.output,
    { name: 'max-differences', type: 'string', value: 'N', help: "Pods listed in the text output's differences; default 50", check: checks.nonNegativeInteger },
    { name: 'report', type: 'string', value: 'FILE', help: 'also write the comparison as one self-contained HTML page (charts, tables, every difference)' },
    sharedFlags.progress,
    ...clusterFlags,
  ],
  maxPositionals: 1,
  tooManyPositionals: pastScenario,
} as const satisfies CommandSpec;

/** `snapshot`, declared once: its flags and help. */
export const snapshotSpec = {
  name: 'snapshot',
  summary: { args: '[-o FILE] [--kubeconfig FILE]', text: 'Write a live cluster (read-only) as a scenario file' },
  usage: 'snapshot [options] [-o FILE]',
  about: `Reads a cluster, read-only, and writes it as a scenario file (YAML): nodes, bound pods as existing
load, unbound pods of this scheduler's profiles as pending (in namespace/name order, as a starting
kube-scheduler lists them), and every object the scheduler reads. Finished pods are left out.`,
  flags: [
    { name: 'output', short: 'o', type: 'string', value: 'FILE', help: 'where to write the scenario (default: standard output)' },
    { name: 'config', type: 'string', value: 'FILE', help: 'KubeSchedulerConfiguration: its profiles say which pending pods are ours,\nand it is written into the scenario' },
    { name: 'plugins', type: 'string', multiple: true, value: 'FILE', help: 'out-of-tree plugins the configuration names (repeatable)' },
    ...clusterFlags,
  ],
  maxPositionals: 0,
  tooManyPositionals: (p) => `unexpected arguments: ${p.join(' ')} (snapshot reads the cluster; -o names the file to write)`,
} as const satisfies CommandSpec;

const nonNegative = { type: 'string', value: 'N', check: checks.nonNegativeInteger } as const;

/** `bench`, declared once: its flags, checks and help. */
export const benchSpec = {
  name: 'bench',
  summary: { args: '[filter]', text: "Run upstream's scheduler_perf workloads on the embedded scheduler (--json, --compare)" },
  usage: 'bench [filter] [options]   (this text: bench help)',
  about: `Runs upstream's scheduler_perf workloads (SchedulingBasic/5000Nodes, ...) on the embedded scheduler
and reports SchedulingThroughput (pods/s over 1-second windows), attempt durations and memory.
[filter] is a regular expression matched against "TestCase/Workload".`,
  flags: [
    { name: 'label', type: 'string', value: 'L', help: "Upstream label to select: default (500/5000-node runs), performance\n(upstream's threshold runs), integration-test (tiny), or all" },
    { name: 'nodes', ...nonNegative, help: "Override the workloads' initNodes (nodesWithDRA for DRA workloads)" },
    { name: 'init-pods', ...nonNegative, help: "Override the workloads' initPods" },
    { name: 'measure-pods', ...nonNegative, help: "Override the workloads' measurePods" },
    { name: 'json', type: 'string', value: 'FILE', help: 'Also write the results to FILE' },
    { name: 'compare', type: 'string', value: 'OLD.json', help: "Print each workload's throughput ratio against an earlier --json file" },
    { name: 'config', type: 'string', value: 'FILE', help: "KubeSchedulerConfiguration to run with (default: upstream's defaults)" },
    { name: 'seed', ...nonNegative, help: 'Seed of the random source; default 1' },
    { name: 'feature-gates', type: 'string', multiple: true, value: 'A=true,B=false', help: "Feature gates of the pinned release (v1.37.2), as kube-scheduler's" },
    { name: 'timeout', ...nonNegative, value: 'SECONDS', help: "Longest wait for one op's pods; default 600" },
    { name: 'cpu-profile', type: 'string', value: 'DIR', help: "Write a V8 CPU profile of each workload's measured op to DIR" },
    sharedFlags.rowWorkers,
    { name: 'list', type: 'boolean', help: "List the selected workloads, and upstream's test cases not run yet, and exit" },
  ],
  maxPositionals: 1,
  tooManyPositionals: (p) => `bench takes one filter, got: ${p.join(' ')}`,
} as const satisfies CommandSpec;
