// PodGroupPodsCount's ScorePlacement and NormalizePlacementScore, after upstream's
// podgroup_pods_count_test.go (in our words).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PodGroup } from '../../api/scheduling.js';
import type { Pod } from '../../api/types.js';
import { PodGroupStates } from '../../cache/pod_group_state.js';
import { CycleState } from '../../framework/cycle_state.js';
import type { PlacementScore } from '../../framework/interfaces.js';
import { PodInfo } from '../../framework/pod_info.js';
import { makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import { PodGroupPodsCount } from './podgroup_pods_count.js';

const pg: PodGroup = { kind: 'PodGroup', metadata: { name: 'g', namespace: 'default' }, spec: { schedulingPolicy: { basic: {} } } };
const member = (name: string, nodeName?: string): Pod => makePod(name, { uid: name, spec: { schedulingGroup: { podGroupName: 'g' }, ...(nodeName ? { nodeName } : {}) } });

function plugin(members: Pod[], assumed: string[]): PodGroupPodsCount {
  const states = new PodGroupStates((p) => assumed.includes(p.metadata.name ?? ''));
  states.setPodGroup(pg);
  for (const m of members) states.upsertPod(m);
  return new PodGroupPodsCount({ ...newTestHandle(), podGroups: () => states });
}

const placement = { name: 'p', nodes: [] };
const proposed = [new PodInfo(member('p1')), new PodInfo(member('p2'))].map((podInfo, i) => ({ podInfo, nodeName: `node${i + 1}` }));

describe('PodGroupPodsCount ScorePlacement', () => {
  const cases = [
    { name: 'assigned and assumed members count', members: [member('s1', 'node2'), member('s2', 'node3'), member('s3')], assumed: ['s3'], want: 5 },
    { name: 'assigned members only', members: [member('s1', 'node1')], assumed: [], want: 3 },
    { name: 'assumed members only', members: [member('s1')], assumed: ['s1'], want: 3 },
    { name: 'none scheduled yet', members: [], assumed: [], want: 2 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(plugin(c.members, c.assumed).scorePlacement(new CycleState(), pg, { placement, proposedAssignments: proposed }), c.want);
    });
  }
});

describe('PodGroupPodsCount NormalizePlacementScore', () => {
  const cases = [
    { name: 'distinct scores', scores: [10, 50, 110], want: [9, 45, 100] },
    { name: 'equal scores', scores: [50, 50], want: [100, 100] },
    { name: 'a single score', scores: [50], want: [100] },
    { name: 'a low outlier is not spread out', scores: [11, 100, 101, 102], want: [10, 98, 99, 100] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const scores: PlacementScore[] = c.scores.map((score) => ({ placement, score }));
      assert.equal(plugin([], []).normalizePlacementScore(new CycleState(), pg, scores), null);
      assert.deepEqual(scores.map((s) => s.score), c.want);
    });
  }
  it('refuses placements holding no member', () => {
    const s = plugin([], []).normalizePlacementScore(new CycleState(), pg, [{ placement, score: 0 }, { placement, score: 0 }]);
    assert.equal(s?.message(), 'no pods from pod group are assigned to any of the candidate placements');
  });
});
