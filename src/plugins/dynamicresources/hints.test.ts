// Queueing hints of DynamicResources, cases after upstream's TestIsSchedulableAfterClaimChange and
// TestIsSchedulableAfterPodChange.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/types.js';
import type { ResourceClaim } from '../../api/dra_types.js';
import { QueueingHint } from '../../framework/events.js';
import { claimEventPodIndex, isSchedulableAfterClaimChange, isSchedulableAfterTargetPodUpdate } from './hints.js';
import type { ClaimGetter } from './pod_claims.js';
import { allocatedClaim, generatedClaim, pendingClaim, podWithClaimName, podWithTemplate } from './test_helpers.js';

const getterOf = (claims: ResourceClaim[]): ClaimGetter => (ns, name) => claims.find((x) => x.metadata.namespace === ns && x.metadata.name === name);

const pod = podWithClaimName('my-pod', 'my-claim');
const claim = pendingClaim('my-claim');
const allocated = allocatedClaim('my-claim', 'worker', ['dev-0']);
const other = pendingClaim('other');
const otherAllocated = allocatedClaim('other', 'worker', ['dev-0']);
const elsewhere: ResourceClaim = { ...claim, metadata: { ...claim.metadata, namespace: 'other', uid: 'uid-elsewhere' } };
const templated = podWithTemplate('my-pod', 'my-pod-my-resource');
const generated = generatedClaim(templated, 'my-pod-my-resource');
const withFinalizer: ResourceClaim = { ...claim, metadata: { ...claim.metadata, finalizers: ['some-driver/cleanup'] } };

describe('isSchedulableAfterClaimChange', () => {
  const cases: { name: string; pod: Pod; known: ResourceClaim[]; oldObj?: ResourceClaim; newObj?: ResourceClaim; want: QueueingHint }[] = [
    { name: 'deleting a claim without allocation frees nothing', pod, known: [claim], oldObj: claim, want: QueueingHint.QueueSkip },
    { name: 'deleting an allocated claim frees its devices', pod, known: [claim], oldObj: otherAllocated, want: QueueingHint.Queue },
    { name: 'a change while another claim of the pod is still missing does not help', pod, known: [], newObj: other, want: QueueingHint.QueueSkip },
    { name: 'an unrelated new claim does not help', pod, known: [claim, other], newObj: other, want: QueueingHint.QueueSkip },
    { name: 'the pod\'s claim being created helps', pod, known: [claim], newObj: claim, want: QueueingHint.Queue },
    { name: 'a driver adding its finalizer (status unchanged) does not help', pod, known: [withFinalizer], oldObj: claim, newObj: withFinalizer, want: QueueingHint.QueueSkip },
    { name: 'a status change of the pod\'s claim helps', pod, known: [allocated], oldObj: claim, newObj: allocated, want: QueueingHint.Queue },
    { name: 'any claim being deallocated helps', pod, known: [claim, other], oldObj: otherAllocated, newObj: other, want: QueueingHint.Queue },
    { name: 'a claim of the same name in another namespace does not help', pod, known: [claim, elsewhere], newObj: elsewhere, want: QueueingHint.QueueSkip },
    { name: 'a generated claim recorded in the pod\'s status being created helps', pod: templated, known: [generated], newObj: generated, want: QueueingHint.Queue },
    { name: 'a deallocation does not help a pod whose generated claim is not created yet', pod: podWithTemplate('my-pod', undefined), known: [claim, other], oldObj: otherAllocated, newObj: other, want: QueueingHint.QueueSkip },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(isSchedulableAfterClaimChange(getterOf(c.known), c.pod, c.oldObj, c.newObj), c.want);
    });
  }
  it('the queue index rules out only pods the hint skips (EventPodIndex contract)', () => {
    let narrowed = 0;
    for (const c of cases) {
      const eventKeys = claimEventPodIndex.eventKeys(c.oldObj, c.newObj);
      if (eventKeys === null) continue;
      const podKeys = claimEventPodIndex.podKeys(c.pod);
      if (eventKeys.some((k) => podKeys.includes(k))) continue;
      narrowed++;
      assert.equal(isSchedulableAfterClaimChange(getterOf(c.known), c.pod, c.oldObj, c.newObj), QueueingHint.QueueSkip, c.name);
    }
    assert.equal(narrowed, 4);
  });
  it('the queue index keys: a pod by the claims it names, an event by its claim, or every pod when devices were freed', () => {
    assert.deepEqual(claimEventPodIndex.podKeys(pod), ['default/my-claim']);
    assert.deepEqual(claimEventPodIndex.podKeys(templated), ['default/my-pod-my-resource']);
    assert.deepEqual(claimEventPodIndex.podKeys(podWithTemplate('my-pod', undefined)), []);
    assert.deepEqual(claimEventPodIndex.eventKeys(undefined, elsewhere), ['other/my-claim']);
    assert.deepEqual(claimEventPodIndex.eventKeys(claim, undefined), []);
    assert.equal(claimEventPodIndex.eventKeys(otherAllocated, undefined), null);
    assert.equal(claimEventPodIndex.eventKeys(otherAllocated, other), null);
  });
});

// A gang member whose template entry is the PodGroup's (DRAWorkloadResourceClaims): upstream's hint
// resolves the member's claims from the pod alone (resourceclaim.Name reads its
// status.resourceClaimStatuses), never through the PodGroup object, and accepts a claim its group
// controls only with the gate (resourceclaim.IsForPod's acceptPodGroupOwner).
describe('isSchedulableAfterClaimChange for a gang member sharing its PodGroup\'s claim', () => {
  const member = podWithTemplate('member-0', 'gang-gpu-abcde');
  member.spec.schedulingGroup = { podGroupName: 'gang' };
  const groupClaim = (group: string, status: 'pending' | 'allocated'): ResourceClaim => {
    const c = status === 'pending' ? pendingClaim('gang-gpu-abcde') : allocatedClaim('gang-gpu-abcde', 'worker', ['dev-0']);
    c.metadata.ownerReferences = [{ apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', name: group, uid: `uid-${group}`, controller: true }];
    return c;
  };
  const cases: { name: string; gate: boolean; pod?: Pod; oldObj?: ResourceClaim; newObj: ResourceClaim; want: QueueingHint }[] = [
    { name: 'the group\'s claim created: queue', gate: true, newObj: groupClaim('gang', 'pending'), want: QueueingHint.Queue },
    { name: 'the group\'s claim allocated (status changed): queue', gate: true, oldObj: groupClaim('gang', 'pending'), newObj: groupClaim('gang', 'allocated'), want: QueueingHint.Queue },
    { name: 'gate off: a claim the group controls is not the pod\'s, skip', gate: false, oldObj: groupClaim('gang', 'pending'), newObj: groupClaim('gang', 'allocated'), want: QueueingHint.QueueSkip },
    { name: 'a claim another PodGroup controls is not the member\'s, skip', gate: true, oldObj: groupClaim('other', 'pending'), newObj: groupClaim('other', 'allocated'), want: QueueingHint.QueueSkip },
    { name: 'a member whose status names no claim yet is not resolved through its PodGroup: skip', gate: true, pod: { ...podWithTemplate('member-0', undefined), spec: member.spec }, newObj: groupClaim('gang', 'pending'), want: QueueingHint.QueueSkip },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(isSchedulableAfterClaimChange(getterOf([c.newObj]), c.pod ?? member, c.oldObj, c.newObj, c.gate), c.want);
    });
  }
});

describe('isSchedulableAfterTargetPodUpdate', () => {
  const waiting = podWithTemplate('my-pod', undefined);
  const ready = podWithTemplate('my-pod', 'my-pod-my-resource');
  const cases: { name: string; known: ResourceClaim[]; newPod: Pod; want: QueueingHint }[] = [
    { name: 'the generated claim is recorded and exists: queue', known: [generatedClaim(ready, 'my-pod-my-resource')], newPod: ready, want: QueueingHint.Queue },
    { name: 'the generated claim is recorded but not in the informer yet: wait for the claim event', known: [], newPod: ready, want: QueueingHint.QueueSkip },
    { name: 'still no claim recorded: skip', known: [], newPod: waiting, want: QueueingHint.QueueSkip },
    { name: 'another pod\'s update is not this pod\'s', known: [generatedClaim(ready, 'my-pod-my-resource')], newPod: podWithTemplate('other', 'my-pod-my-resource', 'other-uid'), want: QueueingHint.QueueSkip },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(isSchedulableAfterTargetPodUpdate(getterOf(c.known), waiting, waiting, c.newPod), c.want);
    });
  }
});
