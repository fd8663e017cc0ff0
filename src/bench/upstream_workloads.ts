// An upstream test case's name, source, feature gates and workloads as upstream_catalog.ts holds
// them (the pinned release's performance-config.yaml), with what we add: the `default` label and
// our targets. Our test cases spread this into their definition, so thresholds and parameters
// cannot drift from upstream's.
import type { TestCase, UpstreamTestCase, Workload, WorkloadParam } from './types.js';
import { upstreamCatalog } from './upstream_catalog.js';

export interface WorkloadExtras {
  /** Workloads `npm run bench` runs when no label is given. */
  defaults?: readonly string[];
  /** Our targets for the embedded scheduler on one core (pods/s), by workload name. */
  targets?: Readonly<Record<string, number>>;
  /** Parameters added to a workload upstream leaves without them (the caller says why), by workload name. */
  addParams?: Readonly<Record<string, Readonly<Record<string, WorkloadParam>>>>;
}

function upstreamTestCase(name: string): UpstreamTestCase {
  const tc = upstreamCatalog.find((c) => c.name === name);
  if (!tc) throw new Error(`no test case "${name}" in upstream's scheduler_perf`);
  return tc;
}

/** The threshold that applies when the case runs under its topic (the first folder of its source). */
function threshold(t: UpstreamTestCase['workloads'][number]['threshold'], source: string): number | undefined {
  if (t === undefined || typeof t === 'number') return t;
  return t[source.slice(0, source.indexOf('/'))];
}

export function upstreamWorkloads(name: string, extras: WorkloadExtras = {}): Pick<TestCase, 'name' | 'source' | 'featureGates' | 'workloads'> {
  const tc = upstreamTestCase(name);
  const workloads = tc.workloads.map((w): Workload => {
    const labels = [...new Set([...(tc.labels ?? []), ...(w.labels ?? []), ...(extras.defaults?.includes(w.name) ? ['default'] : [])])];
    const t = threshold(w.threshold, tc.source);
    const target = extras.targets?.[w.name];
    return {
      name: w.name,
      ...(labels.length > 0 ? { labels } : {}),
      ...(t !== undefined ? { threshold: t } : {}),
      ...(target !== undefined ? { target } : {}),
      ...(w.featureGates ? { featureGates: w.featureGates } : {}),
      params: { ...(w.params as Record<string, WorkloadParam>), ...extras.addParams?.[w.name] },
    };
  });
  return { name, source: tc.source, ...(tc.featureGates ? { featureGates: tc.featureGates } : {}), workloads };
}
