// Status: shared constant verdicts and naming the plugin (framework/interface.go Status.WithPlugin).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Code, Status } from './status.js';

describe('Status.constant', () => {
  it('is frozen with its plugin and reasons set', () => {
    const s = Status.constant(Code.UnschedulableAndUnresolvable, 'NodeAffinity', 'no match');
    assert.equal(s.plugin, 'NodeAffinity');
    assert.equal(s.code, Code.UnschedulableAndUnresolvable);
    assert.deepEqual(s.reasons, ['no match']);
    assert.ok(Object.isFrozen(s));
    assert.ok(Object.isFrozen(s.reasons));
    assert.throws(() => (s.reasons as string[]).push('more'), TypeError);
  });
});

describe('Status.withPlugin', () => {
  const cases: { name: string; make: () => Status; plugin: string; same: boolean }[] = [
    { name: 'names a fresh status in place', make: () => Status.unschedulable('x'), plugin: 'A', same: true },
    { name: 'renames a status that is not shared', make: () => Status.unschedulable('x').withPlugin('B'), plugin: 'A', same: true },
    { name: 'keeps a shared status naming the same plugin', make: () => Status.constant(Code.Unschedulable, 'A', 'x'), plugin: 'A', same: true },
    { name: 'copies a shared status naming another plugin', make: () => Status.constant(Code.Unschedulable, 'B', 'x'), plugin: 'A', same: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const before = c.make();
      const pluginBefore = before.plugin;
      const after = before.withPlugin(c.plugin);
      assert.equal(after === before, c.same);
      assert.equal(after.plugin, c.plugin);
      assert.equal(after.code, Code.Unschedulable);
      assert.deepEqual(after.reasons, ['x']);
      if (!c.same) assert.equal(before.plugin, pluginBefore);
    });
  }
});

describe('Status.fromThrown', () => {
  class Refused extends Error {}
  const refused = new Refused('conflict');
  const cases: { name: string; thrown: unknown; reason: string; keeps: boolean }[] = [
    { name: 'keeps an Error, so its class and cause chain stay readable', thrown: refused, reason: 'conflict', keeps: true },
    { name: 'turns a string into its message', thrown: 'boom', reason: 'boom', keeps: false },
    { name: 'turns anything else into its string', thrown: 42, reason: '42', keeps: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = Status.fromThrown(c.thrown);
      assert.equal(s.code, Code.Error);
      assert.deepEqual(s.reasons, [c.reason]);
      assert.equal(s.error === c.thrown, c.keeps);
      assert.equal(s.error?.message, c.reason);
    });
  }
});
