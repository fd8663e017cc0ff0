// TopologyPlacementGenerator's placements, after upstream's topology_placement_test.go (in our words).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PodGroup } from '../../api/scheduling.js';
import type { Pod } from '../../api/types.js';
import { PodGroupStates } from '../../cache/pod_group_state.js';
import { CycleState } from '../../framework/cycle_state.js';
import type { GeneratePlacementsResult } from '../../framework/interfaces.js';
import { Code, Status } from '../../framework/status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import { TopologyPlacement } from './topology_placement.js';

const group = (key?: string): PodGroup => ({
  kind: 'PodGroup',
  metadata: { name: 'g', namespace: 'default' },
  spec: { schedulingPolicy: { basic: {} }, ...(key ? { schedulingConstraints: { topology: [{ key }] } } : {}) },
});
const member = (name: string, nodeName?: string): Pod => makePod(name, { uid: name, spec: { schedulingGroup: { podGroupName: 'g' }, ...(nodeName ? { nodeName } : {}) } });
const node = (name: string, rack?: string) => makeNode(name, { labels: rack ? { rack } : {} });

function generate(pg: PodGroup, members: Pod[], assumed: Pod[] = []): GeneratePlacementsResult | Status {
  const nodes = [node('a1', 'a'), node('b1', 'b'), node('a2', 'a'), node('x')];
  const states = new PodGroupStates((p) => assumed.some((a) => a.metadata.uid === p.metadata.uid), (p) => assumed.find((a) => a.metadata.uid === p.metadata.uid));
  states.setPodGroup(pg);
  for (const m of members) states.upsertPod(m);
  const base = newTestHandle({ nodes });
  const pl = new TopologyPlacement({ ...base, podGroups: () => states });
  return pl.generatePlacements(new CycleState(), pg, { name: '', nodes: base.snapshot.nodeInfoList });
}

const shape = (r: GeneratePlacementsResult | Status) =>
  r instanceof Status ? { code: r.code, message: r.message() } : r.placements.map((p) => ({ name: p.name, nodes: p.nodes.map((n) => n.name) }));

describe('TopologyPlacementGenerator', () => {
  const cases: { name: string; pg: PodGroup; members: Pod[]; assumed?: Pod[]; want: unknown }[] = [
    { name: 'no constraint: the parent placement itself', pg: group(), members: [member('m')], want: [{ name: '', nodes: ['a1', 'b1', 'a2', 'x'] }] },
    {
      name: 'one placement per domain, unlabelled nodes in none',
      pg: group('rack'), members: [member('m')],
      want: [{ name: 'a', nodes: ['a1', 'a2'] }, { name: 'b', nodes: ['b1'] }],
    },
    { name: 'a bound member pins its domain', pg: group('rack'), members: [member('m'), member('s', 'b1')], want: [{ name: 'b', nodes: ['b1'] }] },
    {
      name: 'an assumed member pins its domain',
      pg: group('rack'), members: [member('m'), member('s')], assumed: [member('s', 'a2')],
      want: [{ name: 'a', nodes: ['a1', 'a2'] }],
    },
    {
      name: 'members in two domains',
      pg: group('rack'), members: [member('s', 'a1'), member('t', 'b1')],
      want: { code: Code.Error, message: 'cannot determine domain for already scheduled pods: more than 1 domain found for pod group: a, b' },
    },
    {
      name: 'a member on a node without the label',
      pg: group('rack'), members: [member('s', 'x')],
      want: { code: Code.Error, message: 'cannot determine domain for already scheduled pods: no topology domain found for pod default/s' },
    },
    {
      name: 'a member on a node the snapshot lacks',
      pg: group('rack'), members: [member('s', 'gone')],
      want: { code: Code.Error, message: 'cannot determine domain for already scheduled pods: getting node for pod default/s: nodeinfo not found for node name "gone"' },
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(shape(generate(c.pg, c.members, c.assumed)), c.want));
});
