// The API server's matchLabelKeys merging (api/admission) seen from InterPodAffinity: once merged,
// the scheduler keeps revisions of one app apart.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyMatchLabelKeysToAffinity } from '../../api/admission/match_label_keys.js';
import { PodInfo } from '../../framework/pod_info.js';
import { node, pod, sel, setup, term } from './test_helpers.js';

describe('matchLabelKeys merged at admission', () => {
  it('makes the scheduler keep replica sets apart once merged', () => {
    // Two revisions of one app: anti-affinity by app plus matchLabelKeys pod-template-hash only
    // repels pods of the same revision.
    const anti = [term(sel('app', 'In', ['web']), 'kubernetes.io/hostname', { matchLabelKeys: ['pod-template-hash'] })];
    const incoming = applyMatchLabelKeysToAffinity(pod('new', { labels: { app: 'web', 'pod-template-hash': 'v2' }, antiAffinity: anti }));
    const oldRevision = pod(null, { node: 'n1', labels: { app: 'web', 'pod-template-hash': 'v1' } });
    const sameRevision = pod(null, { node: 'n2', labels: { app: 'web', 'pod-template-hash': 'v2' } });
    const nodes = [node('n1', { 'kubernetes.io/hostname': 'n1' }), node('n2', { 'kubernetes.io/hostname': 'n2' })];
    const { plugin, handle, state } = setup([oldRevision, sameRevision], nodes);
    const pi = new PodInfo(incoming);
    assert.equal(plugin.preFilter(state, pi, handle.snapshot.list()).status, null);
    assert.equal(plugin.filter(state, pi, handle.snapshot.get('n1')!), null);
    assert.notEqual(plugin.filter(state, pi, handle.snapshot.get('n2')!), null);
  });
});
