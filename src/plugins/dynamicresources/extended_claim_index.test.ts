// PreFilter's look for the extended-resources claim an earlier attempt created: the index by
// owner answers as upstream's scan over every claim, through adds, updates and deletions.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/types.js';
import type { ResourceClaim } from '../../api/dra_types.js';
import { MapObjectLister } from '../../framework/object_lister.js';
import { ExtendedResourceClaimAnnotation } from '../../dra/device_class_resolver.js';
import { ExtendedResourceClaimIndex, findExtendedResourceClaim } from './extended_resources.js';

const pod = (name: string, uid: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', uid }, spec: { containers: [] } });

function claim(name: string, owner: { name: string; uid: string; controller?: boolean }, o: { annotated?: boolean; version?: string } = {}): ResourceClaim {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: {
      name,
      namespace: 'ns',
      resourceVersion: o.version ?? '1',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: owner.name, uid: owner.uid, controller: owner.controller ?? true }],
      ...(o.annotated === false ? {} : { annotations: { [ExtendedResourceClaimAnnotation]: 'true' } }),
    },
    spec: {},
  };
}

const pods = [pod('a', 'uid-a'), pod('b', 'uid-b'), pod('c', 'uid-c')];

/** The index's answer for every pod equals the scan over the lister's list. */
function assertAsScan(index: ExtendedResourceClaimIndex, lister: MapObjectLister, step: string): void {
  for (const p of pods) {
    const want = findExtendedResourceClaim(p, lister.list<ResourceClaim>('ResourceClaim'));
    assert.equal(index.find(p), want, `${step}: pod ${p.metadata.name}`);
  }
}

describe('ExtendedResourceClaimIndex', () => {
  it("answers as the scan over every claim through the claims' changes", () => {
    const lister = new MapObjectLister();
    const index = new ExtendedResourceClaimIndex(lister);
    lister.upsert(claim('plain', { name: 'a', uid: 'uid-a' }, { annotated: false }));
    lister.upsert(claim('a-1', { name: 'a', uid: 'uid-a' }));
    assertAsScan(index, lister, 'built from the list');
    assert.equal(index.find(pods[0]!)?.metadata.name, 'a-1');
    lister.upsert(claim('a-2', { name: 'a', uid: 'uid-a' }));
    lister.upsert(claim('b-1', { name: 'b', uid: 'uid-b', controller: false }));
    lister.upsert(claim('other-uid', { name: 'c', uid: 'uid-old' }));
    assertAsScan(index, lister, 'added');
    lister.upsert(claim('a-1', { name: 'a', uid: 'uid-a' }, { version: '2' }));
    assertAsScan(index, lister, 'an update keeps its place');
    assert.equal(index.find(pods[0]!)?.metadata.resourceVersion, '2');
    lister.upsert(claim('a-1', { name: 'a', uid: 'uid-a' }, { annotated: false, version: '3' }));
    assertAsScan(index, lister, 'the annotation dropped');
    assert.equal(index.find(pods[0]!)?.metadata.name, 'a-2');
    lister.upsert(claim('b-1', { name: 'b', uid: 'uid-b' }, { version: '2' }));
    assertAsScan(index, lister, 'now controlled by its pod');
    lister.remove(claim('a-2', { name: 'a', uid: 'uid-a' }));
    assertAsScan(index, lister, 'deleted');
    assert.equal(index.find(pods[0]!), undefined);
    lister.notifyChange('ResourceClaim');
    lister.upsert(claim('c-1', { name: 'c', uid: 'uid-c' }));
    assertAsScan(index, lister, 'rebuilt after a change it was not told');
  });

  it('scans the list when the lister tells no changes', () => {
    const claims = [claim('a-1', { name: 'a', uid: 'uid-a' })];
    const index = new ExtendedResourceClaimIndex({ list: <T,>() => claims as unknown as T[], get: () => undefined });
    assert.equal(index.find(pods[0]!), claims[0]);
    claims.push(claim('b-1', { name: 'b', uid: 'uid-b' }));
    assert.equal(index.find(pods[1]!), claims[1]);
  });
});
