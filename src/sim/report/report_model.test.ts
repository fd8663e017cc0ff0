// The report's shared helpers: rejection rows grouped as the panels show them, the top score rows,
// and node index runs that decode to what was encoded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExplainStatus } from '../explain/explain.js';
import { decisionFromExplain, decodeRuns, encodeRuns, groupFilter, topScores, type FilterGroup } from './report_model.js';

describe('groupFilter', () => {
  const fit = { plugin: 'NodeResourcesFit', code: 'Unschedulable', reasons: ['Insufficient cpu'] };
  const taint = { plugin: 'TaintToleration', code: 'UnschedulableAndUnresolvable', reasons: ["node(s) had untolerated taint {a: b}"] };
  const cases: { name: string; filter: Record<string, ExplainStatus>; want: FilterGroup[] }[] = [
    { name: 'no rejections give no rows', filter: {}, want: [] },
    {
      name: 'nodes rejected alike share a row, the largest row first, nodes sorted',
      filter: { n3: fit, n1: taint, n2: fit },
      want: [{ ...fit, nodes: ['n2', 'n3'] }, { ...taint, nodes: ['n1'] }],
    },
    {
      name: 'the same plugin with other reasons is another row',
      filter: { n1: fit, n2: { ...fit, reasons: ['Insufficient memory'] } },
      want: [{ ...fit, nodes: ['n1'] }, { ...fit, reasons: ['Insufficient memory'], nodes: ['n2'] }],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(groupFilter(c.filter), c.want));
});

describe('topScores', () => {
  it('keeps the highest totals, ties by node name, with every plugin of the kept rows as a column', () => {
    const scores = {
      b: { Fit: 10, total: 30 }, a: { Fit: 20, Taint: 10, total: 30 }, c: { Fit: 5, total: 5 }, d: { Affinity: 1, total: 1 },
    };
    assert.deepEqual(topScores(scores, 3), { plugins: ['Fit', 'Taint'], rows: [['a', 30, 20, 10], ['b', 30, 10, 0], ['c', 5, 5, 0]] });
  });
});

describe('node index runs', () => {
  const cases: [string, number[], number[]][] = [
    ['empty', [], []],
    ['one run', [3, 4, 5], [3, 3]],
    ['gaps start new runs', [0, 1, 5, 7, 8], [0, 2, 5, 1, 7, 2]],
  ];
  for (const [name, indices, runs] of cases) {
    it(`${name}: encodes and decodes back`, () => {
      assert.deepEqual(encodeRuns(indices), runs);
      assert.deepEqual(decodeRuns(runs), indices);
    });
  }
});

describe('decisionFromExplain with the diagnosis fields', () => {
  const fit = { plugin: 'NodeResourcesFit', code: 'Unschedulable', reasons: ['Insufficient cpu'] };
  const taint = { plugin: 'TaintToleration', code: 'UnschedulableAndUnresolvable', reasons: ['node(s) had untolerated taint(s)'] };
  const base = {
    pod: 'default/p', outcome: 'Unschedulable' as const, node: '', message: 'm', filter: { n1: taint, n2: fit, n3: fit }, preFilter: null,
    scores: { n4: { Fit: 10, total: 10 }, n5: { Fit: 5, total: 5 } }, bestNodes: ['n4'], nominatedNode: '', victims: [],
  };

  it('renders a record without them as before, empty', () => {
    const v = decisionFromExplain(base);
    assert.deepEqual([v.filterPlugins, v.allFilterGroups, v.scoreDetails, v.preemption, v.attemptList, v.devices, v.deviceGroups, v.extra], [[], [], {}, null, [], [], [], {}]);
  });

  it('keeps a DRA pod\'s devices per claim and groups the nodes that fell short alike', () => {
    const gpu = { claim: 'gpu-claim', request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-0' };
    const short = { claim: 'default/gpu-claim', request: 'gpu', wanted: 2, available: 1 };
    const held = { ...short, available: 0, reason: 'enough matching devices, but other claims hold them' };
    const v = decisionFromExplain({ ...base, devices: [gpu], deviceDiagnosis: { n1: [short], n2: [held], n3: [short] } });
    assert.deepEqual(v.devices, [gpu]);
    assert.deepEqual(v.deviceGroups, [{ shortfalls: [short], nodes: ['n1', 'n3'] }, { shortfalls: [held], nodes: ['n2'] }]);
    assert.deepEqual(v.extra, {}, 'no raw field left for the tables to show');
  });

  it('groups every plugin\'s verdicts and preemption verdicts by node, keeps the kept rows\' score details, and passes unknown fields', () => {
    const record: Parameters<typeof decisionFromExplain>[0] & { laterField: unknown } = {
      ...base,
      filterPlugins: ['NodeResourcesFit', 'TaintToleration'],
      allFilters: { n1: [fit, taint], n2: [fit], n3: [fit] },
      scoreDetails: { n4: { Fit: { raw: 50, normalized: 10, weight: 1, weighted: 10 } }, n5: { Fit: { raw: 25, normalized: 5, weight: 1, weighted: 5 } } },
      preemption: {
        notEligible: '', chosen: '', decidedBy: null, candidates: [],
        nodes: {
          n1: { verdict: 'NotHelpful', status: taint, stillRejectedBy: [], candidate: null, dryRun: true },
          n2: { verdict: 'NoLowerPriorityPods', status: null, stillRejectedBy: [], candidate: null, dryRun: true },
          n3: { verdict: 'NoLowerPriorityPods', status: null, stillRejectedBy: [], candidate: null, dryRun: true },
        },
      },
      attempts: [{ attempt: 1, time: 0, outcome: 'Unschedulable', node: '', message: 'm', nominatedNode: '', victims: [], requeuedBy: null }],
      laterField: { claim: ['gpu-0'] },
    };
    const v = decisionFromExplain(record, 1, 1);
    assert.deepEqual(v.allFilterGroups, [{ rejections: [fit], nodes: ['n2', 'n3'] }, { rejections: [fit, taint], nodes: ['n1'] }]);
    assert.deepEqual(v.scoreDetails, { n4: { Fit: { raw: 50, normalized: 10, weight: 1, weighted: 10 } } });
    assert.deepEqual(v.preemption?.nodes.map((g) => [g.verdict, g.nodes]), [['NoLowerPriorityPods', ['n2', 'n3']], ['NotHelpful', ['n1']]]);
    assert.equal(v.attemptList.length, 1);
    assert.deepEqual(v.extra, { laterField: { claim: ['gpu-0'] } });
  });
});
