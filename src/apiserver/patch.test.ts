// Scenarios of upstream's strategic merge patch tests (strategicpatch/patch_test.go) and the RFCs'
// examples for merge and JSON patch, on the fields kubectl apply and the scheduler patch.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from './patch.js';
import { ServedStatusError } from './status.js';

describe('strategic merge patch', () => {
  const cases: { name: string; original: unknown; patch: unknown; want: unknown }[] = [
    {
      name: 'merges containers by name and keeps the fields the patch does not name',
      original: { spec: { containers: [{ name: 'a', image: 'a:1', ports: [{ containerPort: 80 }] }, { name: 'b', image: 'b:1' }] } },
      patch: { spec: { containers: [{ name: 'b', image: 'b:2' }] } },
      want: { spec: { containers: [{ name: 'a', image: 'a:1', ports: [{ containerPort: 80 }] }, { name: 'b', image: 'b:2' }] } },
    },
    {
      name: 'appends a container with a new name',
      original: { spec: { containers: [{ name: 'a', image: 'a:1' }] } },
      patch: { spec: { containers: [{ name: 'c', image: 'c:1' }] } },
      want: { spec: { containers: [{ name: 'a', image: 'a:1' }, { name: 'c', image: 'c:1' }] } },
    },
    {
      name: 'deletes a list item with $patch: delete',
      original: { spec: { containers: [{ name: 'a' }, { name: 'b' }] } },
      patch: { spec: { containers: [{ name: 'a', $patch: 'delete' }] } },
      want: { spec: { containers: [{ name: 'b' }] } },
    },
    {
      name: 'replaces lists without a merge key (tolerations are atomic)',
      original: { spec: { tolerations: [{ key: 'a', operator: 'Exists' }] } },
      patch: { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } },
      want: { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } },
    },
    {
      name: 'merges status conditions by type (the scheduler PodScheduled patch)',
      original: { status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }, { type: 'Ready', status: 'False' }] } },
      patch: { status: { conditions: [{ type: 'PodScheduled', status: 'True', reason: null }] } },
      want: { status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }, { type: 'Ready', status: 'False' }] } },
    },
    {
      name: 'deletes a field set to null and merges maps',
      original: { metadata: { labels: { a: '1', b: '2' }, annotations: { x: 'y' } } },
      patch: { metadata: { labels: { a: null, c: '3' } } },
      want: { metadata: { labels: { b: '2', c: '3' }, annotations: { x: 'y' } } },
    },
    {
      name: 'merges finalizers as a set and deletes from primitive lists',
      original: { metadata: { finalizers: ['a', 'b'] } },
      patch: { metadata: { finalizers: ['c', 'a'], '$deleteFromPrimitiveList/finalizers': ['b'] } },
      want: { metadata: { finalizers: ['a', 'c'] } },
    },
    {
      name: 'orders merged items as $setElementOrder says',
      original: { spec: { containers: [{ name: 'a' }, { name: 'b' }] } },
      patch: { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }], containers: [{ name: 'a', image: 'x' }] } },
      want: { spec: { containers: [{ name: 'b' }, { name: 'a', image: 'x' }] } },
    },
    {
      name: 'replaces a map with $patch: replace',
      original: { spec: { nodeSelector: { a: '1' } } },
      patch: { spec: { nodeSelector: { b: '2', $patch: 'replace' } } },
      want: { spec: { nodeSelector: { b: '2' } } },
    },
    {
      name: 'clears fields outside $retainKeys (volume sources)',
      original: { spec: { volumes: [{ name: 'v', emptyDir: {} }] } },
      patch: { spec: { volumes: [{ name: 'v', hostPath: { path: '/x' }, $retainKeys: ['hostPath', 'name'] }] } },
      want: { spec: { volumes: [{ name: 'v', hostPath: { path: '/x' } }] } },
    },
    {
      name: 'merges pod template containers of workloads',
      original: { spec: { template: { spec: { containers: [{ name: 'a', image: '1' }] } } } },
      patch: { spec: { template: { spec: { containers: [{ name: 'a', image: '2' }] } } } },
      want: { spec: { template: { spec: { containers: [{ name: 'a', image: '2' }] } } } },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(applyStrategicMergePatch(c.original, c.patch), c.want);
    });
  }
});

describe('JSON merge patch (RFC 7386)', () => {
  it('merges objects, deletes nulls and replaces arrays', () => {
    assert.deepEqual(applyMergePatch({ a: 'b', c: { d: 'e', f: 'g' }, l: [1, 2] }, { a: 'z', c: { f: null }, l: [3] }), { a: 'z', c: { d: 'e' }, l: [3] });
  });
});

describe('JSON patch (RFC 6902)', () => {
  it('adds, replaces, removes, moves, copies and tests', () => {
    const doc = { metadata: { labels: { a: '1' } }, list: [1, 2] };
    const out = applyJsonPatch(doc, [
      { op: 'add', path: '/metadata/labels/b~1c', value: '2' },
      { op: 'replace', path: '/metadata/labels/a', value: '9' },
      { op: 'add', path: '/list/-', value: 3 },
      { op: 'remove', path: '/list/0' },
      { op: 'copy', from: '/list', path: '/copy' },
      { op: 'move', from: '/copy', path: '/moved' },
      { op: 'test', path: '/moved/1', value: 3 },
    ]);
    assert.deepEqual(out, { metadata: { labels: { a: '9', 'b/c': '2' } }, list: [2, 3], moved: [2, 3] });
    assert.deepEqual(doc.list, [1, 2], 'the original is not changed');
  });

  it('rejects a failing test and a missing path with 400', () => {
    assert.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }]), (e) => e instanceof ServedStatusError && e.code === 400);
    assert.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'remove', path: '/b' }]), (e) => e instanceof ServedStatusError && e.code === 400);
  });
});
