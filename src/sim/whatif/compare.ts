// `compare`: one scenario under two or more scheduler configurations (or plugin sets): placements,
// pods left out and why, how evenly the nodes are used and how fragmented the free room is, and
// the pods whose fate differs.
import { podKey, type Pod } from '../../api/types.js';
import type { ProgressListener } from './progress.js';
import type { Scenario } from '../scenario/scenario.js';
import { runSimulation, type NodeAllocation, type SimReport } from '../simulate/simulate.js';
import type { CapacityOptions } from './capacity.js';
import { groupCounts, type GroupCounts } from '../report/group_counts.js';

export interface Variant {
  /** How the variant is named in the output (e.g. the configuration file). */
  name: string;
  options: CapacityOptions;
}

interface VariantSummary {
  name: string;
  scheduled: number;
  unschedulable: number;
  pending: number;
  preempted: number;
  /** The messages of pods left out, with how many pods each. */
  reasons: { message: string; pods: number }[];
  /** Nodes holding at least one pod. */
  nodesUsed: number;
  /** Mean and standard deviation of the nodes' requested/allocatable share, cpu and memory (0..1). */
  cpu: { mean: number; stddev: number };
  memory: { mean: number; stddev: number };
  /** The same for each extended resource (nvidia.com/gpu), over the nodes offering it; absent when none does. */
  extended?: { name: string; mean: number; stddev: number }[];
  /**
   * Free cpu (millicores) in total and on the roomiest node; fragmentation = 1 - largest/total,
   * 0 when all free room is on one node, near 1 when it is scattered in small pieces.
   */
  freeCpu: { total: number; largest: number; fragmentation: number };
  /** Pod groups (gangs) placed with their quorum and not; absent when no pod names a group. */
  groups?: GroupCounts;
}

interface PodDifference {
  pod: string;
  /** Per variant, in order: the node, or the outcome when not scheduled. */
  fates: string[];
}

export interface Comparison {
  variants: VariantSummary[];
  /** Pods whose node or outcome differs between variants. */
  differences: PodDifference[];
  /** Pods compared (every pod any variant reported). */
  pods: number;
}

function spread(values: readonly number[]): { mean: number; stddev: number } {
  if (values.length === 0) return { mean: 0, stddev: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
  return { mean, stddev: Math.sqrt(variance) };
}

const share = (used: number, total: number) => (total > 0 ? Math.min(1, used / total) : 0);

function summarize(sc: Scenario, name: string, r: SimReport): VariantSummary {
  const reasons = new Map<string, number>();
  for (const p of r.pods) if (p.outcome === 'Unschedulable') reasons.set(p.message, (reasons.get(p.message) ?? 0) + 1);
  const nodes: NodeAllocation[] = r.nodes;
  const free = nodes.map((n) => Math.max(0, n.cpu.allocatable - n.cpu.requested));
  const total = free.reduce((a, b) => a + b, 0);
  const largest = free.reduce((a, b) => Math.max(a, b), 0);
  return {
    name,
    scheduled: r.summary.scheduled,
    unschedulable: r.summary.unschedulable,
    pending: r.summary.pending,
    preempted: r.summary.preempted,
    reasons: [...reasons].map(([message, pods]) => ({ message, pods })).sort((a, b) => b.pods - a.pods || a.message.localeCompare(b.message)),
    nodesUsed: nodes.filter((n) => n.pods.count > 0).length,
    cpu: spread(nodes.map((n) => share(n.cpu.requested, n.cpu.allocatable))),
    memory: spread(nodes.map((n) => share(n.memory.requested, n.memory.allocatable))),
    ...extendedSpread(nodes),
    freeCpu: { total, largest, fragmentation: total > 0 ? 1 - largest / total : 0 },
    ...groupsOf(sc, r),
  };
}

/** The scenario's pod groups counted over a run (pending pods and those its steps create). */
function groupsOf(sc: Scenario, r: SimReport): { groups?: GroupCounts } {
  const pods = [...sc.pods, ...sc.pending, ...sc.steps.flatMap((s) => s.create.filter((x): x is Pod => x.kind === 'Pod'))];
  const objects = [...sc.objects, ...sc.steps.flatMap((s) => s.create)];
  const groups = groupCounts(objects, pods, new Set(r.pods.filter((p) => p.outcome === 'Scheduled').map((p) => p.pod)));
  return groups === null ? {} : { groups };
}

/** Each extended resource's requested share across the nodes that offer it, by name. */
function extendedSpread(nodes: SimReport['nodes']): { extended?: NonNullable<VariantSummary['extended']> } {
  const shares = new Map<string, number[]>();
  for (const n of nodes) for (const e of n.extended ?? []) shares.set(e.name, [...(shares.get(e.name) ?? []), share(e.requested, e.allocatable)]);
  if (shares.size === 0) return {};
  return { extended: [...shares].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, xs]) => ({ name, ...spread(xs) })) };
}

/** Runs the scenario once per variant, in order, with the same seed each. */
export async function runVariants(sc: Scenario, variants: readonly Variant[], onProgress?: ProgressListener): Promise<SimReport[]> {
  const reports: SimReport[] = [];
  for (const [i, v] of variants.entries()) {
    let attempts = 0;
    const what = `configuration ${i + 1}/${variants.length} (${v.name}): pods attempted`;
    const onAttempt = onProgress && (() => onProgress(what, ++attempts, 0));
    reports.push(await runSimulation(sc, { ...v.options, onAttempt }));
  }
  return reports;
}

/** Compares the variants' runs (`reports[i]` is `variants[i]`'s). */
export function compareReports(sc: Scenario, variants: readonly Pick<Variant, 'name'>[], reports: readonly SimReport[]): Comparison {
  const fates = new Map<string, string[]>();
  reports.forEach((r, i) => {
    for (const p of r.pods) {
      let f = fates.get(p.pod);
      if (f === undefined) fates.set(p.pod, (f = variants.map(() => 'absent')));
      f[i] = p.outcome === 'Scheduled' ? p.node : p.outcome;
    }
  });
  const order = [...new Set([...sc.pods, ...sc.pending].map(podKey)), ...fates.keys()];
  const differences: PodDifference[] = [];
  for (const pod of new Set(order)) {
    const f = fates.get(pod);
    if (f !== undefined && new Set(f).size > 1) differences.push({ pod, fates: f });
  }
  return { variants: variants.map((v, i) => summarize(sc, v.name, reports[i]!)), differences, pods: fates.size };
}

/** Runs the scenario once per variant (same seed each) and compares the outcomes. */
export async function compareVariants(sc: Scenario, variants: readonly Variant[], onProgress?: ProgressListener): Promise<Comparison> {
  return compareReports(sc, variants, await runVariants(sc, variants, onProgress));
}
