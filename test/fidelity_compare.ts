// Compares an `explain` answer with upstream's, field by field: reasons, victims and top nodes as
// sets (their order carries no meaning), everything else exactly. Where ours knowingly differs
// from the pinned release, test/upstream/known_differences.ts says so; nothing is excused here.
import type { ExplainPod, ExplainStatus } from '../src/sim/explain/explain.js';

type Scores = Record<string, Record<string, number>>;

const sortedSet = (a: readonly string[] | undefined) => [...new Set(a ?? [])].sort();
const sameSet = (a: readonly string[] | undefined, b: readonly string[] | undefined) => {
  const x = sortedSet(a);
  const y = sortedSet(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

function compareStatus(where: string, e: ExplainStatus | null | undefined, a: ExplainStatus | null | undefined, diffs: string[]): void {
  if (!e || !a) {
    if (!!e !== !!a) diffs.push(`${where}: expected ${JSON.stringify(e ?? null)}, actual ${JSON.stringify(a ?? null)}`);
    return;
  }
  if (e.plugin !== a.plugin) diffs.push(`${where}.plugin: expected ${e.plugin}, actual ${a.plugin}`);
  if (e.code !== a.code) diffs.push(`${where}.code: expected ${e.code}, actual ${a.code}`);
  if (!sameSet(e.reasons, a.reasons)) diffs.push(`${where}.reasons: expected ${JSON.stringify(sortedSet(e.reasons))}, actual ${JSON.stringify(sortedSet(a.reasons))}`);
}

function compareScores(e: Scores, a: Scores, diffs: string[]): void {
  for (const node of sortedSet([...Object.keys(e), ...Object.keys(a)])) {
    const en = e[node];
    const an = a[node];
    if (!an || !en) {
      diffs.push(`scores[${node}]: expected ${JSON.stringify(en ?? 'not scored')}, actual ${JSON.stringify(an ?? 'not scored')}`);
      continue;
    }
    for (const p of sortedSet([...Object.keys(en), ...Object.keys(an)])) {
      if (en[p] !== an[p]) diffs.push(`scores[${node}].${p}: expected ${en[p] ?? 'none'}, actual ${an[p] ?? 'none'}`);
    }
  }
}

/** The differences between an expected and an actual pod; empty when they match. */
export function comparePod(e: ExplainPod, a: ExplainPod | undefined): string[] {
  if (!a) return ['missing in actual output'];
  const diffs: string[] = [];
  for (const f of ['outcome', 'node', 'message', 'nominatedNode'] as const) {
    if ((e[f] ?? '') !== (a[f] ?? '')) diffs.push(`${f}: expected ${JSON.stringify(e[f])}, actual ${JSON.stringify(a[f])}`);
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
