// The queue's workload forest, case by case as upstream's workload_forest_test.go checks it: the
// parent links kept on add and delete (with the gate on and off), the root above a pod, a group and
// a composite (a missing ancestor and a cycle give none), the leaves under a root and its tree.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CompositePodGroup, PodGroup } from '../api/scheduling.js';
import { makePod } from '../testing/index.js';
import type { GroupTree } from '../framework/interfaces.js';
import { WorkloadForest } from './workload_forest.js';

const ns = 'ns1';
const pg = (name: string, parent?: string): PodGroup => ({
  kind: 'PodGroup', metadata: { name, namespace: ns }, spec: { schedulingPolicy: { basic: {} }, ...(parent ? { parentCompositePodGroupName: parent } : {}) },
});
const cpg = (name: string, parent?: string): CompositePodGroup => ({
  kind: 'CompositePodGroup', metadata: { name, namespace: ns },
  spec: { workloadRef: { workloadName: 'w', templateName: name }, schedulingPolicy: { basic: {} }, ...(parent ? { parentCompositePodGroupName: parent } : {}) },
});
const pgKey = (name: string) => `PodGroup/${ns}/${name}`;
const cpgKey = (name: string) => `CompositePodGroup/${ns}/${name}`;

function forest(enabled: boolean, groups: readonly PodGroup[], composites: readonly CompositePodGroup[] = []): { f: WorkloadForest; errors: string[] } {
  const errors: string[] = [];
  const f = new WorkloadForest(enabled, (m) => errors.push(m));
  for (const c of composites) f.addCompositePodGroup(c);
  for (const g of groups) f.addPodGroup(g);
  return { f, errors };
}

describe('WorkloadForest: adding and deleting PodGroups', () => {
  const cases: { name: string; enabled: boolean; composites?: CompositePodGroup[]; add: PodGroup[]; del?: PodGroup; wantGroups: string[]; wantChildrenOfCpg1: string[] }[] = [
    { name: 'a single group', enabled: true, add: [pg('pg1')], wantGroups: ['pg1'], wantChildrenOfCpg1: [] },
    { name: 'two groups with a parent share its child set', enabled: true, add: [pg('pg3', 'cpg1'), pg('pg4', 'cpg1')], wantGroups: ['pg3', 'pg4'], wantChildrenOfCpg1: [pgKey('pg3'), pgKey('pg4')] },
    {
      name: 'a group joins a parent that already has a composite child', enabled: true, composites: [cpg('cpgChild', 'cpg1')], add: [pg('pg3', 'cpg1')],
      wantGroups: ['pg3'], wantChildrenOfCpg1: [cpgKey('cpgChild'), pgKey('pg3')],
    },
    { name: 'the parent is ignored with the gate off', enabled: false, add: [pg('pg3', 'cpg1')], wantGroups: ['pg3'], wantChildrenOfCpg1: [] },
    { name: 'adding the same group twice keeps one link', enabled: true, add: [pg('pg3', 'cpg1'), pg('pg3', 'cpg1')], wantGroups: ['pg3'], wantChildrenOfCpg1: [pgKey('pg3')] },
    { name: 'deleting the last child drops the parent\'s set', enabled: true, add: [pg('pg3', 'cpg1')], del: pg('pg3', 'cpg1'), wantGroups: [], wantChildrenOfCpg1: [] },
    {
      name: 'deleting one child keeps its siblings', enabled: true, composites: [cpg('cpgChild', 'cpg1')], add: [pg('pg3', 'cpg1'), pg('pg4', 'cpg1')], del: pg('pg3', 'cpg1'),
      wantGroups: ['pg4'], wantChildrenOfCpg1: [cpgKey('cpgChild'), pgKey('pg4')],
    },
    { name: 'deleting a group never added changes nothing', enabled: true, add: [pg('pg3', 'cpg1')], del: pg('pg9', 'cpg1'), wantGroups: ['pg3'], wantChildrenOfCpg1: [pgKey('pg3')] },
    { name: 'deleting with the gate off', enabled: false, add: [pg('pg3', 'cpg1')], del: pg('pg3', 'cpg1'), wantGroups: [], wantChildrenOfCpg1: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { f } = forest(c.enabled, c.add, c.composites);
      if (c.del) f.deletePodGroup(c.del);
      assert.deepEqual(['pg1', 'pg3', 'pg4'].filter((n) => f.podGroup(ns, n) !== undefined), c.wantGroups);
      assert.deepEqual(f.childKeys(ns, 'cpg1'), c.wantChildrenOfCpg1);
    });
  }

  it('an update replaces the object, and adds one not seen', () => {
    const { f } = forest(true, [pg('pg1')]);
    const next: PodGroup = { ...pg('pg1'), spec: { schedulingPolicy: { gang: { minCount: 3 } } } };
    f.updatePodGroup(next);
    f.updatePodGroup(pg('pg2'));
    assert.equal(f.podGroup(ns, 'pg1'), next);
    assert.ok(f.podGroup(ns, 'pg2'));
  });
});

describe('WorkloadForest: adding and deleting CompositePodGroups', () => {
  it('links a composite to its parent, and a parent added later finds its children', () => {
    const { f } = forest(true, [pg('pgChild', 'cpg1')], [cpg('cpg3', 'cpg1'), cpg('cpg4', 'cpg1')]);
    assert.deepEqual(f.childKeys(ns, 'cpg1'), [cpgKey('cpg3'), cpgKey('cpg4'), pgKey('pgChild')]);
    f.addCompositePodGroup(cpg('cpg1'));
    assert.deepEqual(f.leafPodGroups({ kind: 'CompositePodGroup', namespace: ns, name: 'cpg1' }).map((g) => g.metadata.name), ['pgChild']);
  });

  const cases: { name: string; groups?: PodGroup[]; composites: CompositePodGroup[]; del: CompositePodGroup; want: Record<string, string[]> }[] = [
    { name: 'a composite without parent', composites: [cpg('cpg1')], del: cpg('cpg1'), want: { cpg1: [] } },
    { name: 'the last child of its parent', composites: [cpg('cpg3', 'cpg1')], del: cpg('cpg3', 'cpg1'), want: { cpg1: [] } },
    { name: 'beside a PodGroup sibling', groups: [pg('pgChild', 'cpg1')], composites: [cpg('cpg3', 'cpg1')], del: cpg('cpg3', 'cpg1'), want: { cpg1: [pgKey('pgChild')] } },
    { name: 'beside a composite sibling', composites: [cpg('cpg3', 'cpg1'), cpg('cpg4', 'cpg1')], del: cpg('cpg3', 'cpg1'), want: { cpg1: [cpgKey('cpg4')] } },
    // The middle composite goes; its own children stay linked to it, waiting for it to come back.
    {
      name: 'the middle of root, middle and leaf', groups: [pg('pgLeaf', 'cpgMid')], composites: [cpg('cpg1'), cpg('cpgMid', 'cpg1')], del: cpg('cpgMid', 'cpg1'),
      want: { cpg1: [], cpgMid: [pgKey('pgLeaf')] },
    },
    { name: 'one never added', composites: [cpg('cpg3', 'cpg1')], del: cpg('cpg1'), want: { cpg1: [cpgKey('cpg3')] } },
  ];
  for (const c of cases) {
    it(`deletes ${c.name}`, () => {
      const { f } = forest(true, c.groups ?? [], c.composites);
      f.deleteCompositePodGroup(c.del);
      assert.equal(f.compositePodGroup(ns, c.del.metadata.name!), undefined);
      for (const [parent, want] of Object.entries(c.want)) assert.deepEqual(f.childKeys(ns, parent), want, parent);
    });
  }
});

describe('WorkloadForest: the root above a pod, a group and a composite', () => {
  const member = (group: string) => makePod('p', { namespace: ns, spec: { schedulingGroup: { podGroupName: group } } });
  const cases: { name: string; enabled: boolean; groups: PodGroup[]; composites: CompositePodGroup[]; group: string; want: string | null }[] = [
    { name: 'a standalone group is its own root', enabled: true, groups: [pg('pg1')], composites: [], group: 'pg1', want: 'PodGroup/pg1' },
    { name: 'a group under a composite', enabled: true, groups: [pg('pg1', 'cpg1')], composites: [cpg('cpg1')], group: 'pg1', want: 'CompositePodGroup/cpg1' },
    { name: 'a group under two levels', enabled: true, groups: [pg('pg1', 'mid')], composites: [cpg('top'), cpg('mid', 'top')], group: 'pg1', want: 'CompositePodGroup/top' },
    { name: 'a parent not observed yet', enabled: true, groups: [pg('pg1', 'cpg1')], composites: [], group: 'pg1', want: null },
    { name: 'a group not observed', enabled: true, groups: [], composites: [], group: 'pg1', want: null },
    { name: 'the gate off: a group with a parent is its own root', enabled: false, groups: [pg('pg1', 'cpg1')], composites: [cpg('cpg1')], group: 'pg1', want: 'PodGroup/pg1' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { f } = forest(c.enabled, c.groups, c.composites);
      const root = f.rootOfPod(member(c.group));
      assert.equal(root === null ? null : `${root.kind}/${root.name}`, c.want);
      const g = c.groups.find((x) => x.metadata.name === c.group);
      if (g) assert.deepEqual(f.rootOfPodGroup(g), root);
    });
  }

  it('a pod outside any group has no root', () => {
    assert.equal(forest(true, [pg('pg1')]).f.rootOfPod(makePod('solo', { namespace: ns })), null);
  });

  it('a composite: itself, its top, none when an ancestor is missing, none (reported) on a cycle', () => {
    const { f, errors } = forest(true, [], [cpg('top'), cpg('mid', 'top'), cpg('lost', 'gone'), cpg('a', 'b'), cpg('b', 'a')]);
    assert.deepEqual(f.rootOfCompositePodGroup(cpg('top')), { kind: 'CompositePodGroup', namespace: ns, name: 'top' });
    assert.deepEqual(f.rootOfCompositePodGroup(cpg('mid', 'top')), { kind: 'CompositePodGroup', namespace: ns, name: 'top' });
    assert.equal(f.rootOfCompositePodGroup(cpg('lost', 'gone')), null);
    assert.equal(errors.length, 0);
    assert.equal(f.rootOfCompositePodGroup(cpg('a', 'b')), null);
    assert.deepEqual(errors, ['cycle detected in composite pod group hierarchy: a/ns1']);
  });
});

describe('WorkloadForest: the leaves and the tree of a root', () => {
  const names = (gs: readonly PodGroup[]) => gs.map((g) => g.metadata.name);
  /** A tree as "kind name(children)", for short expectations. */
  const shape = (t: GroupTree | null): string => t === null ? 'null'
    : `${t.kind === 'PodGroup' ? 'pg' : 'cpg'} ${t.name}${t.children.length > 0 ? `(${t.children.map(shape).join(', ')})` : ''}`;

  it('a PodGroup root is its only leaf and a tree of one', () => {
    const { f } = forest(true, [pg('pg1')]);
    const root = { kind: 'PodGroup', namespace: ns, name: 'pg1' } as const;
    assert.deepEqual(names(f.leafPodGroups(root)), ['pg1']);
    assert.equal(shape(f.tree(root)), 'pg pg1');
    assert.equal(f.tree(root)!.podGroup, f.podGroup(ns, 'pg1'));
  });

  it('a composite root: leaves breadth first, the tree with composites and groups as observed', () => {
    const { f } = forest(true, [pg('direct', 'top'), pg('deep', 'mid'), pg('deeper', 'mid')], [cpg('top'), cpg('mid', 'top')]);
    const root = { kind: 'CompositePodGroup', namespace: ns, name: 'top' } as const;
    assert.deepEqual(names(f.leafPodGroups(root)), ['direct', 'deep', 'deeper']);
    assert.equal(shape(f.tree(root)), 'cpg top(cpg mid(pg deep, pg deeper), pg direct)');
  });

  it('a root not observed has no leaves and no tree', () => {
    const { f } = forest(true, [pg('pg1', 'top')]);
    assert.deepEqual(f.leafPodGroups({ kind: 'PodGroup', namespace: ns, name: 'missing' }), []);
    assert.equal(f.tree({ kind: 'CompositePodGroup', namespace: ns, name: 'top' }), null);
    assert.deepEqual(names(f.leafPodGroups({ kind: 'CompositePodGroup', namespace: ns, name: 'top' })), ['pg1'], 'the links wait for the parent');
  });

  it('the gate off: a group under a composite is not linked', () => {
    const { f } = forest(false, [pg('pg1', 'top')], [cpg('top')]);
    assert.deepEqual(f.leafPodGroups({ kind: 'CompositePodGroup', namespace: ns, name: 'top' }), []);
    assert.equal(shape(f.tree({ kind: 'CompositePodGroup', namespace: ns, name: 'top' })), 'cpg top');
  });
});
