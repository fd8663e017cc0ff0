import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/types.js';
import type { ResourceClaim, ResourceClaimTemplate } from '../../api/dra_types.js';
import { FakeClock, seededRandom } from '../../util/clock.js';
import { ApiError, type WatchEvent } from '../types.js';
import { MemoryCluster } from './store.js';
import { generateNameFor, PodResourceClaimAnnotation } from './resourceclaim_controller.js';
import { ClaimFinalizer } from '../../api/resourceclaim.js';
import { makePod } from '../../testing/builders.js';

/** Lets the controller's microtask passes run (no time passes on the fake clock). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}

function newCluster(seed = 7): MemoryCluster {
  return new MemoryCluster({ clock: new FakeClock(0), volumeController: false, random: seededRandom(seed) });
}

const template = (name: string, labels?: Record<string, string>): ResourceClaimTemplate => ({
  apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate',
  metadata: { name, namespace: 'default' },
  spec: { ...(labels ? { metadata: { labels, annotations: { team: 'a' } } } : {}), spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } } },
});

const claim = (name: string, extra: Partial<ResourceClaim> = {}): ResourceClaim => ({
  apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim',
  metadata: { name, namespace: 'default' },
  spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } },
  ...extra,
});

const pod = (name: string, entries: NonNullable<Pod['spec']['resourceClaims']>, nodeName?: string): Pod => makePod(name, { node: nodeName, spec: { resourceClaims: entries } });

const allocation = { devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-0' }] } };

describe('embedded resourceclaim controller', () => {
  it('creates a claim from the template after the pod, owned by it, and records it in the pod status', async () => {
    const c = newCluster();
    c.create(template('single-gpu', { app: 'x' }));
    const kinds: string[] = [];
    void c.start((e: WatchEvent) => kinds.push(`${e.type} ${e.kind}`));
    c.create(pod('p', [{ name: 'gpu', resourceClaimTemplateName: 'single-gpu' }]));
    await settle();
    const claims = c.list<ResourceClaim>('ResourceClaim');
    assert.equal(claims.length, 1);
    const made = claims[0]!;
    const p = c.getPod('default', 'p')!;
    assert.match(made.metadata.name!, /^p-gpu-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.equal(made.metadata.generateName, 'p-gpu-');
    assert.deepEqual(made.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: p.metadata.uid, controller: true }]);
    assert.deepEqual(made.metadata.annotations, { team: 'a', [PodResourceClaimAnnotation]: 'gpu' });
    assert.deepEqual(made.metadata.labels, { app: 'x' });
    // The template's spec as stored (defaulted: ExactCount, count 1).
    assert.deepEqual(made.spec, c.get<ResourceClaimTemplate>('ResourceClaimTemplate', 'default', 'single-gpu')!.spec.spec);
    assert.deepEqual(made.spec.devices?.requests?.[0]?.exactly, { deviceClassName: 'gpu.example.com', allocationMode: 'ExactCount', count: 1 });
    assert.deepEqual(p.status?.resourceClaimStatuses, [{ name: 'gpu', resourceClaimName: made.metadata.name }]);
    // The scheduler sees the pod first, then its claim, then the pod's status naming it.
    assert.deepEqual(kinds.slice(-3), ['ADDED Pod', 'ADDED ResourceClaim', 'MODIFIED Pod']);
  });

  it('names claims the same way for the same seed and differently for another', async () => {
    const names = async (seed: number) => {
      const c = newCluster(seed);
      c.create(template('t'));
      c.create(pod('p', [{ name: 'a', resourceClaimTemplateName: 't' }, { name: 'b', resourceClaimTemplateName: 't' }]));
      await settle();
      return c.getPod('default', 'p')!.status?.resourceClaimStatuses;
    };
    const first = await names(3);
    assert.deepEqual(await names(3), first);
    assert.notDeepEqual(await names(4), first);
    assert.deepEqual(first!.map((s) => s.name), ['a', 'b']);
  });

  it('is idle only once the pod\'s claim exists and the pod names it (what explain waits for)', async () => {
    const c = newCluster();
    c.create(template('t'));
    c.create(pod('p', [{ name: 'gpu', resourceClaimTemplateName: 't' }]));
    assert.equal(c.list('ResourceClaim').length, 0, 'not synchronously');
    await c.controllersIdle();
    assert.equal(c.list('ResourceClaim').length, 1);
    assert.equal(c.getPod('default', 'p')!.status?.resourceClaimStatuses?.length, 1);
  });

  it('waits for a missing template, reporting it on the pod, and creates the claim once it appears', async () => {
    const c = newCluster();
    c.create(pod('p', [{ name: 'gpu', resourceClaimTemplateName: 'later' }]));
    await settle();
    assert.equal(c.list('ResourceClaim').length, 0);
    const ev = c.recordedEvents.find((e) => e.reason === 'FailedResourceClaimCreation');
    assert.equal(ev?.note, 'PodResourceClaim gpu: resource claim template "later": resourceclaimtemplate.resource.k8s.io "later" not found');
    c.create(template('later'));
    await settle();
    assert.equal(c.list('ResourceClaim').length, 1);
    assert.equal(c.getPod('default', 'p')!.status?.resourceClaimStatuses?.length, 1);
  });

  it('leaves entries that name an existing claim alone', async () => {
    const c = newCluster();
    c.create(claim('shared'));
    c.create(pod('p', [{ name: 'gpu', resourceClaimName: 'shared' }]));
    await settle();
    assert.equal(c.list('ResourceClaim').length, 1);
    assert.equal(c.getPod('default', 'p')!.status?.resourceClaimStatuses, undefined);
  });

  it('releases a deleted pod\'s reservation, deallocates the claim and drops the finalizer', async () => {
    const c = newCluster();
    c.create(pod('user', [{ name: 'gpu', resourceClaimName: 'shared' }], 'node-1'));
    const uid = c.getPod('default', 'user')!.metadata.uid!;
    const stored = c.create(claim('shared', { metadata: { name: 'shared', namespace: 'default', finalizers: [ClaimFinalizer] } }));
    await c.updateResourceClaimStatus({ ...stored, status: { allocation, reservedFor: [{ resource: 'pods', name: 'user', uid }] } });
    await settle();
    assert.equal(c.get<ResourceClaim>('ResourceClaim', 'default', 'shared')!.status?.reservedFor?.length, 1, 'kept while the pod exists');
    await c.deletePod(c.getPod('default', 'user')!);
    await settle();
    const after = c.get<ResourceClaim>('ResourceClaim', 'default', 'shared')!;
    assert.equal(after.status?.reservedFor, undefined);
    assert.equal(after.status?.allocation, undefined);
    assert.equal(after.metadata.finalizers, undefined);
  });

  it('reserves an allocated claim for a pod bound without the scheduler', async () => {
    const c = newCluster();
    const stored = c.create(claim('shared'));
    await c.updateResourceClaimStatus({ ...stored, status: { allocation } });
    c.create(pod('bound', [{ name: 'gpu', resourceClaimName: 'shared' }], 'node-1'));
    await settle();
    const p = c.getPod('default', 'bound')!;
    assert.deepEqual(c.get<ResourceClaim>('ResourceClaim', 'default', 'shared')!.status?.reservedFor, [{ resource: 'pods', name: 'bound', uid: p.metadata.uid }]);
  });

  it('deletes a generated claim when its pod is deleted or has finished', async () => {
    for (const end of ['delete', 'succeed'] as const) {
      const c = newCluster();
      c.create(template('t'));
      c.create(pod('p', [{ name: 'gpu', resourceClaimTemplateName: 't' }]));
      await settle();
      const p = c.getPod('default', 'p')!;
      const name = p.status!.resourceClaimStatuses![0]!.resourceClaimName!;
      const made = c.get<ResourceClaim>('ResourceClaim', 'default', name)!;
      await c.updateResourceClaim({ ...made, metadata: { ...made.metadata, finalizers: [ClaimFinalizer] } });
      const withFinalizer = c.get<ResourceClaim>('ResourceClaim', 'default', name)!;
      await c.updateResourceClaimStatus({ ...withFinalizer, status: { allocation, reservedFor: [{ resource: 'pods', name: 'p', uid: p.metadata.uid! }] } });
      if (end === 'delete') await c.deletePod(p);
      else c.update<Pod>({ ...p, spec: { ...p.spec, nodeName: 'node-1' }, status: { ...p.status, phase: 'Succeeded' } });
      await settle();
      assert.equal(c.get('ResourceClaim', 'default', name), undefined, end);
    }
  });

  it('deletes the claim the scheduler made for a pod\'s extended resources when the pod ends', async () => {
    for (const end of ['delete', 'succeed'] as const) {
      const c = newCluster();
      c.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } });
      c.create<Pod>({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c' }] } });
      const p = c.getPod('default', 'p')!;
      // What DynamicResources' PreBind does: create the claim, allocate and reserve it, name it in the pod.
      const made = await c.createResourceClaim(claim('', {
        metadata: {
          namespace: 'default', generateName: 'p-extended-resources-', finalizers: [ClaimFinalizer],
          annotations: { 'resource.kubernetes.io/extended-resource-claim': 'true' },
          ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: p.metadata.uid!, controller: true }],
        },
      }));
      const name = made.metadata.name!;
      await c.updateResourceClaimStatus({ ...made, status: { allocation, reservedFor: [{ resource: 'pods', name: 'p', uid: p.metadata.uid! }] } });
      await c.bind(p, 'node-1');
      const requestMappings = [{ containerName: 'c', resourceName: 'example.com/gpu', requestName: 'container-0-request-0' }];
      await c.updatePodStatus(p, { extendedResourceClaimStatus: { requestMappings, resourceClaimName: name } });
      await settle();
      const bound = c.getPod('default', 'p')!;
      assert.deepEqual(bound.status?.extendedResourceClaimStatus, { requestMappings, resourceClaimName: name });
      assert.ok(c.get('ResourceClaim', 'default', name), `${end}: kept while the pod runs`);
      if (end === 'delete') await c.deletePod(bound);
      else c.update<Pod>({ ...bound, status: { ...bound.status, phase: 'Succeeded' } });
      await settle();
      assert.equal(c.get('ResourceClaim', 'default', name), undefined, end);
    }
  });

  it('makes a generated claim again when it was deleted while its pod still needs it', async () => {
    const c = newCluster();
    c.create(template('t'));
    c.create(pod('p', [{ name: 'gpu', resourceClaimTemplateName: 't' }]));
    await settle();
    const first = c.getPod('default', 'p')!.status!.resourceClaimStatuses![0]!.resourceClaimName!;
    await c.deleteResourceClaim('default', first);
    await settle();
    const second = c.getPod('default', 'p')!.status!.resourceClaimStatuses![0]!.resourceClaimName!;
    assert.notEqual(second, first);
    assert.ok(c.get('ResourceClaim', 'default', second));
  });

  it('shortens long generated names in proportion, as upstream', () => {
    assert.equal(generateNameFor('web', 'gpu'), 'web-gpu-');
    const long = generateNameFor('p'.repeat(50), 'c'.repeat(20));
    assert.ok(long.length <= 57, long);
    assert.equal(long, `${'p'.repeat(39)}-${'c'.repeat(15)}`);
  });
});

describe('embedded store: ResourceClaim writes', () => {
  it('writes only the status on the status subresource and refuses a stale version', async () => {
    const c = newCluster();
    const stored = c.create(claim('c1'));
    const changedSpec = { ...stored, spec: { devices: { requests: [] } }, metadata: { ...stored.metadata, labels: { x: 'y' } }, status: { allocation } };
    const written = await c.updateResourceClaimStatus(changedSpec);
    assert.deepEqual(written.spec, stored.spec);
    assert.equal(written.metadata.labels, undefined);
    assert.deepEqual(written.status, { allocation });
    await assert.rejects(c.updateResourceClaimStatus({ ...stored, status: {} }), (e: unknown) => e instanceof ApiError && e.code === 409
      && e.message === 'Operation cannot be fulfilled on resourceclaims.resource.k8s.io "c1": the object has been modified; please apply your changes to the latest version and try again');
    await assert.rejects(c.updateResourceClaimStatus(claim('missing')), (e: unknown) => e instanceof ApiError && e.code === 404);
  });

  it('keeps the stored status on a main-resource update', async () => {
    const c = newCluster();
    const stored = c.create(claim('c1'));
    const allocated = await c.updateResourceClaimStatus({ ...stored, status: { allocation } });
    const updated = await c.updateResourceClaim({ ...allocated, metadata: { ...allocated.metadata, finalizers: [ClaimFinalizer] }, status: undefined });
    assert.deepEqual(updated.status, { allocation });
    assert.deepEqual(updated.metadata.finalizers, [ClaimFinalizer]);
  });

  it('only marks a claim with finalizers as deleted until they are gone', async () => {
    const c = newCluster();
    c.create(claim('c1', { metadata: { name: 'c1', namespace: 'default', finalizers: ['example.com/keep'] } }));
    await c.deleteResourceClaim('default', 'c1');
    const marked = c.get<ResourceClaim>('ResourceClaim', 'default', 'c1')!;
    assert.ok(marked.metadata.deletionTimestamp);
    await c.updateResourceClaim({ ...marked, metadata: { ...marked.metadata, finalizers: [] } });
    assert.equal(c.get('ResourceClaim', 'default', 'c1'), undefined);
    await assert.rejects(c.deleteResourceClaim('default', 'c1'), (e: unknown) => e instanceof ApiError && e.code === 404);
  });

  it('refuses a status write the API server would refuse', async () => {
    const c = newCluster();
    const stored = c.create(claim('c1'));
    await assert.rejects(c.updateResourceClaimStatus({ ...stored, status: { reservedFor: [{ resource: 'pods', name: 'p', uid: 'u' }] } }), (e: unknown) =>
      e instanceof ApiError && e.code === 422
      && e.message === 'ResourceClaim.resource.k8s.io "c1" is invalid: status.reservedFor: Forbidden: may not be specified when `allocated` is not set');
    const allocated = await c.updateResourceClaimStatus({ ...stored, status: { allocation } });
    const other = { devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-1' }] } };
    await assert.rejects(c.updateResourceClaimStatus({ ...allocated, status: { allocation: other } }), (e: unknown) =>
      e instanceof ApiError && e.code === 422 && e.message.includes('status.allocation: Invalid value: ') && e.message.endsWith('field is immutable'));
  });

  it('fails an armed status write once, leaving the controller\'s own writes alone', async () => {
    const c = newCluster();
    const stored = c.create(claim('c1'));
    c.injectFault('updateResourceClaimStatus', 409, 1, 'conflict');
    await assert.rejects(c.updateResourceClaimStatus({ ...stored, status: { allocation } }), (e: unknown) => e instanceof ApiError && e.code === 409);
    assert.deepEqual((await c.updateResourceClaimStatus({ ...stored, status: { allocation } })).status, { allocation });
  });
});

describe('embedded store: deallocation drops device status', () => {
  it('removes the status of devices the write deallocates, as the status strategy does', async () => {
    const c = newCluster();
    const stored = c.create(claim('c1'));
    const withDevices = await c.updateResourceClaimStatus({ ...stored, status: { allocation, devices: [{ driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-0' }] } });
    assert.equal(withDevices.status?.devices?.length, 1);
    const deallocated = await c.updateResourceClaimStatus({ ...withDevices, status: { devices: withDevices.status!.devices } });
    assert.deepEqual(deallocated.status, {});
  });
});
