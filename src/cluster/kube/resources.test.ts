// Which kinds `run` watches: the gated ones only with their gate on, in delivery order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { watchedResources, watchedResourcesFor } from './resources.js';

test('PodGroups are watched with GenericWorkload on, before the pods that name them', () => {
  const kinds = (gates: readonly string[]) => watchedResourcesFor((g) => gates.includes(g) || g === 'DRADeviceTaintRules').map((r) => r.kind);
  const on = kinds(['GenericWorkload']);
  assert.ok(on.includes('PodGroup'));
  assert.ok(on.indexOf('PodGroup') < on.indexOf('Pod'));
  assert.equal(on.find((k) => k === 'PodGroup') && watchedResourcesFor(() => true).find((r) => r.kind === 'PodGroup')?.path, '/apis/scheduling.k8s.io/v1beta1/podgroups');
  assert.ok(!kinds([]).includes('PodGroup'));
  assert.ok(!watchedResources.some((r) => r.kind === 'PodGroup'));
  assert.ok(watchedResources.some((r) => r.kind === 'DeviceTaintRule'));
});
