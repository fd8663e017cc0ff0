// A live cluster's objects as a scenario: which unbound pods are ours, and the order a starting
// kube-scheduler would queue them in.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../api/types.js';
import { scenarioFromObjects } from './imported_scenario.js';

const namespace = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const pod = (namespace: string, name: string, created: string, spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, creationTimestamp: created },
  spec: { containers: [{ name: 'c', image: 'x' }], ...spec },
} as KubeObject);

describe('scenarioFromObjects', () => {
  it('queues pending pods in storage key order (namespace/name as bytes), not creation order', () => {
    // Listed in creation order, as a dump might hold them; "a-x/" sorts before "a/" ('-' < '/').
    const objects = [
      namespace('a'), namespace('a-x'), namespace('b'),
      pod('b', 'p1', '2026-01-01T00:00:01Z'),
      pod('a', 'p3', '2026-01-01T00:00:02Z'),
      pod('a-x', 'p2', '2026-01-01T00:00:03Z'),
      pod('default', 'p0', '2026-01-01T00:00:04Z'),
      pod('a', 'p10', '2026-01-01T00:00:05Z'),
    ];
    const { scenario } = scenarioFromObjects(objects, 'cluster', ['default-scheduler']);
    assert.deepEqual(scenario.pending.map((p) => `${p.metadata.namespace}/${p.metadata.name}`), ['a-x/p2', 'a/p10', 'a/p3', 'b/p1', 'default/p0']);
  });

  it("leaves out unbound pods of other schedulers and keeps every bound pod as load", () => {
    const objects = [
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { allocatable: { cpu: '4', memory: '8Gi', pods: '10' } } } as KubeObject,
      pod('default', 'theirs', '2026-01-01T00:00:01Z', { schedulerName: 'other' }),
      pod('default', 'bound', '2026-01-01T00:00:02Z', { schedulerName: 'other', nodeName: 'n1' }),
      pod('default', 'ours', '2026-01-01T00:00:03Z', { schedulerName: 'what-if' }),
    ];
    const { scenario, otherSchedulersPods } = scenarioFromObjects(objects, 'cluster', ['what-if']);
    assert.equal(otherSchedulersPods, 1);
    assert.deepEqual(scenario.pods.map((p) => p.metadata.name), ['bound']);
    assert.deepEqual(scenario.pending.map((p) => p.metadata.name), ['ours']);
  });
});
