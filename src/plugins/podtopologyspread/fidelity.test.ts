// Replays the public fidelity corpus (upstream kube-scheduler's own decisions, recorded with v1.26)
// through PodTopologySpread: every pod is placed where upstream placed it, and our Filter verdicts
// (code and reason) and weighted scores must equal upstream's.
//
// v1.26 has no PreScore Skip: where we skip, upstream's score must be the same on every node.
// No scenario uses matchLabelKeys (ignored by v1.26) or two constraints sharing a topology key
// (v1.26 merged their counts), the two places where v1.34 decides differently.
import { defaultFeatures } from '../../framework/features.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject, Node, Pod } from '../../api/types.js';
import { Snapshot } from '../../cache/snapshot.js';
import { CycleState } from '../../framework/cycle_state.js';
import type { NodeScore } from '../../framework/interfaces.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code, codeName } from '../../framework/status.js';
import { corpusDir, corpusFamily, corpusFiles, corpusScenario } from '../../testing/fidelity_corpus.js';
import { newTestHandle } from '../../testing/handle.js';
import { podTopologySpreadDefinition } from './index.js';
import type { PodTopologySpread } from './plugin.js';

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
interface PluginRef {
  name: string;
  weight?: number;
}
interface Scenario {
  config?: {
    profiles?: {
      pluginConfig?: { name: string; args?: Record<string, unknown> }[];
      plugins?: { score?: { enabled?: PluginRef[] }; multiPoint?: { enabled?: PluginRef[] } };
    }[];
  };
  nodes: Node[];
  pods?: Pod[];
  pending?: Pod[];
  objects?: KubeObject[];
}

/** Plugins that run after PodTopologySpread in the default Filter order. */
const laterFilters = new Set(['InterPodAffinity']);

function replay(file: string, sc: Scenario): string[] {
  const expected = (JSON.parse(readFileSync(join(corpusDir!, file.replace(/\.yaml$/, '.expected.json')), 'utf8')) as { pods: ExpectedPod[] }).pods;
  const profile = sc.config?.profiles?.[0];
  let weight = 2;
  for (const ref of [...(profile?.plugins?.multiPoint?.enabled ?? []), ...(profile?.plugins?.score?.enabled ?? [])]) {
    if (ref.name === 'PodTopologySpread' && ref.weight) weight = ref.weight;
  }
  const args = podTopologySpreadDefinition.defaultArgs!(profile?.pluginConfig?.find((p) => p.name === 'PodTopologySpread')?.args ?? {});
  assert.deepEqual(podTopologySpreadDefinition.validateArgs!(args, 'args'), []);

  const diffs: string[] = [];
  const placed = [...(sc.pods ?? [])];
  (sc.pending ?? []).forEach((raw, i) => {
    const exp = expected[i]!;
    const pod = new PodInfo(raw);
    assert.equal(pod.key, exp.pod, `${file}: pods out of order`);
    const snapshot = Snapshot.fromObjects(placed, sc.nodes);
    const plugin = podTopologySpreadDefinition.factory(args, newTestHandle({ snapshot, objects: sc.objects ?? [] }), defaultFeatures) as PodTopologySpread;

    const state = new CycleState();
    const pre = plugin.preFilter(state, pod, snapshot.list());
    const skipped = pre?.status?.code === Code.Skip;
    if (pre && !skipped) diffs.push(`${exp.pod}: PreFilter ${pre.status?.message()}`);
    for (const ni of snapshot.list()) {
      const want = exp.filter?.[ni.name];
      const got = skipped ? null : plugin.filter(state, pod, ni);
      if (!want || laterFilters.has(want.plugin)) {
        if (got) diffs.push(`${exp.pod} on ${ni.name}: want pass, got ${got.message()}`);
      } else if (want.plugin === 'PodTopologySpread') {
        const gotText = got ? `${codeName(got.code)} ${got.message()}` : 'pass';
        if (gotText !== `${want.code} ${want.reasons.join(', ')}`) diffs.push(`${exp.pod} on ${ni.name}: want ${want.code} ${want.reasons.join(', ')}, got ${gotText}`);
      }
    }

    const scored = Object.keys(exp.scores ?? {});
    if (scored.length > 1) {
      const nodes = scored.map((n) => snapshot.get(n)!);
      const scoreState = new CycleState();
      const s = plugin.preScore(scoreState, pod, nodes);
      if (s?.code === Code.Skip) {
        const values = new Set(scored.map((n) => exp.scores![n]!.PodTopologySpread));
        if (values.size > 1) diffs.push(`${exp.pod}: PreScore skipped, but upstream scored ${[...values].join('/')}`);
      } else if (s) {
        diffs.push(`${exp.pod}: PreScore ${s.message()}`);
      } else {
        const list: NodeScore[] = nodes.map((ni) => ({ name: ni.name, score: plugin.score(scoreState, pod, ni) as number }));
        plugin.normalizeScore(scoreState, pod, list);
        for (const ns of list) {
          const want = exp.scores![ns.name]!.PodTopologySpread;
          if (ns.score * weight !== want) diffs.push(`${exp.pod} on ${ns.name}: score want ${want}, got ${ns.score * weight}`);
        }
      }
    }
    if (exp.outcome === 'Scheduled') placed.push({ ...raw, spec: { ...raw.spec, nodeName: exp.node } });
  });
  return diffs;
}

describe('fidelity corpus: PodTopologySpread', { skip: corpusDir ? false : 'no scenario corpus found' }, () => {
  for (const file of corpusFiles()) {
    // Preemption scenarios remove victims and nominate pods, which needs the whole scheduler.
    if (corpusFamily(file) === 'preemption') continue;
    it(file, () => assert.deepEqual(replay(file, corpusScenario(file) as Scenario).slice(0, 10), []));
  }
});
