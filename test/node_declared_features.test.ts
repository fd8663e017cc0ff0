// The default profile's NodeDeclaredFeatures end to end: a scenario's nodes declare features,
// and simulate and explain keep pods that need one off the nodes that do not declare it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { admitPod } from '../src/cluster/memory/admission.js';
import { resolveConfiguration } from '../src/cli/configuration.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../src/plugins/registry.js';
import { runExplain } from '../src/sim/explain/explain.js';
import { parseScenario } from '../src/sim/scenario/scenario.js';
import { runSimulation } from '../src/sim/simulate/simulate.js';

// n2 has more room, so LeastAllocated would pick it; only n1 declares the feature.
const scenario = parseScenario(`
nodes:
  - metadata: { name: n1 }
    status:
      allocatable: { cpu: "2", memory: 4Gi, pods: "10" }
      declaredFeatures: [RestartAllContainersOnContainerExits]
  - metadata: { name: n2 }
    status:
      allocatable: { cpu: "16", memory: 64Gi, pods: "10" }
pending:
  - metadata: { name: restarts-all, namespace: default }
    spec:
      containers:
        - name: c
          image: x
          restartPolicyRules: [{ action: RestartAllContainers, exitCodes: { operator: In, values: [42] } }]
  - metadata: { name: plain, namespace: default }
    spec:
      containers: [{ name: c, image: x }]
  - metadata: { name: host-network-userns, namespace: default }
    spec:
      hostNetwork: true
      hostUsers: false
      containers: [{ name: c, image: x }]
  - metadata: { name: bind-mount, namespace: default }
    spec:
      volumes: [{ name: v, emptyDir: {} }]
      containers: [{ name: c, image: x, volumeMounts: [{ name: v, mountPath: /v, bindMountOptions: [nosymfollow] }] }]
`, 'declared-features.yaml');

function options() {
  const registry = inTreeRegistry();
  return { config: resolveConfiguration({ scenario, registry }), registry, notYetAvailable: notYetAvailablePlugins, admitPod };
}

describe('NodeDeclaredFeatures in the default profile', () => {
  it('simulate places a pod only where its required features are declared', async () => {
    const report = await runSimulation(scenario, options());
    assert.deepEqual(report.pods.map((p) => [p.pod, p.outcome, p.node]), [
      ['default/restarts-all', 'Scheduled', 'n1'],
      ['default/plain', 'Scheduled', 'n2'],
      ['default/host-network-userns', 'Unschedulable', ''],
      // kube-apiserver drops bindMountOptions while VolumeBindMountOptions is off: nothing to require.
      ['default/bind-mount', 'Scheduled', 'n2'],
    ]);
  });

  it('explain names the plugin and upstream\'s reason on every node lacking a feature', async () => {
    const { pods } = await runExplain(scenario, { ...options(), tieBreakByName: true, diagnose: true });
    const userns = pods.find((p) => p.pod === 'default/host-network-userns')!;
    assert.equal(userns.message, "0/2 nodes are available: 2 node(s) didn't match Pod's required features. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
    assert.deepEqual(userns.filter.n1, { plugin: 'NodeDeclaredFeatures', code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match Pod's required features"] });
    const restartsAll = pods.find((p) => p.pod === 'default/restarts-all')!;
    assert.deepEqual(Object.keys(restartsAll.filter), ['n2']);
  });
});
