// DefaultPreemptionArgs defaulting and validation (TestValidateDefaultPreemptionArgs).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultDefaultPreemptionArgs, validateDefaultPreemptionArgs } from './args.js';

describe('DefaultPreemptionArgs', () => {
  it('defaults to 10% and 100 nodes', () => {
    assert.deepEqual(defaultDefaultPreemptionArgs({}), { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 });
  });

  it('keeps given values, an explicit 0 included', () => {
    assert.deepEqual(defaultDefaultPreemptionArgs({ minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 5 }), {
      minCandidateNodesPercentage: 0,
      minCandidateNodesAbsolute: 5,
    });
  });

  it('rejects unknown fields and non-integers', () => {
    assert.throws(() => defaultDefaultPreemptionArgs({ minCandidateNodes: 1 }), /unknown field "minCandidateNodes"/);
    assert.throws(() => defaultDefaultPreemptionArgs({ minCandidateNodesAbsolute: 1.5 }), /expected an integer/);
  });

  const path = 'profiles[0].pluginConfig[0].args';
  const cases: { name: string; pct: number; abs: number; want: { path: string; message: string }[] }[] = [
    { name: 'valid config', pct: 10, abs: 100, want: [] },
    {
      name: 'negative minCandidateNodesPercentage',
      pct: -1,
      abs: 100,
      want: [{ path: `${path}.minCandidateNodesPercentage`, message: 'Invalid value: -1: not in valid range [0, 100]' }],
    },
    {
      name: 'minCandidateNodesPercentage over 100',
      pct: 900,
      abs: 100,
      want: [{ path: `${path}.minCandidateNodesPercentage`, message: 'Invalid value: 900: not in valid range [0, 100]' }],
    },
    {
      name: 'negative minCandidateNodesAbsolute',
      pct: 20,
      abs: -1,
      want: [{ path: `${path}.minCandidateNodesAbsolute`, message: 'Invalid value: -1: not in valid range [0, inf)' }],
    },
    {
      name: 'all zero',
      pct: 0,
      abs: 0,
      want: [
        { path: `${path}.minCandidateNodesPercentage`, message: 'Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute' },
        { path: `${path}.minCandidateNodesAbsolute`, message: 'Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage' },
      ],
    },
    {
      name: 'both out of range',
      pct: -1,
      abs: -1,
      want: [
        { path: `${path}.minCandidateNodesPercentage`, message: 'Invalid value: -1: not in valid range [0, 100]' },
        { path: `${path}.minCandidateNodesAbsolute`, message: 'Invalid value: -1: not in valid range [0, inf)' },
      ],
    },
  ];
  for (const tc of cases) {
    it(`validation: ${tc.name}`, () => {
      assert.deepEqual(validateDefaultPreemptionArgs({ minCandidateNodesPercentage: tc.pct, minCandidateNodesAbsolute: tc.abs }, path), tc.want);
    });
  }
});
