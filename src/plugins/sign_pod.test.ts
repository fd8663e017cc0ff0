// The in-tree plugins' signPod as upstream's (KEP-5598): which pod fields make two pods' signatures
// differ, which are ignored, and which plugins refuse to sign a pod.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../api/types.js';
import { configFromObject, defaultConfiguration } from '../config/index.js';
import { PodInfo } from '../framework/pod_info.js';
import type { Framework } from '../framework/runtime/framework.js';
import { createEmbedded } from '../sim/scenario/embedded.js';
import type { Scenario } from '../sim/scenario/scenario.js';
import { inTreeRegistry, notYetAvailablePlugins } from './registry.js';

const registry = inTreeRegistry();
// An out-of-tree Filter plugin written before signPod existed.
registry.register({ name: 'Unsigned', factory: () => ({ name: 'Unsigned', filter: () => null }) });
const empty: Scenario = { name: 'sign', nodes: [], pods: [], objects: [], pending: [], steps: [] } as unknown as Scenario;

async function profile(config: unknown): Promise<Framework> {
  const resolved = config === null ? defaultConfiguration(registry) : configFromObject(config, 'sign', registry);
  const env = await createEmbedded(empty, { config: resolved, registry, notYetAvailable: notYetAvailablePlugins });
  return env.scheduler.profiles.get('default-scheduler')!;
}

const listDefaulting = (ipaArgs: Record<string, unknown> = {}) => ({
  apiVersion: 'kubescheduler.config.k8s.io/v1',
  kind: 'KubeSchedulerConfiguration',
  profiles: [{
    schedulerName: 'default-scheduler',
    pluginConfig: [
      { name: 'PodTopologySpread', args: { defaultingType: 'List' } },
      ...(Object.keys(ipaArgs).length > 0 ? [{ name: 'InterPodAffinity', args: ipaArgs }] : []),
    ],
  }],
});

function base(): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', labels: { app: 'web' }, uid: 'u1' },
    spec: {
      containers: [{ name: 'c', image: 'web:latest', resources: { requests: { cpu: '1', memory: '1Gi' } } }],
      tolerations: [{ key: 'b', operator: 'Exists' }, { key: 'a', operator: 'Equal', value: 'x', effect: 'NoSchedule' }],
      volumes: [{ name: 'cfg', configMap: { name: 'cfg' } }],
    },
  };
}

const sign = (f: Framework, p: Pod) => f.podSigner!.signPod(new PodInfo(p));

describe('signPod', () => {
  it('signs no pod under the default profile: PodTopologySpread has system default constraints', async () => {
    const f = await profile(null);
    assert.equal(f.podSigner!.enabled, true);
    assert.equal(sign(f, base()), null);
  });

  const same: [string, (p: Pod) => void][] = [
    ['another name and uid', (p) => (p.metadata = { ...p.metadata, name: 'q', uid: 'u2' })],
    ['tolerations in another order', (p) => p.spec.tolerations!.reverse()],
    ['another ConfigMap or Secret volume', (p) => (p.spec.volumes = [{ name: 's', secret: { secretName: 's' } }])],
    ['the image without its implied :latest', (p) => (p.spec.containers[0]!.image = 'web')],
    ['the same total requests split over two containers', (p) => (p.spec.containers = [
      { name: 'c', image: 'web', resources: { requests: { cpu: '500m', memory: '1Gi' } } },
      { name: 'd', image: 'web', resources: { requests: { cpu: '500m' } } },
    ])],
  ];
  const different: [string, (p: Pod) => void][] = [
    ['more cpu', (p) => (p.spec.containers[0]!.resources = { requests: { cpu: '2', memory: '1Gi' } })],
    ['another image', (p) => (p.spec.containers[0]!.image = 'web:2')],
    ['another toleration', (p) => p.spec.tolerations!.push({ key: 'c', operator: 'Exists' })],
    ['a node selector', (p) => (p.spec.nodeSelector = { zone: 'a' })],
    ['node affinity', (p) => (p.spec.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } } })],
    ['a host port', (p) => (p.spec.containers[0]!.ports = [{ containerPort: 80, hostPort: 8080 }])],
    ['a PVC volume', (p) => p.spec.volumes!.push({ name: 'data', persistentVolumeClaim: { claimName: 'data' } })],
    ['another label (InterPodAffinity reads existing pods\' preferred terms)', (p) => (p.metadata.labels = { app: 'db' })],
    ['another scheduler name', (p) => (p.spec.schedulerName = 'other')],
    ['a nodeName', (p) => (p.spec.nodeName = 'n1')],
    ['a required node feature (host network without host users)', (p) => Object.assign(p.spec, { hostNetwork: true, hostUsers: false })],
  ];

  it('gives equal pods one signature whatever their order of fields, names or ConfigMaps', async () => {
    const f = await profile(listDefaulting());
    const want = sign(f, base());
    assert.notEqual(want, null);
    for (const [name, change] of same) {
      const p = base();
      change(p);
      assert.equal(sign(f, p), want, name);
    }
  });

  it('tells pods apart by every field a Filter or Score plugin reads', async () => {
    const f = await profile(listDefaulting());
    const want = sign(f, base());
    for (const [name, change] of different) {
      const p = base();
      change(p);
      const got = sign(f, p);
      assert.notEqual(got, null, name);
      assert.notEqual(got, want, name);
    }
  });

  it('ignores labels when InterPodAffinity ignores existing pods\' preferred terms', async () => {
    const f = await profile(listDefaulting({ ignorePreferredTermsOfExistingPods: true }));
    const p = base();
    p.metadata.labels = { app: 'db' };
    assert.equal(sign(f, p), sign(f, base()));
  });

  const unsignable: [string, (p: Pod) => void][] = [
    ['pod affinity', (p) => (p.spec.affinity = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: {} }] } })],
    ['pod anti-affinity', (p) => (p.spec.affinity = { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } })],
    ['topology spread constraints', (p) => (p.spec.topologySpreadConstraints = [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }])],
    ['resource claims', (p) => (p.spec.resourceClaims = [{ name: 'gpu', resourceClaimName: 'gpu' }])],
  ];
  it('refuses pods whose verdicts depend on other pods or on devices', async () => {
    const f = await profile(listDefaulting());
    for (const [name, change] of unsignable) {
      const p = base();
      change(p);
      assert.equal(sign(f, p), null, name);
    }
  });

  it('signs nothing in a profile with a Filter plugin that cannot sign, or with extenders', async () => {
    const cfg = listDefaulting();
    const withUnsigned = { ...cfg, profiles: [{ ...cfg.profiles[0]!, plugins: { filter: { enabled: [{ name: 'Unsigned' }] } } }] };
    const f = await profile(withUnsigned);
    assert.equal(f.podSigner!.disabledBecause, 'plugins do not support it: Unsigned');
    assert.equal(sign(f, base()), null);
    const ext = { ...cfg, extenders: [{ urlPrefix: 'http://127.0.0.1:1', filterVerb: 'filter' }] };
    assert.equal((await profile(ext)).podSigner!.disabledBecause, 'it has extenders configured');
  });
});
