// The DRA manager is the scheduler's, handed to every plugin of every profile through the Handle:
// what one plugin records there (an allocation in flight) another sees, in-tree or out-of-tree.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Handle, Plugin, PreEnqueuePlugin } from '../src/framework/interfaces.js';
import { Registry, type PluginDefinition } from '../src/framework/registry.js';
import { configFromObject } from '../src/config/index.js';
import { inTreeRegistry } from '../src/plugins/registry.js';
import { createEmbedded } from '../src/sim/scenario/embedded.js';
import { makeNode } from '../src/testing/builders.js';
import { scenario } from '../src/testing/scenario.js';

it('every plugin of every profile gets the same shared DRA manager from the Handle', async () => {
  const handles: Handle[] = [];
  const probe: PluginDefinition = {
    name: 'DraProbe',
    factory: (_args, handle): Plugin & PreEnqueuePlugin => {
      handles.push(handle);
      return { name: 'DraProbe', preEnqueue: () => null };
    },
  };
  const registry = inTreeRegistry().merge(new Registry([probe]));
  const profile = (schedulerName: string) => ({ schedulerName, plugins: { preEnqueue: { enabled: [{ name: 'DraProbe' }] } } });
  const config = configFromObject({
    apiVersion: 'kubescheduler.config.k8s.io/v1',
    kind: 'KubeSchedulerConfiguration',
    profiles: [profile('first'), profile('second')],
  }, 'test', registry);
  const stored = { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'c', namespace: 'default', uid: 'u1' }, spec: { devices: { requests: [] } } };
  await createEmbedded(scenario().withNodes(makeNode('n')).withObjects(stored).build(), { config, registry });
  assert.equal(handles.length, 2);
  const [a, b] = handles.map((h) => h.sharedDRAManager?.() ?? null);
  assert.ok(a && b);
  assert.equal(a, b);
  const uid = a.claims.mustGet('default', 'c').metadata.uid!;
  const claim = { ...a.claims.mustGet('default', 'c'), status: { allocation: { devices: { results: [] } } } };
  a.claims.signalClaimPendingAllocation(uid, claim);
  assert.deepEqual(b.claims.getPendingAllocation(uid), claim.status.allocation);
});
