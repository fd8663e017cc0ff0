// Compares our `explain` output with upstream's expected decisions, field by field, with the
// rules of the shared scenario README: reasons and node sets compared as sets, and a score
// plugin absent on one side for all of a pod's nodes ignored (v1.26 had no PreScore Skip).
import type { Pod } from '../src/api/types.js';
import type { ExplainPod, ExplainStatus } from '../src/sim/explain.js';

type Scores = Record<string, Record<string, number>>;

const sortedSet = (a: readonly string[] | undefined) => [...new Set(a ?? [])].sort();
const sameSet = (a: readonly string[] | undefined, b: readonly string[] | undefined) => {
  const x = sortedSet(a);
  const y = sortedSet(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/**
 * Decisions current upstream makes differently from the v1.26 binaries that produced the corpus,
 * each with the upstream change that explains it. A difference listed here is accepted.
 */
export function isKnownUpstreamChange(e: ExplainStatus, a: ExplainStatus): boolean {
  // v1.31+: NodeResourcesFit reports UnschedulableAndUnresolvable when a request exceeds the
  // node's whole allocatable (no preemption can help); v1.26 said Unschedulable.
  return e.plugin === 'NodeResourcesFit' && a.plugin === e.plugin && e.code === 'Unschedulable' && a.code === 'UnschedulableAndUnresolvable';
}

function compareStatus(where: string, e: ExplainStatus | null | undefined, a: ExplainStatus | null | undefined, diffs: string[]): void {
  if (!e || !a) {
    if (!!e !== !!a) diffs.push(`${where}: expected ${JSON.stringify(e ?? null)}, actual ${JSON.stringify(a ?? null)}`);
    return;
  }
  if (e.plugin !== a.plugin) diffs.push(`${where}.plugin: expected ${e.plugin}, actual ${a.plugin}`);
  if (e.code !== a.code && !isKnownUpstreamChange(e, a)) diffs.push(`${where}.code: expected ${e.code}, actual ${a.code}`);
  if (!sameSet(e.reasons, a.reasons)) diffs.push(`${where}.reasons: expected ${JSON.stringify(sortedSet(e.reasons))}, actual ${JSON.stringify(sortedSet(a.reasons))}`);
}

function pluginsScored(scores: Scores): Set<string> {
  const s = new Set<string>();
  for (const row of Object.values(scores)) for (const p of Object.keys(row)) if (p !== 'total') s.add(p);
  return s;
}

function dropPlugins(scores: Scores, plugins: ReadonlyMap<string, string>): Scores {
  const out: Scores = {};
  for (const [node, row] of Object.entries(scores ?? {})) {
    const r: Record<string, number> = {};
    let total = 0;
    for (const [p, v] of Object.entries(row)) {
      if (p === 'total' || plugins.has(p)) continue;
      r[p] = v;
      total += v;
    }
    r.total = total;
    out[node] = r;
  }
  return out;
}

function compareScores(e: Scores, a: Scores, diffs: string[]): void {
  let ignoreE = new Set<string>();
  let ignoreA = new Set<string>();
  if (Object.keys(e).length > 0 && Object.keys(a).length > 0) {
    const pe = pluginsScored(e);
    const pa = pluginsScored(a);
    ignoreE = new Set([...pe].filter((p) => !pa.has(p)));
    ignoreA = new Set([...pa].filter((p) => !pe.has(p)));
  }
  for (const node of sortedSet([...Object.keys(e), ...Object.keys(a)])) {
    const en = e[node];
    const an = a[node];
    if (!an || !en) {
      diffs.push(`scores[${node}]: expected ${JSON.stringify(en ?? 'not scored')}, actual ${JSON.stringify(an ?? 'not scored')}`);
      continue;
    }
    for (const p of sortedSet([...Object.keys(en), ...Object.keys(an)])) {
      if (p === 'total' || ignoreE.has(p) || ignoreA.has(p)) continue;
      if (en[p] !== an[p]) diffs.push(`scores[${node}].${p}: expected ${en[p]}, actual ${an[p]}`);
    }
    let et = en.total ?? 0;
    let at = an.total ?? 0;
    for (const p of ignoreE) et -= en[p] ?? 0;
    for (const p of ignoreA) at -= an[p] ?? 0;
    if (et !== at) diffs.push(`scores[${node}].total: expected ${en.total}, actual ${an.total}`);
  }
}

/**
 * Score plugins whose v1.26 scores current upstream computes differently for this pod, each with
 * the upstream change that explains it.
 */
export function knownScoreChanges(pod: Pod, e: ExplainPod, a: ExplainPod): Map<string, string> {
  const out = new Map<string, string>();
  const overheadCPU = pod.spec.overhead?.cpu;
  if (overheadCPU !== undefined && overheadCPU !== 0 && overheadCPU !== '0') {
    // v1.26's resource_allocation.go added the cpu overhead as Value() (whole units) instead of
    // MilliValue(); current upstream computes requests with resourcehelper.PodRequests.
    const why = 'v1.26 counted cpu overhead as Value() when scoring; current upstream uses PodRequests (millicores)';
    out.set('NodeResourcesFit', why);
    out.set('NodeResourcesBalancedAllocation', why);
  }
  const ba = 'NodeResourcesBalancedAllocation';
  const ours = pluginsScored(a.scores ?? {});
  if (!ours.has(ba) && Object.keys(a.scores ?? {}).length > 0) {
    const values = new Set(Object.values(e.scores ?? {}).map((row) => row[ba]));
    // v1.33+: BalancedAllocation's PreScore skips pods that request none of its resources
    // (kubernetes#129138); v1.26 scored them, unevenly.
    if (values.size > 1) out.set(ba, 'v1.33+ BalancedAllocation skips pods requesting none of its resources (kubernetes#129138)');
  }
  return out;
}

const notHelpful = 'Preemption is not helpful for scheduling';

function reasonCounts(summary: string): Map<string, number> {
  const out = new Map<string, number>();
  const m = /^0\/\d+ nodes are available: (.*)\.$/.exec(summary);
  if (!m) return out;
  for (const part of m[1]!.split(', ')) {
    const sp = part.indexOf(' ');
    out.set(part.slice(sp + 1), Number(part.slice(0, sp)));
  }
  return out;
}

/**
 * With the v1.31+ NodeResourcesFit code change, nodes where a request exceeds the whole
 * allocatable are "not helpful" for preemption instead of dry-run candidates. The preemption
 * part of the message may then move up to that many nodes into "not helpful".
 */
function preemptionMessageExplained(e: ExplainPod, a: ExplainPod): boolean {
  const sep = ' preemption: ';
  const ei = e.message.indexOf(sep);
  const ai = a.message.indexOf(sep);
  if (ei < 0 || ai < 0 || e.message.slice(0, ei) !== a.message.slice(0, ai)) return false;
  let changedNodes = 0;
  for (const [node, es] of Object.entries(e.filter ?? {})) {
    const as = a.filter?.[node];
    if (as && isKnownUpstreamChange(es, as)) changedNodes++;
  }
  const ec = reasonCounts(e.message.slice(ei + sep.length, -1));
  const ac = reasonCounts(a.message.slice(ai + sep.length, -1));
  for (const [reason, n] of ac) if (reason !== notHelpful && n > (ec.get(reason) ?? 0)) return false;
  const rise = (ac.get(notHelpful) ?? 0) - (ec.get(notHelpful) ?? 0);
  return rise > 0 && rise <= changedNodes;
}

/** The differences between an expected and an actual pod; empty when they match. */
export function comparePod(e: ExplainPod, a: ExplainPod | undefined, known: ReadonlyMap<string, string> = new Map()): string[] {
  if (!a) return ['missing in actual output'];
  const diffs: string[] = [];
  if (known.size > 0) {
    // A known upstream change in a score plugin changes totals and the top nodes too: compare
    // the verdicts and the other plugins' scores only.
    e = { ...e, scores: dropPlugins(e.scores, known), bestNodes: a.bestNodes, node: a.node };
    a = { ...a, scores: dropPlugins(a.scores, known) };
  }
  for (const f of ['outcome', 'node', 'message', 'nominatedNode'] as const) {
    if ((e[f] ?? '') === (a[f] ?? '')) continue;
    if (f === 'message' && preemptionMessageExplained(e, a)) continue;
    diffs.push(`${f}: expected ${JSON.stringify(e[f])}, actual ${JSON.stringify(a[f])}`);
  }
  compareStatus('preFilter', e.preFilter, a.preFilter, diffs);
  const ef = e.filter ?? {};
  const af = a.filter ?? {};
  for (const node of sortedSet([...Object.keys(ef), ...Object.keys(af)])) {
    if (!(node in af)) diffs.push(`filter[${node}]: expected ${JSON.stringify(ef[node])}, actual passes`);
    else if (!(node in ef)) diffs.push(`filter[${node}]: expected passes, actual ${JSON.stringify(af[node])}`);
    else compareStatus(`filter[${node}]`, ef[node], af[node], diffs);
  }
  compareScores(e.scores ?? {}, a.scores ?? {}, diffs);
  if (!sameSet(e.bestNodes, a.bestNodes)) diffs.push(`bestNodes: expected ${JSON.stringify(sortedSet(e.bestNodes))}, actual ${JSON.stringify(sortedSet(a.bestNodes))}`);
  if (!sameSet(e.victims, a.victims)) diffs.push(`victims: expected ${JSON.stringify(sortedSet(e.victims))}, actual ${JSON.stringify(sortedSet(a.victims))}`);
  return diffs;
}
