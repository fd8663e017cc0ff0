// applyMatchLabelKeysToAffinity mirrors kube-apiserver's mutatePodAffinity (pod strategy).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LabelSelector, Pod, PodAffinityTerm, WeightedPodAffinityTerm } from '../types.js';
import { applyMatchLabelKeysToAffinity } from './match_label_keys.js';

type Op = 'In' | 'NotIn' | 'Exists';

function sel(key: string, operator: Op, values: string[] = []): LabelSelector {
  return { matchExpressions: [{ key, operator, ...(operator === 'Exists' ? {} : { values }) }] };
}

function term(selector: LabelSelector | undefined, topologyKey: string, extra: Partial<PodAffinityTerm> = {}): PodAffinityTerm {
  return { ...(selector ? { labelSelector: selector } : {}), topologyKey, ...extra };
}

function weighted(weight: number, t: PodAffinityTerm): WeightedPodAffinityTerm {
  return { weight, podAffinityTerm: t };
}

interface Terms {
  labels?: Record<string, string>;
  affinity?: PodAffinityTerm[];
  antiAffinity?: PodAffinityTerm[];
  preferredAffinity?: WeightedPodAffinityTerm[];
}

function pod(name: string, o: Terms): Pod {
  const spec: Pod['spec'] = { containers: [{ name: 'c', image: 'pause' }] };
  if (o.affinity || o.preferredAffinity) {
    spec.affinity = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: o.affinity, preferredDuringSchedulingIgnoredDuringExecution: o.preferredAffinity } };
  }
  if (o.antiAffinity) spec.affinity = { ...spec.affinity, podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: o.antiAffinity } };
  return { metadata: { name, namespace: 'default', labels: o.labels ?? {} }, spec };
}

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
});
