// The embedded resourceclaim controller inside a simulation: claims appear after their pods with
// names fixed by the seed, and go when their pods go.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceClaim } from '../src/api/dra_types.js';
import { resolveConfiguration } from '../src/cli/configuration.js';
import { inTreeRegistry } from '../src/plugins/registry.js';
import { createEmbedded } from '../src/sim/scenario/embedded.js';
import { parseScenario } from '../src/sim/scenario/scenario.js';

const scenarioText = `objects:
- { apiVersion: resource.k8s.io/v1, kind: DeviceClass, metadata: { name: gpu.example.com } }
- { apiVersion: resource.k8s.io/v1, kind: ResourceClaimTemplate, metadata: { name: one-gpu }, spec: { spec: { devices: { requests: [{ name: gpu, exactly: { deviceClassName: gpu.example.com } }] } } } }
nodes:
- metadata: { name: n1 }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
pending:
- metadata: { name: trainer }
  spec: { containers: [{ name: c, image: x }], resourceClaims: [{ name: gpu, resourceClaimTemplateName: one-gpu }] }
`;

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>((r) => setImmediate(r));
}

async function run(seed: number) {
  const registry = inTreeRegistry();
  const sc = parseScenario(scenarioText, 'dra.yaml');
  const env = await createEmbedded(sc, { config: resolveConfiguration({ scenario: sc, registry }), registry, seed });
  for (const p of sc.pending) env.cluster.create(p);
  await settle();
  return env;
}

describe('resourceclaim controller in a simulation', () => {
  it('makes the pod\'s claim from its template, named the same for the same seed', async () => {
    const a = await run(5);
    const b = await run(5);
    const names = (env: Awaited<ReturnType<typeof run>>) => env.cluster.list<ResourceClaim>('ResourceClaim').map((c) => c.metadata.name);
    assert.equal(names(a).length, 1);
    assert.match(names(a)[0]!, /^trainer-gpu-[a-z0-9]{5}$/);
    assert.deepEqual(names(b), names(a));
    assert.deepEqual(a.cluster.getPod('default', 'trainer')!.status?.resourceClaimStatuses, [{ name: 'gpu', resourceClaimName: names(a)[0] }]);
    // The scheduler's informer view has the claim too.
    assert.equal(a.scheduler.objects.list('ResourceClaim').length, 1);
    a.scheduler.stop();
    b.scheduler.stop();
  });

  it('deletes the generated claim when its pod is deleted', async () => {
    const env = await run(1);
    await env.cluster.deletePod(env.cluster.getPod('default', 'trainer')!);
    await settle();
    assert.deepEqual(env.cluster.list('ResourceClaim'), []);
    assert.deepEqual(env.scheduler.objects.list('ResourceClaim'), []);
    env.scheduler.stop();
  });
});
