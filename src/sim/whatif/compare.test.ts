// compare: one scenario under several configurations, summarized and diffed pod by pod.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { configFromObject, defaultConfiguration } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { compareVariants } from './compare.js';
import { loadScenario, parseScenario } from '../scenario/scenario.js';
import { FeatureGates } from '../../config/feature_gates.js';
import { fileURLToPath } from 'node:url';

const registry = inTreeRegistry();
const base = { registry, notYetAvailable: notYetAvailablePlugins };
const packing = configFromObject({
  apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration',
  profiles: [{ schedulerName: 'default-scheduler', pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 1 }] } } }] }],
}, 'packing', registry);

const node = (n: string) => `\n- metadata: { name: ${n}, labels: { kubernetes.io/hostname: ${n} } }\n  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "110" } }`;
const pod = (n: string, cpu: string) => `\n- metadata: { name: ${n} }\n  spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "${cpu}" } } }] }`;
const scenario = () => parseScenario(`nodes:${node('a')}${node('b')}${node('c')}\npending:${pod('p1', '1')}${pod('p2', '1')}${pod('p3', '1')}${pod('big', '5')}\n`, 'cmp.yaml');

describe('compare', () => {
  it('spreading and packing: nodes used, spread, fragmentation, and the pods that moved', async () => {
    const c = await compareVariants(scenario(), [
      { name: 'spread', options: { ...base, config: defaultConfiguration(registry) } },
      { name: 'pack', options: { ...base, config: packing } },
    ]);
    const [spread, pack] = c.variants;
    assert.deepEqual([spread!.nodesUsed, pack!.nodesUsed], [3, 1]);
    assert.ok(spread!.cpu.stddev < pack!.cpu.stddev, 'packing leaves the nodes unevenly used');
    assert.deepEqual([spread!.freeCpu, pack!.freeCpu], [
      { total: 9000, largest: 3000, fragmentation: 1 - 3000 / 9000 },
      { total: 9000, largest: 4000, fragmentation: 1 - 4000 / 9000 },
    ]);
    assert.deepEqual(spread!.reasons, [{ message: '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.', pods: 1 }]);
    assert.equal(c.pods, 4);
    assert.ok(c.differences.every((d) => d.pod !== 'default/big'), 'the pod left out under both is no difference');
    assert.ok(c.differences.length >= 2);
    for (const d of c.differences) assert.equal(d.fates.length, 2);
  });

  it('the same configuration twice differs in nothing (one seed for all)', async () => {
    const cfg = defaultConfiguration(registry);
    const c = await compareVariants(scenario(), [{ name: 'x', options: { ...base, config: cfg } }, { name: 'y', options: { ...base, config: cfg } }]);
    assert.deepEqual(c.differences, []);
  });

  it('counts the pod groups each configuration places (gangs all or nothing)', async () => {
    const gates = { ...base, featureGates: FeatureGates.parse(['GenericWorkload=true']) };
    const sc = loadScenario(fileURLToPath(new URL('../../../scenarios/workload-gangs.yaml', import.meta.url)));
    const c = await compareVariants(sc, [{ name: 'spread', options: { ...gates, config: defaultConfiguration(registry) } }]);
    assert.deepEqual(c.variants[0]!.groups, { total: 5, placed: 3, notPlaced: 2 });
    const plain = await compareVariants(scenario(), [{ name: 'x', options: { ...base, config: defaultConfiguration(registry) } }]);
    assert.equal(plain.variants[0]!.groups, undefined);
  });
});
