// Replays the preemption family of the public fidelity corpus (upstream kube-scheduler's own
// decisions, recorded with v1.26) through `explain` and compares what preemption decides: the
// FitError message with its "preemption: ..." part, the nominated node, the victims, and where
// later pods land once the victims are gone.
//
// v1.31+ NodeResourcesFit reports UnschedulableAndUnresolvable when a request exceeds a node's
// whole allocatable, and preemption skips such nodes ("Preemption is not helpful for scheduling");
// v1.26 said Unschedulable and dry-ran them. To compare preemption itself with the recording,
// NodeResourcesFit's verdicts are given v1.26's code here (the reasons are unchanged).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { configFromObject, defaultConfiguration } from '../../config/index.js';
import { admitPod } from '../../cluster/memory/admission.js';
import type { CycleState } from '../../framework/cycle_state.js';
import type { FilterPlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Registry, type AnyPluginDefinition } from '../../framework/registry.js';
import { Code, Status } from '../../framework/status.js';
import { runExplain, type ExplainPod } from '../../sim/explain.js';
import { corpusDir, corpusFamily, corpusFiles, corpusPath, corpusScenario } from '../../testing/fidelity_corpus.js';
import { nodeResourcesFitDefinition } from '../noderesources/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../registry.js';
import { defaultPreemptionDefinition } from './index.js';

/** NodeResourcesFit with v1.26's rejection code (Unschedulable even when a request exceeds allocatable). */
const fitWithV126Codes: AnyPluginDefinition = {
  ...nodeResourcesFitDefinition,
  factory: (args, handle) => {
    const fit = nodeResourcesFitDefinition.factory(args, handle) as FilterPlugin;
    const wrapped = Object.create(fit) as FilterPlugin;
    wrapped.filter = (state: CycleState, pod: PodInfo, nodeInfo: NodeInfo) => {
      const s = fit.filter(state, pod, nodeInfo);
      return s !== null && s.code === Code.UnschedulableAndUnresolvable ? new Status(Code.Unschedulable, s.reasons) : s;
    };
    return wrapped;
  },
};

function registry(): Registry {
  const base = inTreeRegistry();
  const replaced = new Set([nodeResourcesFitDefinition.name, defaultPreemptionDefinition.name]);
  const defs = base.names().filter((n) => !replaced.has(n)).map((n) => base.get(n)!);
  return new Registry([...defs, fitWithV126Codes, defaultPreemptionDefinition]);
}

const sorted = (a: readonly string[] | undefined) => [...(a ?? [])].sort();

function differences(e: ExplainPod, a: ExplainPod | undefined): string[] {
  if (!a) return ['missing'];
  const diffs: string[] = [];
  for (const f of ['outcome', 'node', 'message', 'nominatedNode'] as const) {
    if ((e[f] ?? '') !== (a[f] ?? '')) diffs.push(`${f}: expected ${JSON.stringify(e[f])}, actual ${JSON.stringify(a[f])}`);
  }
  if (JSON.stringify(sorted(e.victims)) !== JSON.stringify(sorted(a.victims))) {
    diffs.push(`victims: expected ${JSON.stringify(sorted(e.victims))}, actual ${JSON.stringify(sorted(a.victims))}`);
  }
  return diffs;
}

describe('preemption fidelity (upstream decisions of the public corpus)', { skip: corpusDir ? false : 'no corpus' }, () => {
  for (const file of corpusFiles()) {
    if (corpusFamily(file) !== 'preemption') continue;
    const path = corpusPath(file);
    it(file, async () => {
      const scenario = corpusScenario(file);
      const expected = JSON.parse(readFileSync(path.replace(/\.yaml$/, '.expected.json'), 'utf8')) as { pods: ExplainPod[] };
      const reg = registry();
      const config = scenario.config ? configFromObject(scenario.config, file, reg) : defaultConfiguration(reg);
      const actual = await runExplain(scenario, { config, registry: reg, notYetAvailable: notYetAvailablePlugins, tieBreakByName: true, admitPod });
      const failures: string[] = [];
      for (const e of expected.pods) {
        const diffs = differences(e, actual.pods.find((p) => p.pod === e.pod));
        if (diffs.length > 0) failures.push(`${e.pod}: ${diffs.join('; ')}`);
      }
      assert.deepEqual(failures, []);
    });
  }
});
