// The embedded resourceclaim controller with claims shared by a PodGroup (DRAWorkloadResourceClaims):
// cases after upstream's controller_test.go (TestSyncHandler's PodGroup cases), in our words.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PodGroup } from '../../api/scheduling.js';
import type { Pod } from '../../api/types.js';
import type { ResourceClaim, ResourceClaimTemplate } from '../../api/dra_types.js';
import { FakeClock, seededRandom } from '../../util/clock.js';
import { MemoryCluster } from './store.js';
import { PodResourceClaimAnnotation } from './resourceclaim_controller.js';
import { makePod } from '../../testing/builders.js';

async function settle(): Promise<void> {
  for (let i = 0; i < 8; i++) await new Promise<void>((r) => setImmediate(r));
}

function newCluster(gate: boolean): MemoryCluster {
  return new MemoryCluster({
    clock: new FakeClock(0),
    volumeController: false,
    random: seededRandom(7),
    gates: { genericWorkload: true, draWorkloadResourceClaims: gate },
  });
}

const template: ResourceClaimTemplate = {
  apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate',
  metadata: { name: 'gpu-template', namespace: 'default' },
  spec: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } } },
};

const podGroup = (entries: NonNullable<PodGroup['spec']['resourceClaims']> = [{ name: 'gpu', resourceClaimTemplateName: 'gpu-template' }]): PodGroup => ({
  apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup',
  metadata: { name: 'pg', namespace: 'default' },
  spec: { schedulingPolicy: { gang: { minCount: 2 } }, resourceClaims: entries },
});

const member = (name: string, entry: { resourceClaimTemplateName?: string; resourceClaimName?: string } = { resourceClaimTemplateName: 'gpu-template' }): Pod =>
  makePod(name, { spec: { schedulingGroup: { podGroupName: 'pg' }, resourceClaims: [{ name: 'gpu', ...entry }] } });

describe('embedded resourceclaim controller: PodGroup claims', () => {
  it('makes one claim for the group from its template, owned by the group, and every matching member uses it', async () => {
    const c = newCluster(true);
    c.create(template);
    const pg = c.create(podGroup()) as PodGroup;
    c.create(member('a'));
    c.create(member('b'));
    await settle();
    const claims = c.list<ResourceClaim>('ResourceClaim');
    assert.equal(claims.length, 1, 'one claim for the group, none per pod');
    const made = claims[0]!;
    assert.match(made.metadata.name!, /^pg-gpu-[a-z0-9]{5}$/);
    assert.equal(made.metadata.generateName, 'pg-gpu-');
    assert.deepEqual(made.metadata.ownerReferences, [{ apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', name: 'pg', uid: pg.metadata.uid, controller: true }]);
    assert.equal(made.metadata.annotations?.[PodResourceClaimAnnotation], 'gpu');
    const stored = c.get<PodGroup>('PodGroup', 'default', 'pg')!;
    assert.deepEqual(stored.status?.resourceClaimStatuses, [{ name: 'gpu', resourceClaimName: made.metadata.name }]);
    for (const p of ['a', 'b']) assert.deepEqual(c.getPod('default', p)!.status?.resourceClaimStatuses, [{ name: 'gpu', resourceClaimName: made.metadata.name }]);
  });

  it('a member whose entry differs from the group\'s gets a claim of its own', async () => {
    const c = newCluster(true);
    c.create(template);
    c.create({ ...template, metadata: { name: 'other', namespace: 'default' } });
    c.create(podGroup());
    c.create(member('a', { resourceClaimTemplateName: 'other' }));
    await settle();
    const owners = c.list<ResourceClaim>('ResourceClaim').map((x) => x.metadata.ownerReferences?.[0]?.kind).sort();
    assert.deepEqual(owners, ['Pod', 'PodGroup']);
  });

  it('with the gate off the PodGroup\'s claims are dropped at admission and each member gets its own', async () => {
    const c = newCluster(false);
    c.create(template);
    c.create(podGroup());
    assert.equal(c.get<PodGroup>('PodGroup', 'default', 'pg')!.spec.resourceClaims, undefined);
    c.create(member('a'));
    c.create(member('b'));
    await settle();
    const claims = c.list<ResourceClaim>('ResourceClaim');
    assert.deepEqual(claims.map((x) => x.metadata.ownerReferences?.[0]?.kind), ['Pod', 'Pod']);
  });

  it('a missing template is a FailedResourceClaimCreation event on the group; the template\'s arrival makes the claim', async () => {
    const c = newCluster(true);
    c.create(podGroup());
    c.create(member('a'));
    await settle();
    assert.equal(c.list<ResourceClaim>('ResourceClaim').length, 0);
    const ev = c.recordedEvents.find((e) => e.regarding.kind === 'PodGroup');
    assert.equal(ev?.reason, 'FailedResourceClaimCreation');
    assert.equal(ev?.note, 'PodGroupResourceClaim gpu: resource claim template "gpu-template": resourceclaimtemplate.resource.k8s.io "gpu-template" not found');
    c.create(template);
    await settle();
    const made = c.list<ResourceClaim>('ResourceClaim');
    assert.equal(made.length, 1);
    assert.deepEqual(c.getPod('default', 'a')!.status?.resourceClaimStatuses, [{ name: 'gpu', resourceClaimName: made[0]!.metadata.name }]);
  });

  it('a bound member of a group holding the reservation is not added to reservedFor; the group\'s deletion releases and deletes the claim', async () => {
    const c = newCluster(true);
    c.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } });
    c.create(template);
    const pg = c.create(podGroup()) as PodGroup;
    c.create(member('a'));
    await settle();
    const made = c.list<ResourceClaim>('ResourceClaim')[0]!;
    const reservation = { apiGroup: 'scheduling.k8s.io', resource: 'podgroups', name: 'pg', uid: pg.metadata.uid! };
    c.writeResourceClaimStatus({ ...made, status: { allocation: { devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'n', device: 'd' }] } }, reservedFor: [reservation] } });
    await c.bind(c.getPod('default', 'a')!, 'node-1');
    await settle();
    assert.deepEqual(c.get<ResourceClaim>('ResourceClaim', 'default', made.metadata.name!)!.status?.reservedFor, [reservation]);
    c.remove('PodGroup', 'default', 'pg');
    await settle();
    assert.equal(c.get<ResourceClaim>('ResourceClaim', 'default', made.metadata.name!), undefined);
  });
});
