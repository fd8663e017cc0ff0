// How `npm test` deals its files out to shards: by measured cost, groups kept together.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { dealShards, root, sameShard } from './test_files.js';

test('dealShards', async (t) => {
  const cases: { name: string; files: string[]; costs: Record<string, number>; groups?: string[][]; want: string[][] }[] = [
    {
      name: 'heaviest first, each to the lightest shard, by path within a shard',
      files: ['a', 'b', 'c', 'd', 'e'],
      costs: { a: 1, b: 9, c: 5, d: 4, e: 1 },
      want: [['a', 'b'], ['c', 'd', 'e']],
    },
    {
      name: 'a group goes to one shard, as one of its summed cost',
      files: ['a', 'b', 'c', 'd'],
      costs: { a: 3, b: 3, c: 3, d: 3 },
      groups: [['a', 'c']],
      want: [['a', 'c'], ['b', 'd']],
    },
    {
      name: 'an unmeasured file counts as the median',
      files: ['a', 'b', 'c', 'new'],
      costs: { a: 10, b: 2, c: 3 },
      want: [['a'], ['b', 'c', 'new']],
    },
    {
      name: 'more shards than files leaves shards empty',
      files: ['a'],
      costs: {},
      want: [['a'], []],
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const shards = dealShards(c.files, c.costs, 2, c.groups);
      assert.deepEqual(shards, c.want);
      assert.deepEqual(shards.flat().sort(), [...c.files].sort(), 'every file exactly once');
    });
  }
});

test('every file a same-shard group names exists (a renamed file would leave its group silently)', () => {
  for (const file of sameShard.flat()) assert.ok(existsSync(join(root, file)), file);
});
