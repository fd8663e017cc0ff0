// Replays the public fidelity corpus (upstream kube-scheduler's own decisions) through
// NodeResourcesFit and NodeResourcesBalancedAllocation: every pod is placed where upstream placed
// it, and our Fit verdicts and both plugins' weighted scores must equal upstream's.
//
// The corpus was recorded with v1.26 through a real kube-apiserver; three things differ by design:
// - the apiserver defaults missing container requests from limits: the embedded API server's
//   defaulting is applied here, as it is when the scenario is loaded;
// - v1.26 counted a pod's cpu overhead in scoring with Value() instead of MilliValue() (fixed
//   upstream later), so scores of pods with overhead are not compared;
// - v1.26 reported every Fit rejection as Unschedulable, v1.34 uses UnschedulableAndUnresolvable
//   when a request exceeds the node's whole allocatable: codes are checked against that rule.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pod } from '../../api/types.js';
import { Snapshot } from '../../cache/snapshot.js';
import { defaultPod } from '../../cluster/memory/defaults.js';
import { CycleState } from '../../framework/cycle_state.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code, codeName } from '../../framework/status.js';
import { corpusDir, corpusFamily, corpusFiles, corpusScenario } from '../../testing/fidelity_corpus.js';
import { BalancedAllocation } from './balanced_allocation.js';
import { Fit, fitsRequest } from './fit.js';
import { balancedAllocationDefinition, nodeResourcesFitDefinition } from './index.js';

interface ExpectedStatus {
  plugin: string;
  code: string;
  reasons: string[];
}
interface ExpectedPod {
  pod: string;
  outcome: string;
  node?: string;
  filter?: Record<string, ExpectedStatus>;
  scores?: Record<string, Record<string, number>>;
}
interface PluginSet {
  name: string;
  args?: Record<string, unknown>;
}
interface PluginRef {
  name: string;
  weight?: number;
}
interface Scenario {
  config?: {
    profiles?: {
      pluginConfig?: PluginSet[];
      plugins?: { score?: { enabled?: PluginRef[] }; multiPoint?: { enabled?: PluginRef[] } };
    }[];
  };
  nodes: import('../../api/types.js').Node[];
  pods?: Pod[];
  pending?: Pod[];
}

function replay(file: string, sc: Scenario): string[] {
  const expected = (JSON.parse(readFileSync(join(corpusDir!, file.replace(/\.yaml$/, '.expected.json')), 'utf8')) as { pods: ExpectedPod[] }).pods;
  const profile = sc.config?.profiles?.[0];
  const argsOf = (name: string) => profile?.pluginConfig?.find((p) => p.name === name)?.args ?? {};
  const weights: Record<string, number> = { NodeResourcesFit: 1, NodeResourcesBalancedAllocation: 1 };
  for (const ref of [...(profile?.plugins?.multiPoint?.enabled ?? []), ...(profile?.plugins?.score?.enabled ?? [])]) {
    if (ref.weight) weights[ref.name] = ref.weight;
  }
  const fit = nodeResourcesFitDefinition.factory(nodeResourcesFitDefinition.defaultArgs!(argsOf('NodeResourcesFit')), undefined as never) as Fit;
  const ba = balancedAllocationDefinition.factory(
    balancedAllocationDefinition.defaultArgs!(argsOf('NodeResourcesBalancedAllocation')),
    undefined as never,
  ) as BalancedAllocation;

  const diffs: string[] = [];
  const placed = (sc.pods ?? []).map((p) => defaultPod(p, []));
  const pending = (sc.pending ?? []).map((p) => defaultPod(p, []));
  pending.forEach((raw, i) => {
    const exp = expected[i]!;
    const pod = new PodInfo(raw);
    assert.equal(pod.key, exp.pod, `${file}: pods out of order`);
    const snapshot = Snapshot.fromObjects(placed, sc.nodes);
    const state = new CycleState();
    fit.preFilter(state, pod);
    for (const ni of snapshot.list()) {
      const want = exp.filter?.[ni.name];
      const got = fit.filter(state, pod, ni);
      if (!want) {
        if (got) diffs.push(`${exp.pod} on ${ni.name}: want pass, got ${got.message()}`);
        continue;
      }
      // A node rejected by an earlier plugin never reaches NodeResourcesFit.
      if (want.plugin !== 'NodeResourcesFit') continue;
      if (!got) {
        diffs.push(`${exp.pod} on ${ni.name}: want ${want.reasons.join(', ')}, got pass`);
        continue;
      }
      if ([...got.reasons].sort().join('|') !== [...want.reasons].sort().join('|')) {
        diffs.push(`${exp.pod} on ${ni.name}: want ${want.reasons.join(', ')}, got ${got.message()}`);
      }
      const unresolvable = fitsRequest(pod.requests.resource, ni).some((r) => r.unresolvable);
      const wantCode = unresolvable ? Code.UnschedulableAndUnresolvable : Code.Unschedulable;
      if (got.code !== wantCode) diffs.push(`${exp.pod} on ${ni.name}: want ${codeName(wantCode)}, got ${codeName(got.code)}`);
    }

    const scored = Object.keys(exp.scores ?? {});
    if (scored.length > 0 && !raw.spec.overhead) {
      const nodes = scored.map((n) => snapshot.get(n)!);
      const scoreState = new CycleState();
      fit.preScore(scoreState, pod);
      const baSkipped = ba.preScore(scoreState, pod) !== null;
      for (const ni of nodes) {
        const want = exp.scores![ni.name]!;
        const fitScore = (fit.score(scoreState, pod, ni) as number) * weights.NodeResourcesFit!;
        if (fitScore !== want.NodeResourcesFit) diffs.push(`${exp.pod} on ${ni.name}: NodeResourcesFit want ${want.NodeResourcesFit}, got ${fitScore}`);
        if (baSkipped || want.NodeResourcesBalancedAllocation === undefined) continue;
        const baScore = (ba.score(scoreState, pod, ni) as number) * weights.NodeResourcesBalancedAllocation!;
        if (baScore !== want.NodeResourcesBalancedAllocation) {
          diffs.push(`${exp.pod} on ${ni.name}: NodeResourcesBalancedAllocation want ${want.NodeResourcesBalancedAllocation}, got ${baScore}`);
        }
      }
    }
    if (exp.outcome === 'Scheduled') placed.push({ ...raw, spec: { ...raw.spec, nodeName: exp.node } });
  });
  return diffs;
}

describe('fidelity corpus: NodeResourcesFit and NodeResourcesBalancedAllocation', { skip: corpusDir ? false : 'no scenario corpus found' }, () => {
  for (const file of corpusFiles()) {
    // Preemption scenarios remove victims and nominate pods, which needs the whole scheduler.
    if (corpusFamily(file) === 'preemption') continue;
    it(file, () => assert.deepEqual(replay(file, corpusScenario(file) as Scenario).slice(0, 10), []));
  }
});
