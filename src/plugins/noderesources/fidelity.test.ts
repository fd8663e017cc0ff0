// Replays the public fidelity corpus through NodeResourcesFit and NodeResourcesBalancedAllocation:
// every pod is placed where the pinned upstream release placed it (its decisions recorded by the
// differential harness in test/fixtures/scenarios/NNN.expected.json), and our Fit verdicts (reasons
// and codes) and both plugins' weighted scores must equal upstream's. The embedded API server's
// defaulting (requests from limits) is applied, as it is when a scenario is loaded.
import { defaultFeatures } from '../../framework/features.js';
import { newTestHandle } from '../../testing/handle.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Pod } from '../../api/types.js';
import { Snapshot } from '../../cache/snapshot.js';
import { defaultPod } from '../../cluster/memory/defaults.js';
import { CycleState } from '../../framework/cycle_state.js';
import { PodInfo } from '../../framework/pod_info.js';
import { codeName } from '../../framework/status.js';
import { corpusDir, corpusFamily, corpusFiles, corpusScenario } from '../../../test/fidelity_corpus.js';
import { BalancedAllocation } from './balanced_allocation.js';
import type { Fit } from './fit.js';
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

/** The pinned release's decisions for the corpus (`npm run test:upstream -- --record`). */
const recordedDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures', 'scenarios');

function replay(file: string, sc: Scenario): string[] {
  const expected = (JSON.parse(readFileSync(join(recordedDir, file.replace(/\.yaml$/, '.expected.json')), 'utf8')) as { pods: ExpectedPod[] }).pods;
  const profile = sc.config?.profiles?.[0];
  const argsOf = (name: string) => profile?.pluginConfig?.find((p) => p.name === name)?.args ?? {};
  const weights: Record<string, number> = { NodeResourcesFit: 1, NodeResourcesBalancedAllocation: 1 };
  for (const ref of [...(profile?.plugins?.multiPoint?.enabled ?? []), ...(profile?.plugins?.score?.enabled ?? [])]) {
    if (ref.weight) weights[ref.name] = ref.weight;
  }
  const fit = nodeResourcesFitDefinition.factory(nodeResourcesFitDefinition.defaultArgs!(argsOf('NodeResourcesFit')), newTestHandle(), defaultFeatures) as Fit;
  const ba = balancedAllocationDefinition.factory(
    balancedAllocationDefinition.defaultArgs!(argsOf('NodeResourcesBalancedAllocation')),
    newTestHandle(),
    defaultFeatures,
  ) as BalancedAllocation;

  const diffs: string[] = [];
  const placed = (sc.pods ?? []).map((p) => defaultPod(p, []));
  const pending = (sc.pending ?? []).map((p) => defaultPod(p, []));
  // One snapshot for the whole replay: each pod upstream placed is added to its node's NodeInfo.
  const snapshot = Snapshot.fromObjects(placed, sc.nodes);
  pending.forEach((raw, i) => {
    const exp = expected[i]!;
    const pod = new PodInfo(raw);
    assert.equal(pod.key, exp.pod, `${file}: pods out of order`);
    const state = new CycleState();
    fit.preFilter(state, pod);
    for (const ni of snapshot.list()) {
      // NodeName's PreFilter keeps a pod that names a node from being filtered anywhere else.
      if (raw.spec.nodeName && ni.name !== raw.spec.nodeName) continue;
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
      if (codeName(got.code) !== want.code) diffs.push(`${exp.pod} on ${ni.name}: want ${want.code}, got ${codeName(got.code)}`);
    }

    const scored = Object.keys(exp.scores ?? {});
    if (scored.length > 0) {
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
    if (exp.outcome === 'Scheduled') {
      const host = snapshot.get(exp.node!);
      assert.ok(host, `${file}: ${exp.pod} placed on unknown node ${exp.node}`);
      host.addPod(new PodInfo({ ...raw, spec: { ...raw.spec, nodeName: exp.node } }));
    }
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
