// Where our scheduler still decides differently from the pinned upstream release (v1.37.2), each
// with the upstream change behind it and the code of ours that has to follow. A disagreement one
// of these explains is reported as known, not as a failure; fixing ours removes the entry.
import { Selector } from '../../src/api/labels.js';
import type { KubeObject, LabelSelector, Pod } from '../../src/api/types.js';
import type { ExplainPod } from '../../src/sim/explain.js';
import type { Scenario } from '../../src/sim/scenario.js';

export interface KnownDifference {
  id: string;
  /** The upstream change, and where ours has to follow it. */
  why: string;
  /**
   * Upstream's answer rewritten as upstream would have given it without this change, when the
   * change can explain (part of) the disagreement; else null.
   */
  undo(upstream: ExplainPod, ours: ExplainPod, scenario: Scenario): ExplainPod | null;
}

const placementPrefix = ' preemption: found a potential placement for pod on node ';

interface PDB extends KubeObject {
  spec?: { selector?: LabelSelector | null };
}

/** The pods on `nodes` that more than one PodDisruptionBudget of their namespace selects. */
function podsUnderSeveralBudgets(scenario: Scenario, nodes: ReadonlySet<string>): Pod[] {
  const pdbs = scenario.objects.filter((o): o is PDB => o.kind === 'PodDisruptionBudget');
  return (scenario.pods as Pod[]).filter((p) => {
    if (!nodes.has(p.spec.nodeName ?? '')) return false;
    const ns = p.metadata.namespace ?? 'default';
    let n = 0;
    for (const pdb of pdbs) {
      if ((pdb.metadata?.namespace ?? 'default') !== ns) continue;
      const sel = Selector.compile(pdb.spec?.selector);
      if (!sel.isEverything && sel.matches(p.metadata.labels)) n++;
    }
    return n > 1;
  });
}

interface PreemptionArgs {
  minCandidateNodesPercentage?: number;
  minCandidateNodesAbsolute?: number;
}

/** True when DefaultPreemption's args let its dry run stop before it has looked at every node. */
function samplesCandidates(scenario: Scenario): boolean {
  const profiles = (scenario.config?.profiles ?? []) as { pluginConfig?: { name: string; args?: PreemptionArgs }[] }[];
  const args = profiles.flatMap((p) => p.pluginConfig ?? []).find((c) => c.name === 'DefaultPreemption')?.args;
  const nodes = scenario.nodes.length;
  const wanted = Math.max(Math.trunc((nodes * (args?.minCandidateNodesPercentage ?? 10)) / 100), args?.minCandidateNodesAbsolute ?? 100);
  return wanted < nodes;
}

export const knownDifferences: readonly KnownDifference[] = [
  {
    id: 'preemption-success-message',
    why: 'since v1.37 a successful preemption leaves its PostFilter message in the FitError: "... preemption: found a potential placement for pod on node N, preempting K victims" (DefaultPreemption.PostFilter / Evaluator.Preempt); ours returns Success without a message (plugins/defaultpreemption)',
    undo(upstream, ours) {
      const at = upstream.message.indexOf(placementPrefix);
      if (at < 0 || ours.message.includes(placementPrefix)) return null;
      return { ...upstream, message: upstream.message.slice(0, at) };
    },
  },
  {
    id: 'postfilter-message-period',
    why: 'FitError.Error appends the PostFilter message without a trailing period (so already in v1.34; v1.26 added one) ("... preemption: not eligible due to preemptionPolicy=Never."); ours still adds one, ending in two periods (framework/fit_error.ts; its tests in plugins/defaultpreemption and test/cli.test.ts expect the old form)',
    undo(upstream, ours) {
      if (!upstream.message.includes(' preemption: ') || ours.message !== `${upstream.message}.`) return null;
      return { ...upstream, message: ours.message };
    },
  },
  {
    id: 'pdb-first-violation',
    why: 'since v1.36 preemption.FilterVictimsWithPDBViolation stops at the first violated PodDisruptionBudget of a victim and leaves its later budgets untouched (the harness lists budgets by namespace/name; upstream\'s informer order is random); ours counts the victim against every budget that selects it, as v1.26 did (plugins/defaultpreemption)',
    undo(upstream, ours, scenario) {
      if (ours.nominatedNode === '' || upstream.nominatedNode === '') return null;
      if (podsUnderSeveralBudgets(scenario, new Set([ours.nominatedNode, upstream.nominatedNode])).length === 0) return null;
      return { ...upstream, nominatedNode: ours.nominatedNode, victims: ours.victims };
    },
  },
  {
    id: 'sampled-preemption-candidates',
    why: 'not a difference of ours: when DefaultPreemption\'s minCandidateNodesPercentage/Absolute ask for fewer candidates than there are nodes, upstream\'s dry run starts at a random node (rand.Int31n) and stops once it has enough, so its nominated node and victims vary from run to run; any of them is upstream\'s answer',
    undo(upstream, ours, scenario) {
      if (ours.nominatedNode === '' || upstream.nominatedNode === '' || !samplesCandidates(scenario)) return null;
      return { ...upstream, nominatedNode: ours.nominatedNode, victims: ours.victims };
    },
  },
];
