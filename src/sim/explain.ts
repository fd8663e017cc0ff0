// `explain`: schedules each pending pod once, in order, and reports per node why it was
// rejected or how it scored (the schema in scenarios/README.md).
import type { Pod } from '../api/types.js';
import { codeName } from '../framework/status.js';
import type { AttemptRecord } from '../scheduler/scheduler.js';
import { createEmbedded, type EmbeddedOptions } from './embedded.js';
import type { Scenario } from './scenario.js';

export interface ExplainStatus {
  plugin: string;
  code: string;
  reasons: string[];
}

export interface ExplainPod {
  pod: string;
  outcome: 'Scheduled' | 'Unschedulable' | 'Error';
  node: string;
  message: string;
  filter: Record<string, ExplainStatus>;
  preFilter: ExplainStatus | null;
  scores: Record<string, Record<string, number>>;
  bestNodes: string[];
  nominatedNode: string;
  victims: string[];
}

function explainAttempt(a: AttemptRecord): ExplainPod {
  const filter: Record<string, ExplainStatus> = {};
  let preFilter: ExplainStatus | null = null;
  const d = a.diagnosis;
  if (d) {
    for (const [node, s] of d.nodeToStatus.entries()) filter[node] = { plugin: s.plugin, code: codeName(s.code), reasons: [...s.reasons] };
    if (d.preFilterStatus) preFilter = { plugin: d.preFilterStatus.plugin, code: codeName(d.preFilterStatus.code), reasons: [...d.preFilterStatus.reasons] };
  }
  const scores: Record<string, Record<string, number>> = {};
  for (const ns of a.result?.scores ?? []) {
    const row: Record<string, number> = {};
    for (const ps of ns.scores) row[ps.name] = ps.score;
    row.total = ns.totalScore;
    scores[ns.name] = row;
  }
  return {
    pod: `${a.pod.metadata.namespace ?? 'default'}/${a.pod.metadata.name ?? ''}`,
    outcome: a.outcome,
    node: a.node,
    message: a.message,
    filter,
    preFilter,
    scores: a.result && a.result.scores.length > 1 ? scores : {},
    bestNodes: a.result?.bestNodes ?? [],
    nominatedNode: a.nominatedNode,
    victims: [...a.victims].sort(),
  };
}

export async function runExplain(sc: Scenario, o: Omit<EmbeddedOptions, 'onAttempt'>): Promise<{ pods: ExplainPod[] }> {
  let last: AttemptRecord | null = null;
  const env = await createEmbedded(sc, { ...o, recordScores: true, onAttempt: (a) => (last = a) });
  const out: ExplainPod[] = [];
  for (const pending of sc.pending) {
    // The pod enters the cluster unbound; a nodeName it carries is what NodeName filters on.
    const { nodeName, ...spec } = pending.spec ?? { containers: [] };
    const created = env.cluster.create<Pod>({ ...pending, kind: 'Pod', spec: spec as Pod['spec'] });
    const attemptPod: Pod = nodeName ? { ...created, spec: { ...created.spec, nodeName } } : created;
    last = null;
    await env.scheduler.attemptOnce(attemptPod);
    if (last) out.push(explainAttempt(last));
  }
  env.scheduler.stop();
  return { pods: out };
}
