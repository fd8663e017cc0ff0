// DRA end to end on the pinned kube-apiserver: the project's DRA scenarios
// (test/fixtures/scenarios/dra/: GPU claims, extended resources backed by devices, DeviceTaintRules) replayed
// pod by pod, first under upstream's own kube-scheduler (which checks the replay against the
// harness's recording), then under our `run`, which must put every pod on the same node with the
// same devices as upstream and as our `simulate`. Skipped, saying why, when the control plane's
// binaries are not built.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveConfiguration } from '../../src/cli/configuration.js';
import { inTreeRegistry } from '../../src/plugins/registry.js';
import { loadScenario, type Scenario } from '../../src/sim/scenario/scenario.js';
import { runSimulation } from '../../src/sim/simulate/simulate.js';
import { compareScenario, heldDevices, maskGeneratedClaimNames, type ExplainPodWithClaims } from '../upstream/compare.js';
import { explainOurs } from '../upstream/ours.js';
import { binaries, Child, ControlPlane, missingBinaries } from './control_plane.js';
import { createCluster, replayPending, templateClaimName, type ReplayedPod } from './dra_replay.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const scenarioFiles = ['gpu-claims.yaml', 'extended-resources.yaml', 'device-taint-rules.yaml'];
const ours = 'kube-scheduler-ts';
const skip = missingBinaries();

const recordingOf = (path: string) => JSON.parse(readFileSync(path.replace(/\.yaml$/, '.expected.json'), 'utf8')) as { pods: ExplainPodWithClaims[] };

/** What upstream recorded, in the replay's shape. */
function expectedReplay(recorded: { pods: ExplainPodWithClaims[] }): ReplayedPod[] {
  return recorded.pods.map((p) => ({
    pod: p.pod,
    outcome: p.outcome === 'Scheduled' ? 'Scheduled' : 'Unschedulable',
    node: p.node,
    message: p.message,
    claims: p.claims ?? [],
    ...(p.extendedResourceDevices !== undefined ? { extendedResourceDevices: p.extendedResourceDevices } : {}),
  }));
}

/** A KubeSchedulerConfiguration file for a scheduler on the control plane, with the scenario's profile (JSON is YAML). */
function writeConfig(cp: ControlPlane, file: string, sc: Scenario, schedulerName: string): string {
  const profile = ((sc.config?.profiles ?? []) as Record<string, unknown>[])[0] ?? {};
  const path = join(cp.dir, file);
  writeFileSync(path, JSON.stringify({
    apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration',
    clientConnection: { kubeconfig: cp.kubeconfig }, leaderElection: { leaderElect: false },
    profiles: [{ ...profile, schedulerName }],
  }));
  return path;
}

describe('DRA under a real scheduler on the pinned kube-apiserver', { skip: skip ?? false, timeout: 1_200_000 }, () => {
  it('names claims of template entries as the harness does', () => {
    const recorded = recordingOf(join(root, 'test/fixtures/scenarios/dra/gpu-claims.yaml'));
    assert.equal(templateClaimName('default', 'trainer', 'gpus'), 'trainer-gpus-l2fr2');
    assert.equal(recorded.pods.find((p) => p.pod === 'default/trainer')?.claims?.[0]?.claim, 'trainer-gpus-l2fr2');
  });

  for (const file of scenarioFiles) {
    const scenarioPath = join(root, 'test/fixtures/scenarios/dra', file);
    const recorded = recordingOf(scenarioPath);

    it(`${file}: upstream kube-scheduler places every pod and device as the harness recorded`, async (t) => {
      const sc = loadScenario(scenarioPath);
      const cp = await ControlPlane.start();
      const upstream = new Child('kube-scheduler', binaries.kubeScheduler, [
        '--config', writeConfig(cp, 'upstream.yaml', sc, 'default-scheduler'),
        '--authentication-kubeconfig', cp.kubeconfig, '--authorization-kubeconfig', cp.kubeconfig, '--secure-port', '0',
      ]);
      try {
        await createCluster(cp, sc);
        // The extended-resources claim's generated name is the API server's own: compare without it.
        assert.deepEqual(maskGeneratedClaimNames(await replayPending(cp, sc, 'default-scheduler'), sc), maskGeneratedClaimNames(expectedReplay(recorded), sc));
      } catch (err) {
        t.diagnostic(`--- upstream kube-scheduler\n${upstream.tail()}\n${cp.logs()}`);
        throw err;
      } finally {
        await upstream.stop();
        await cp.stop();
      }
    });

    it(`${file}: run places every pod and device as upstream and as simulate do`, async (t) => {
      const sc = loadScenario(scenarioPath);
      const registry = inTreeRegistry();
      const simulated = await runSimulation(loadScenario(scenarioPath), { config: resolveConfiguration({ scenario: sc, registry }), registry, seed: 1 });
      const explained = await explainOurs(loadScenario(scenarioPath));

      const cp = await ControlPlane.start();
      const s = new Child('ours', process.execPath, ['--import', 'tsx', join(root, 'src/cli/bin.ts'), 'run', '--config', writeConfig(cp, 'ours.yaml', sc, ours), '--secure-port', '0', '-v=2']);
      try {
        await createCluster(cp, sc);
        const replayed = await replayPending(cp, sc, ours);
        // What `run` shows (outcome, node, message, devices) put over the recording, so the
        // differential comparison (known differences included) judges it.
        const seen = { pods: recorded.pods.map((u) => ({ ...u, ...replayed.find((r) => r.pod === u.pod) })) };
        const differing = compareScenario(sc, recorded, seen).filter((r) => r.diffs.length > 0);
        assert.deepEqual(differing, [], 'run against upstream\'s recording');
        // Our embedded resourceclaim controller picks its own five characters for generated claims.
        const ourClaims = maskGeneratedClaimNames(explained as { pods: ExplainPodWithClaims[] }, sc);
        for (const r of maskGeneratedClaimNames(replayed, sc)) {
          assert.equal(simulated.pods.find((p) => p.pod === r.pod)?.node ?? '', r.node, `${r.pod}: simulate's node`);
          const ourPod = ourClaims.pods.find((p) => p.pod === r.pod);
          assert.deepEqual(ourPod ? heldDevices(ourPod) : [], heldDevices(r), `${r.pod}: explain's devices`);
        }
      } catch (err) {
        t.diagnostic(`--- ours\n${s.tail()}\n${cp.logs()}`);
        throw err;
      } finally {
        await s.stop();
        await cp.stop();
      }
    });
  }
});

if (skip) console.log(`# DRA e2e skipped: ${skip}`);
