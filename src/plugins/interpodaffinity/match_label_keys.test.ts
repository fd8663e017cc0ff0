// applyMatchLabelKeysToAffinity mirrors kube-apiserver's mutatePodAffinity (pod strategy).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/types.js';
import { PodInfo } from '../../framework/pod_info.js';
import { applyMatchLabelKeysToAffinity } from './match_label_keys.js';
import { pod, sel, setup, term, weighted, node } from './test_helpers.js';

const labels = { app: 'web', 'pod-template-hash': 'abc', tenant: 't1' };

describe('applyMatchLabelKeysToAffinity', () => {
  it('adds In requirements for matchLabelKeys and NotIn for mismatchLabelKeys', () => {
    const p = pod('p', {
      labels,
      affinity: [term(sel('app', 'In', ['web']), 'zone', { matchLabelKeys: ['pod-template-hash'] })],
      antiAffinity: [term(sel('app', 'Exists'), 'zone', { mismatchLabelKeys: ['tenant'] })],
    });
    const out = applyMatchLabelKeysToAffinity(p);
    assert.deepEqual(out.spec.affinity!.podAffinity!.requiredDuringSchedulingIgnoredDuringExecution![0]!.labelSelector, {
      matchExpressions: [
        { key: 'app', operator: 'In', values: ['web'] },
        { key: 'pod-template-hash', operator: 'In', values: ['abc'] },
      ],
    });
    assert.deepEqual(out.spec.affinity!.podAntiAffinity!.requiredDuringSchedulingIgnoredDuringExecution![0]!.labelSelector, {
      matchExpressions: [
        { key: 'app', operator: 'Exists' },
        { key: 'tenant', operator: 'NotIn', values: ['t1'] },
      ],
    });
    // The keys stay on the term, as the API server keeps them.
    assert.deepEqual(out.spec.affinity!.podAffinity!.requiredDuringSchedulingIgnoredDuringExecution![0]!.matchLabelKeys, ['pod-template-hash']);
  });

  it('handles preferred terms and keeps matchLabels', () => {
    const p = pod('p', {
      labels,
      preferredAffinity: [weighted(10, term({ matchLabels: { app: 'web' } }, 'zone', { matchLabelKeys: ['tenant'], mismatchLabelKeys: ['pod-template-hash'] }))],
    });
    const t = applyMatchLabelKeysToAffinity(p).spec.affinity!.podAffinity!.preferredDuringSchedulingIgnoredDuringExecution![0]!;
    assert.equal(t.weight, 10);
    assert.deepEqual(t.podAffinityTerm.labelSelector, {
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tenant', operator: 'In', values: ['t1'] },
        { key: 'pod-template-hash', operator: 'NotIn', values: ['abc'] },
      ],
    });
  });

  it('skips keys the pod does not carry and terms without a labelSelector', () => {
    const p = pod('p', {
      labels,
      affinity: [term(sel('app', 'In', ['web']), 'zone', { matchLabelKeys: ['missing'] }), term(undefined, 'zone', { matchLabelKeys: ['app'] })],
    });
    const terms = applyMatchLabelKeysToAffinity(p).spec.affinity!.podAffinity!.requiredDuringSchedulingIgnoredDuringExecution!;
    assert.deepEqual(terms[0]!.labelSelector, { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] });
    assert.equal(terms[1]!.labelSelector, undefined);
  });

  it('returns the same pod when there is nothing to merge and never changes its input', () => {
    const plain = pod('p', { labels, affinity: [term(sel('app', 'In', ['web']), 'zone')] });
    assert.equal(applyMatchLabelKeysToAffinity(plain), plain);
    const noAffinity: Pod = pod('q', { labels });
    assert.equal(applyMatchLabelKeysToAffinity(noAffinity), noAffinity);

    const p = pod('p', { labels, affinity: [term(sel('app', 'In', ['web']), 'zone', { matchLabelKeys: ['tenant'] })] });
    const before = JSON.stringify(p);
    applyMatchLabelKeysToAffinity(p);
    assert.equal(JSON.stringify(p), before);
  });

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
