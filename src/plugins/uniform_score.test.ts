// The in-tree plugins' uniformScore never disagrees with what Score and NormalizeScore give: when
// a plugin names one score for a pod over a set of nodes, every node's normalized score is that
// score. Checked over small generated clusters with and without images, taints, volumes and claims.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../api/types.js';
import { defaultConfiguration } from '../config/index.js';
import { CycleState } from '../framework/cycle_state.js';
import type { PluginScoreColumn } from '../framework/runtime/framework.js';
import { PodInfo } from '../framework/pod_info.js';
import { Code } from '../framework/status.js';
import { createEmbedded } from '../sim/scenario/embedded.js';
import type { Scenario } from '../sim/scenario/scenario.js';
import { seededRandom } from '../util/clock.js';
import { inTreeRegistry, notYetAvailablePlugins } from './registry.js';

const registry = inTreeRegistry();
const opts = { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, seed: 3 };

function node(i: number, random: () => number, variant: { images: boolean; taints: boolean }): Node {
  const n: Node = {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name: `n${i}`, labels: { 'kubernetes.io/hostname': `n${i}` } },
    status: { allocatable: { cpu: '8', memory: '16Gi', pods: '50' }, capacity: { cpu: '8', memory: '16Gi', pods: '50' } },
  };
  if (variant.images && random() < 0.5) n.status!.images = [{ names: ['registry.example/app:v1'], sizeBytes: 300 * 1024 * 1024 }];
  if (variant.taints && random() < 0.4) n.spec = { taints: [{ key: 'slow', value: 'yes', effect: 'PreferNoSchedule' }] };
  return n;
}

function pod(i: number, random: () => number): Pod {
  const p: Pod = {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: `p${i}`, namespace: 'default' },
    spec: { containers: [{ name: 'c', image: random() < 0.5 ? 'registry.example/app:v1' : 'other:v2', resources: { requests: { cpu: `${1 + Math.floor(random() * 3)}`, memory: '1Gi' } } }] },
  };
  if (random() < 0.3) p.spec.tolerations = [{ key: 'slow', operator: 'Exists', effect: 'PreferNoSchedule' }];
  return p;
}

describe('uniformScore of the in-tree Score plugins', () => {
  it('names a score only when every node gets it from Score and NormalizeScore', async () => {
    const named = new Map<string, number>();
    const declined = new Map<string, number>();
    for (const [seed, variant] of [[1, { images: false, taints: false }], [2, { images: true, taints: false }], [3, { images: false, taints: true }], [4, { images: true, taints: true }]] as const) {
      const random = seededRandom(seed);
      const sc: Scenario = {
        name: `uniform-${seed}`, metadata: {}, config: null, objects: [],
        nodes: Array.from({ length: 6 }, (_, i) => node(i, random, variant)), pods: [], pending: [], steps: [],
      };
      const { scheduler } = await createEmbedded(sc, opts);
      try {
        scheduler.cache.updateSnapshot(scheduler.snapshot);
        const fwk = scheduler.profiles.get('default-scheduler')!;
        const nodes = scheduler.snapshot.nodeInfoList;
        for (let i = 0; i < 8; i++) {
          const podInfo = new PodInfo(pod(i, random));
          const state = new CycleState();
          assert.notEqual(fwk.runPreFilterPlugins(state, podInfo, nodes).status?.code, Code.Error);
          assert.equal(fwk.runPreScorePlugins(state, podInfo, nodes), null);
          const columns: PluginScoreColumn[] = [];
          assert.equal(fwk.runScorePlugins(state, podInfo, nodes, new Float64Array(nodes.length), columns), null);
          for (const p of fwk.scorePlugins) {
            if (p.uniformScore === undefined || state.skipScorePlugins.has(p.name)) continue;
            const u = p.uniformScore(state, podInfo, nodes);
            const column = columns.find((c) => c.name === p.name)!;
            const scores = [...column.weighted].map((w) => w / column.weight);
            if (u === null) {
              declined.set(p.name, (declined.get(p.name) ?? 0) + 1);
            } else {
              named.set(p.name, (named.get(p.name) ?? 0) + 1);
              assert.deepEqual(scores, scores.map(() => u), `${p.name} on ${podInfo.key} (seed ${seed})`);
            }
          }
        }
      } finally {
        scheduler.stop();
      }
    }
    // Both answers were exercised for the plugins whose answer depends on the nodes.
    for (const name of ['ImageLocality', 'TaintToleration']) {
      assert.ok((named.get(name) ?? 0) > 0 && (declined.get(name) ?? 0) > 0, `${name}: named ${named.get(name)}, declined ${declined.get(name)}`);
    }
    for (const name of ['VolumeBinding', 'DynamicResources']) assert.ok((named.get(name) ?? 0) > 0, name);
  });
});
