// The hierarchy snapshot of a member's group and its messages, after upstream's cache.go
// BuildHierarchySnapshotFromPod and snapshot.go's listers (in our words).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CompositePodGroup, PodGroup } from '../api/scheduling.js';
import type { Pod } from '../api/types.js';
import { makePod } from '../testing/builders.js';
import { podGroupStatesOf } from '../testing/pod_group_states.js';
import { groupHierarchy, rootInHierarchy, snapshotCompositePodGroupMissing, snapshotPodGroupMissing } from './group_hierarchy.js';

const cpg = (name: string, parent?: string): CompositePodGroup => ({
  kind: 'CompositePodGroup', metadata: { name, namespace: 'default' },
  spec: { workloadRef: { workloadName: 'w', templateName: name }, schedulingPolicy: { basic: {} }, ...(parent ? { parentCompositePodGroupName: parent } : {}) },
});
const pg = (name: string, parent?: string): PodGroup => ({
  kind: 'PodGroup', metadata: { name, namespace: 'default' },
  spec: { schedulingPolicy: { basic: {} }, ...(parent ? { parentCompositePodGroupName: parent } : {}) },
});
const member = (name: string, group: string): Pod => makePod(name, { uid: name, spec: { schedulingGroup: { podGroupName: group } } });

const states = (composites: CompositePodGroup[], groups: PodGroup[], pods: Pod[]) => podGroupStatesOf(composites, groups, pods);

describe('groupHierarchy (BuildHierarchySnapshotFromPod)', () => {
  const cases: { name: string; composites: CompositePodGroup[]; groups: PodGroup[]; pods: Pod[]; want: string | { root: string; keys: string[] } }[] = [
    { name: 'no state for the PodGroup', composites: [], groups: [], pods: [], want: 'pod group state not found for podgroup/default/pg' },
    { name: 'members but no PodGroup object', composites: [], groups: [], pods: [member('p', 'pg')], want: 'pod group object not found in state for podgroup/default/pg' },
    {
      name: 'a PodGroup without a parent is its own root', composites: [], groups: [pg('pg')], pods: [member('p', 'pg')],
      want: { root: 'pg', keys: ['podgroup/default/pg'] },
    },
    {
      name: 'the parent composite not observed (a placeholder state)', composites: [], groups: [pg('pg', 'mid')], pods: [],
      want: 'composite pod group object not found in state for compositepodgroup/default/mid',
    },
    {
      name: 'the grandparent not observed: named, not the parent', composites: [cpg('mid', 'top')], groups: [pg('pg', 'mid')], pods: [],
      want: 'composite pod group object not found in state for compositepodgroup/default/top',
    },
    {
      name: 'a whole tree, siblings included', composites: [cpg('top'), cpg('mid', 'top')], groups: [pg('pg', 'mid'), pg('sib', 'top')], pods: [],
      want: { root: 'top', keys: ['compositepodgroup/default/top', 'compositepodgroup/default/mid', 'podgroup/default/pg', 'podgroup/default/sib'] },
    },
    {
      name: 'a cycle above is found on the way down', composites: [cpg('mid', 'top'), cpg('top', 'mid')], groups: [pg('pg', 'mid')], pods: [],
      want: 'cycle detected in composite pod group hierarchy: compositepodgroup/default/top',
    },
    {
      // The walk up visits three composites; the fourth becomes the snapshot's root unchecked.
      name: 'four composites deep: the walk up stops at the fourth', composites: [cpg('a', 'b'), cpg('b', 'c'), cpg('c', 'd')], groups: [pg('pg', 'a')], pods: [],
      want: { root: 'd', keys: ['compositepodgroup/default/d', 'compositepodgroup/default/c', 'compositepodgroup/default/b', 'compositepodgroup/default/a', 'podgroup/default/pg'] },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const h = groupHierarchy(states(c.composites, c.groups, c.pods), 'default', 'pg');
      if (typeof c.want === 'string') assert.equal(h, c.want);
      else {
        assert.notEqual(typeof h, 'string', String(h));
        const got = h as Exclude<typeof h, string>;
        assert.equal(got.root.name, c.want.root);
        assert.deepEqual([...got.keys].sort(), [...c.want.keys].sort());
      }
    });
  }
});

describe('rootInHierarchy (the snapshot\'s GetRootKeyForGroup)', () => {
  it('finds the root of a whole tree', () => {
    const s = states([cpg('top'), cpg('mid', 'top')], [pg('pg', 'mid')], []);
    const h = groupHierarchy(s, 'default', 'pg');
    assert.deepEqual(rootInHierarchy(s, h as Exclude<typeof h, string>, { kind: 'CompositePodGroup', namespace: 'default', name: 'mid' }), { kind: 'CompositePodGroup', namespace: 'default', name: 'top' });
  });
  it('none when the walk leaves the snapshot, or meets a composite without its object', () => {
    const deep = states([cpg('a', 'b'), cpg('b', 'c'), cpg('c', 'd')], [pg('pg', 'a')], []);
    const h = groupHierarchy(deep, 'default', 'pg') as Exclude<ReturnType<typeof groupHierarchy>, string>;
    assert.equal(rootInHierarchy(deep, h, { kind: 'CompositePodGroup', namespace: 'default', name: 'a' }), null, 'd has no object');
    assert.equal(rootInHierarchy(deep, { root: h.root, keys: new Set(['compositepodgroup/default/a']) }, { kind: 'CompositePodGroup', namespace: 'default', name: 'a' }), null, 'b is outside');
  });
  it('a cycle is an error listing the groups visited', () => {
    const s = states([cpg('a', 'b'), cpg('b', 'a')], [], []);
    const keys = new Set(['compositepodgroup/default/a', 'compositepodgroup/default/b']);
    assert.throws(() => rootInHierarchy(s, { root: { kind: 'CompositePodGroup', namespace: 'default', name: 'a' }, keys }, { kind: 'CompositePodGroup', namespace: 'default', name: 'a' }),
      { message: 'cycle detected in the hierarchy: [compositepodgroup/default/a compositepodgroup/default/b]' });
  });
});

describe('the snapshot listers\' messages', () => {
  const cases = [
    { name: 'PodGroup: no state', s: states([], [], []), get: snapshotPodGroupMissing, want: 'pod group state not found for pod group podgroup/default/pg' },
    { name: 'PodGroup: members, no object', s: states([], [], [member('p', 'pg')]), get: snapshotPodGroupMissing, want: 'pod group object not found for pod group podgroup/default/pg' },
    { name: 'PodGroup: observed', s: states([], [pg('pg')], []), get: snapshotPodGroupMissing, want: null },
    { name: 'composite: no state', s: states([], [], []), get: snapshotCompositePodGroupMissing, want: 'composite pod group not found in snapshot: compositepodgroup/default/pg' },
    { name: 'composite: a child, no object', s: states([], [pg('child', 'pg')], []), get: snapshotCompositePodGroupMissing, want: 'composite pod group object not found for pod group "compositepodgroup/default/pg"' },
    { name: 'composite: observed', s: states([cpg('pg')], [], []), get: snapshotCompositePodGroupMissing, want: null },
  ];
  for (const c of cases) it(c.name, () => assert.equal(c.get(c.s, 'default', 'pg'), c.want));
});
