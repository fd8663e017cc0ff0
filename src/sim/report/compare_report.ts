// The data `compare --report` embeds in its HTML page: the comparison (as `compare -o json`) and,
// per configuration, each node's requested and allocatable cpu, memory and pods, so the page can
// draw how evenly each configuration spread the load. No Node.js or DOM imports: the page bundles it.
import type { Comparison } from '../whatif/compare.js';
import type { SimReport } from '../simulate/simulate.js';

export interface ComparisonReportData {
  readonly kind: 'comparison';
  readonly title: string;
  readonly comparison: Comparison;
  /** Node names, in one order for every configuration. */
  readonly nodes: readonly string[];
  /**
   * Per configuration, per node (in `nodes` order): [cpu requested, cpu allocatable (millicores),
   * memory requested, memory allocatable (bytes), pods, pods allocatable]; zeros for a node the
   * run did not end with.
   */
  readonly load: readonly (readonly (readonly [number, number, number, number, number, number])[])[];
}

/** Whether the embedded data is a comparison (else it is a simulation report). */
export function isComparisonReport(data: object): data is ComparisonReportData {
  return (data as { kind?: unknown }).kind === 'comparison';
}

export function buildComparisonReport(title: string, comparison: Comparison, reports: readonly SimReport[]): ComparisonReportData {
  const nodes = [...new Set(reports.flatMap((r) => r.nodes.map((n) => n.node)))].sort();
  const load = reports.map((r) => {
    const byName = new Map(r.nodes.map((n) => [n.node, n]));
    return nodes.map((name): [number, number, number, number, number, number] => {
      const n = byName.get(name);
      return n === undefined ? [0, 0, 0, 0, 0, 0] : [n.cpu.requested, n.cpu.allocatable, n.memory.requested, n.memory.allocatable, n.pods.count, n.pods.allocatable];
    });
  });
  return { kind: 'comparison', title, comparison, nodes, load };
}
