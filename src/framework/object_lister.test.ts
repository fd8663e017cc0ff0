import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../api/types.js';
import { MapObjectLister } from './object_lister.js';

const pod = (namespace: string, name: string, rv = '1'): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name, resourceVersion: rv } }) as KubeObject;
const names = (objs: readonly KubeObject[]): string[] => objs.map((o) => `${o.metadata?.namespace}/${o.metadata?.name}@${o.metadata?.resourceVersion}`);

type Step = ['add', KubeObject] | ['remove', KubeObject];

const cases: { name: string; steps: Step[]; all: string[]; inA: string[] }[] = [
  { name: 'namespaces interleaved: list follows the order of adding', steps: [['add', pod('a', 'x')], ['add', pod('b', 'y')], ['add', pod('a', 'z')]], all: ['a/x@1', 'b/y@1', 'a/z@1'], inA: ['a/x@1', 'a/z@1'] },
  { name: 'a replacement keeps its place', steps: [['add', pod('a', 'x')], ['add', pod('b', 'y')], ['add', pod('a', 'x', '2')]], all: ['a/x@2', 'b/y@1'], inA: ['a/x@2'] },
  { name: 'removed and added again goes last', steps: [['add', pod('a', 'x')], ['add', pod('b', 'y')], ['remove', pod('a', 'x')], ['add', pod('a', 'x', '3')]], all: ['b/y@1', 'a/x@3'], inA: ['a/x@3'] },
  { name: 'the last of a namespace removed', steps: [['add', pod('a', 'x')], ['add', pod('b', 'y')], ['remove', pod('a', 'x')]], all: ['b/y@1'], inA: [] },
  { name: 'removing what is absent changes nothing', steps: [['add', pod('b', 'y')], ['remove', pod('a', 'x')]], all: ['b/y@1'], inA: [] },
];

for (const c of cases) {
  test(`MapObjectLister: ${c.name}`, () => {
    const lister = new MapObjectLister();
    for (const [op, o] of c.steps) {
      if (op === 'add') lister.upsert(o);
      else lister.remove(o);
    }
    assert.deepEqual(names(lister.list('Pod')), c.all);
    assert.deepEqual(names(lister.list('Pod', 'a')), c.inA);
    assert.deepEqual(names(lister.list('Pod', 'nowhere')), []);
    assert.deepEqual(names(lister.list('Namespace')), []);
  });
}

test('MapObjectLister: get and the listeners see the object before and after', () => {
  const lister = new MapObjectLister([pod('a', 'x')]);
  const seen: string[] = [];
  const stop = lister.onChange((kind, oldObj, newObj) => seen.push(`${kind} ${oldObj?.metadata?.resourceVersion ?? '-'} -> ${newObj?.metadata?.resourceVersion ?? '-'}`));
  lister.upsert(pod('a', 'x', '2'));
  lister.upsert(pod('a', 'y'));
  lister.remove(pod('a', 'x'));
  stop();
  lister.upsert(pod('a', 'z'));
  assert.deepEqual(seen, ['Pod 1 -> 2', 'Pod - -> 1', 'Pod 2 -> -']);
  assert.equal(lister.get('Pod', 'a', 'x'), undefined);
  assert.equal(lister.get('Pod', 'a', 'y')?.metadata?.resourceVersion, '1');
  assert.equal(lister.get('Pod', 'b', 'y'), undefined);
});
