// Victim ordering (util.MoreImportantPod as sort.Slice applies it) and PDB violation grouping
// (filterPodsWithPDBViolation).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PodInfo } from '../../framework/pod_info.js';
import { earliestStartOfHighestPriority, podStartTime, sortByImportance } from './importance.js';
import { compileDisruptionBudgets, filterPodsWithPDBViolation } from './pdb.js';
import { epoch, highPriority, lowPriority, midPriority, pdb, pod, type PodSpecOptions } from './test_helpers.js';

const info = (name: string, o: PodSpecOptions = {}) => new PodInfo(pod(name, o));
const names = (pods: readonly PodInfo[]) => pods.map((p) => p.name);

describe('sortByImportance', () => {
  const cases: { name: string; pods: PodInfo[]; want: string[] }[] = [
    {
      name: 'higher priority first',
      pods: [info('a', { priority: lowPriority }), info('b', { priority: highPriority }), info('c', { priority: midPriority })],
      want: ['b', 'c', 'a'],
    },
    {
      name: 'equal priority: the longer running first',
      pods: [info('a', { priority: midPriority, startTime: epoch(5) }), info('b', { priority: midPriority, startTime: epoch(1) })],
      want: ['b', 'a'],
    },
    {
      name: 'a pod that has not started counts as the newest',
      pods: [info('a', { priority: midPriority }), info('b', { priority: midPriority, startTime: epoch(3) })],
      want: ['b', 'a'],
    },
    {
      name: 'equal start times keep their order',
      pods: [info('a', { priority: midPriority, startTime: epoch(2) }), info('b', { priority: midPriority, startTime: epoch(2) })],
      want: ['a', 'b'],
    },
    {
      // v1.37.2 reads the clock once per victim as it builds them in the node's order, so of two
      // pods not started the earlier listed counts as older.
      name: 'pods that have not started keep the node\'s order, as upstream\'s victims read the clock in that order',
      pods: [info('a', { priority: midPriority }), info('b', { priority: midPriority }), info('c', { priority: highPriority }), info('d', { priority: midPriority })],
      want: ['c', 'a', 'b', 'd'],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const pods = [...tc.pods];
      sortByImportance(pods);
      assert.deepEqual(names(pods), tc.want);
    });
  }

  it('reads RFC 3339 start times, and none as +Infinity', () => {
    assert.equal(podStartTime(pod('a', { startTime: '1970-01-01T00:00:02Z' })), 2000);
    assert.equal(podStartTime(pod('a')), Infinity);
  });

  it('takes the earliest start among the highest-priority victims', () => {
    const victims = [
      info('a', { priority: midPriority, startTime: epoch(7) }),
      info('b', { priority: highPriority, startTime: epoch(9) }),
      info('c', { priority: lowPriority, startTime: epoch(1) }),
      info('d', { priority: highPriority, startTime: epoch(8) }),
    ];
    assert.equal(earliestStartOfHighestPriority(victims), 8000);
  });
});

describe('filterPodsWithPDBViolation', () => {
  const cases: {
    name: string;
    pods: PodInfo[];
    pdbs: ReturnType<typeof pdb>[];
    want: { violating: string[]; nonViolating: string[] };
  }[] = [
    {
      name: 'pods beyond the allowed disruptions violate, in order',
      pods: [info('a', { labels: { app: 'x' } }), info('b', { labels: { app: 'x' } }), info('c', { labels: { app: 'x' } })],
      pdbs: [pdb('x', { app: 'x' }, 1)],
      want: { violating: ['b', 'c'], nonViolating: ['a'] },
    },
    {
      name: 'pods without labels match no PDB',
      pods: [info('a'), info('b')],
      pdbs: [pdb('x', { app: 'x' }, 0)],
      want: { violating: [], nonViolating: ['a', 'b'] },
    },
    {
      name: 'a PDB of another namespace does not apply',
      pods: [info('a', { labels: { app: 'x' }, namespace: 'other' })],
      pdbs: [pdb('x', { app: 'x' }, 0)],
      want: { violating: [], nonViolating: ['a'] },
    },
    {
      name: 'a pod already listed in disruptedPods does not use the budget',
      pods: [info('a', { labels: { app: 'x' } }), info('b', { labels: { app: 'x' } })],
      pdbs: [pdb('x', { app: 'x' }, 1, ['a'])],
      want: { violating: [], nonViolating: ['a', 'b'] },
    },
    {
      name: 'a pod violating any of its PDBs is violating',
      pods: [info('a', { labels: { app: 'x', tier: 'y' } })],
      pdbs: [pdb('x', { app: 'x' }, 5), pdb('y', { tier: 'y' }, 0)],
      want: { violating: ['a'], nonViolating: [] },
    },
    {
      name: 'a pod stops at its first violated PDB, by namespace and name: the later ones keep their budget',
      pods: [info('a', { labels: { app: 'x', tier: 'y' } }), info('b', { labels: { tier: 'y' } })],
      pdbs: [pdb('y-budget', { tier: 'y' }, 1), pdb('x-budget', { app: 'x' }, 0)],
      want: { violating: ['a'], nonViolating: ['b'] },
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const { violating, nonViolating } = filterPodsWithPDBViolation(tc.pods, compileDisruptionBudgets(tc.pdbs));
      assert.deepEqual({ violating: names(violating), nonViolating: names(nonViolating) }, tc.want);
    });
  }

  it('leaves out PDBs with an empty, missing or invalid selector (they match nothing)', () => {
    const empty = { ...pdb('empty', {}, 0), spec: { selector: {} } };
    const missing = { ...pdb('missing', {}, 0), spec: {} };
    const invalid = { ...pdb('invalid', {}, 0), spec: { selector: { matchExpressions: [{ key: 'a', operator: 'In' }] } } };
    assert.deepEqual(compileDisruptionBudgets([empty, missing, invalid]), []);
  });
});
