import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PluginNameSets } from './plugin_name_sets.js';

const collect = (sets: PluginNameSets, indexes: number[]): ReadonlySet<string> => {
  sets.begin();
  for (const i of indexes) sets.add(i);
  return sets.end();
};

describe('PluginNameSets', () => {
  const names = ['A', 'B', 'C', 'D'];

  it('hands out the names of the plugins added, in list order', () => {
    const sets = new PluginNameSets(names);
    assert.deepEqual([...collect(sets, [2, 0])], ['A', 'C']);
    assert.deepEqual([...collect(sets, [])], []);
    assert.deepEqual([...collect(sets, [3])], ['D']);
  });

  it('gives the same set to every collection of the same plugins, another to another', () => {
    const sets = new PluginNameSets(names);
    const first = collect(sets, [1, 3]);
    assert.equal(collect(sets, [3, 1]), first);
    assert.notEqual(collect(sets, [1]), first);
    assert.deepEqual([...first], ['B', 'D'], 'a later collection leaves an earlier set as it was');
  });

  it('begin forgets what an unfinished collection added', () => {
    const sets = new PluginNameSets(names);
    sets.begin();
    sets.add(0);
    assert.deepEqual([...collect(sets, [2])], ['C']);
  });

  it('past the 31st plugin, names each plugin added in a set of its own per collection', () => {
    const many = Array.from({ length: 40 }, (_, i) => `P${i}`);
    const sets = new PluginNameSets(many);
    const first = collect(sets, [35, 2]);
    assert.deepEqual(new Set(first), new Set(['P2', 'P35']));
    const second = collect(sets, [35, 2]);
    assert.notEqual(second, first);
    assert.deepEqual(new Set(second), new Set(['P2', 'P35']));
    assert.deepEqual([...collect(sets, [30])], ['P30']);
  });
});
