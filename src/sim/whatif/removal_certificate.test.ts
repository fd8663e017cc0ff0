// The fit certificate of capacity --removable: a node whose pods fit enough other nodes is
// removable by room alone; each condition outside its argument sends the node to the scheduler.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../api/types.js';
import { configFromObject, defaultConfiguration } from '../../config/index.js';
import type { Extender } from '../../framework/extender.js';
import { Registry } from '../../framework/registry.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { removableNodes } from './capacity.js';
import type { Scenario } from '../scenario/scenario.js';

const registry = inTreeRegistry();
const opts = { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins };

const node = (name: string, i: number, extra: Partial<Node> = {}): Node => ({
  ...makeNode(name, { labels: { 'topology.kubernetes.io/zone': `z${i % 2}` }, allocatable: { cpu: '4', memory: '16Gi', pods: '110', 'example.com/gpu': '4' } }),
  ...extra,
});

/** A bound pod on node a: 1 cpu, labelled app=web, with `spec` merged in. */
const podOnA = (name: string, spec: Partial<Pod['spec']> = {}): Pod => makePod(name, { node: 'a', labels: { app: 'web' }, requests: { cpu: '1', memory: '1Gi' }, spec });

/** Four nodes over two zones; node a holds `pods`. */
const cluster = (pods: Pod[], objects: Scenario['objects'] = [], nodes = ['a', 'b', 'c', 'd'].map((n, i) => node(n, i))): Scenario =>
  ({ name: 'certificate', metadata: {}, config: null, objects, nodes, pods, pending: [], steps: [] });

const inZ0 = { 'topology.kubernetes.io/zone': 'z0' };
const webTerm = { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'other' } } };
const gpu = { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '1', 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } } }] };
const gpuClass = { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: 'gpu' }, spec: { extendedResourceName: 'example.com/gpu' } };

/** How node a's removal is decided, and whether it is removable. */
async function decisionForA(sc: Scenario, o: Parameters<typeof removableNodes>[1] = opts): Promise<[string, boolean]> {
  const [a] = await removableNodes(sc, { ...o, nodes: ['a'] });
  return [a!.decidedBy, a!.removable];
}

describe('capacity --removable: the certificate decides simple pods, the scheduler the rest', () => {
  const cases: { name: string; pods: Pod[]; objects?: Scenario['objects']; want: [string, boolean] }[] = [
    { name: 'a plain pod with room elsewhere', pods: [podOnA('p')], want: ['room', true] },
    { name: 'preferred anti-affinity and a ScheduleAnyway spread only score', want: ['room', true], pods: [podOnA('p', {
      affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: webTerm }] } },
      topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } }],
    })] },
    { name: 'required anti-affinity', want: ['scheduler', true],
      pods: [podOnA('p', { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [webTerm] } } })] },
    { name: 'required affinity', want: ['scheduler', false],
      pods: [podOnA('p', { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [webTerm] } } })] },
    { name: 'a DoNotSchedule spread constraint', want: ['scheduler', true],
      pods: [podOnA('p', { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }] })] },
    { name: 'a claimed volume', want: ['scheduler', false], pods: [podOnA('p', { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] })] },
    { name: 'an inline volume a storage plugin counts', want: ['scheduler', true], pods: [podOnA('p', { volumes: [{ name: 'disk', gcePersistentDisk: { pdName: 'disk-1' } }] })] },
    { name: 'an extended resource when a DeviceClass exists', want: ['scheduler', true], objects: [gpuClass], pods: [podOnA('p', gpu)] },
    { name: 'an extended resource without DeviceClasses', want: ['room', true], pods: [podOnA('p', gpu)] },
    // Zone z0 is a and c: the second pod needs two nodes with room besides a, and c takes both.
    { name: 'two pods with room on one other node only', want: ['scheduler', true],
      pods: [podOnA('p1', { nodeSelector: inZ0 }), podOnA('p2', { nodeSelector: inZ0 })] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      assert.deepEqual(await decisionForA(cluster(c.pods, c.objects)), c.want);
    });
  }

  it('gives each pod its own node with room', async () => {
    const [a] = await removableNodes(cluster([podOnA('p1'), podOnA('p2'), podOnA('p3')]), { ...opts, nodes: ['a'] });
    assert.equal(a!.decidedBy, 'room');
    assert.deepEqual(a!.pods.map((p) => p.pod), ['default/p1', 'default/p2', 'default/p3']);
    assert.deepEqual(new Set(a!.pods.map((p) => p.node)), new Set(['b', 'c', 'd']));
  });

  it('a profile whose PodTopologySpread defaults to a DoNotSchedule constraint', async () => {
    const config = configFromObject({
      apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration',
      profiles: [{ pluginConfig: [{ name: 'PodTopologySpread', args: { defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule' }] } }] }],
    }, 'hard-defaults', registry);
    assert.deepEqual(await decisionForA(cluster([podOnA('p')]), { ...opts, config }), ['scheduler', true]);
  });

  it('a profile with an out-of-tree Filter plugin', async () => {
    const withPicky = registry.merge(new Registry([{ name: 'Picky', factory: () => ({ name: 'Picky', filter: () => null }) }]));
    const config = configFromObject({
      apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration',
      profiles: [{ plugins: { filter: { enabled: [{ name: 'Picky' }] } } }],
    }, 'picky', withPicky);
    assert.deepEqual(await decisionForA(cluster([podOnA('p')]), { ...opts, registry: withPicky, config }), ['scheduler', true]);
  });

  it('a scheduler with an extender', async () => {
    const unused = (): never => { throw new Error('not interested in any pod'); };
    const extender: Extender = {
      name: () => 'fake', isIgnorable: () => false, isInterested: () => false, isFilter: () => true, isPrioritizer: () => false,
      isBinder: () => false, supportsPreemption: () => false, filter: unused, prioritize: unused, bind: unused, processPreemption: unused,
    };
    assert.deepEqual(await decisionForA(cluster([podOnA('p')]), { ...opts, extenders: [extender] }), ['scheduler', true]);
  });

  it('--placements asks the scheduler for every node', async () => {
    assert.deepEqual(await decisionForA(cluster([podOnA('p')]), { ...opts, placements: true }), ['scheduler', true]);
  });
});
