// The shared assume cache: what get returns while an object is assumed, and the events its
// handlers hear (assume_cache_test.go of pkg/scheduler/util/assumecache).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PersistentVolume, PersistentVolumeClaim } from '../api/types.js';
import { AssumeCache } from './assume_cache.js';
import type { ObjectLister } from './interfaces.js';
import { MapObjectLister } from './object_lister.js';

const pvc = (name: string, rv: string, volumeName = ''): PersistentVolumeClaim => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name, namespace: 'ns', resourceVersion: rv },
  spec: volumeName ? { volumeName } : {},
});
const pv = (name: string, rv: string): PersistentVolume => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name, resourceVersion: rv }, spec: {} });

type Seen = [string | undefined, string | undefined];
/** A handler recording each event as [old resourceVersion, new resourceVersion]. */
function recorder(): { seen: Seen[]; handler: (o: PersistentVolumeClaim | undefined, n: PersistentVolumeClaim | undefined) => void } {
  const seen: Seen[] = [];
  return { seen, handler: (o, n) => seen.push([o?.metadata?.resourceVersion, n?.metadata?.resourceVersion]) };
}

describe('AssumeCache', () => {
  it('keys namespaced objects by namespace/name and volumes by name', () => {
    const lister = new MapObjectLister([pvc('c', '1'), pv('v', '1')]);
    assert.equal(new AssumeCache<PersistentVolumeClaim>(lister, 'PersistentVolumeClaim').get('ns/c')?.metadata?.name, 'c');
    assert.equal(new AssumeCache<PersistentVolume>(lister, 'PersistentVolume').get('v')?.metadata?.name, 'v');
  });

  it('serves an assumed object until the informer has a newer version', () => {
    const lister = new MapObjectLister([pvc('c', '1')]);
    const cache = new AssumeCache<PersistentVolumeClaim>(lister, 'PersistentVolumeClaim');
    const assumed = pvc('c', '2', 'v');
    cache.assume(assumed);
    assert.equal(cache.get('ns/c'), assumed);
    assert.equal(cache.getAPIObj('ns/c')?.metadata?.resourceVersion, '1');
    lister.upsert(pvc('c', '2'));
    assert.equal(cache.get('ns/c'), assumed, 'the same version does not replace the assumption');
    const newer = pvc('c', '3');
    lister.upsert(newer);
    assert.equal(cache.get('ns/c'), newer);
    assert.deepEqual(cache.list(), [newer]);
  });

  it('refuses an assumption older than what it holds or of an object it does not hold, and restores the informer\'s object', () => {
    const stored = pvc('c', '5');
    const cache = new AssumeCache<PersistentVolumeClaim>(new MapObjectLister([stored]), 'PersistentVolumeClaim');
    assert.throws(() => cache.assume(pvc('c', '4')), /PersistentVolumeClaim "ns\/c" is out of sync \(stored: 5, assume: 4\)/);
    assert.throws(() => cache.assume(pvc('other', '1')), /could not find PersistentVolumeClaim "ns\/other"/);
    cache.assume(pvc('c', '6', 'v'));
    cache.restore('ns/c');
    assert.equal(cache.get('ns/c'), stored);
  });

  it('forgets an assumption when the informer deletes the object', () => {
    const lister = new MapObjectLister([pvc('c', '1')]);
    const cache = new AssumeCache<PersistentVolumeClaim>(lister, 'PersistentVolumeClaim');
    cache.assume(pvc('c', '2'));
    lister.remove(pvc('c', '1'));
    assert.equal(cache.get('ns/c'), undefined);
    lister.upsert(pvc('c', '1'));
    assert.equal(cache.get('ns/c')?.metadata?.resourceVersion, '1', 'a recreated object starts without the old assumption');
  });

  it('tells handlers every change of a latest object, starting with what it holds', () => {
    const lister = new MapObjectLister([pvc('a', '1')]);
    const cache = new AssumeCache<PersistentVolumeClaim>(lister, 'PersistentVolumeClaim');
    const { seen, handler } = recorder();
    cache.addEventHandler(handler);
    lister.upsert(pvc('b', '1')); // informer add
    cache.assume(pvc('b', '2')); // assume
    lister.upsert(pvc('b', '2')); // the write arrives: nothing visible changes
    lister.upsert(pvc('b', '3')); // newer than the assumption
    cache.assume(pvc('a', '4'));
    cache.restore('ns/a'); // back to the informer's
    cache.restore('ns/a'); // nothing assumed: no event
    cache.assume(pvc('a', '5'));
    lister.remove(pvc('a', '1')); // deletion of an assumed object: the assumed one goes
    lister.upsert(pv('v', '1')); // another kind
    assert.deepEqual(seen, [
      [undefined, '1'],
      [undefined, '1'],
      ['1', '2'],
      ['2', '3'],
      ['1', '4'],
      ['4', '1'],
      ['1', '5'],
      ['5', undefined],
    ]);
  });

  it('refuses handlers when the lister cannot report changes', () => {
    const lister: ObjectLister = { list: () => [], get: () => undefined };
    const cache = new AssumeCache<PersistentVolumeClaim>(lister, 'PersistentVolumeClaim');
    assert.throws(() => cache.addEventHandler(() => {}), /needs an object lister with change notifications/);
  });
});
