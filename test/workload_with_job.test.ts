// WorkloadWithJob end to end over the embedded cluster: a Job's pods form the gang its Workload
// describes and are scheduled all or nothing; without the gate they go one by one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultConfiguration } from '../src/config/index.js';
import { FeatureGates } from '../src/config/feature_gates.js';
import { inTreeRegistry } from '../src/plugins/registry.js';
import { parseScenario } from '../src/sim/scenario/scenario.js';
import { runSimulation } from '../src/sim/simulate/simulate.js';

/** Two 4-GPU nodes and a Job of three 2-GPU workers asking for a gang of `minCount`. */
const scenario = (parallelism: number, gpusPerWorker: number) => parseScenario(`
controllers: true
nodes:
- metadata: { name: n1 }
  status: { allocatable: { cpu: "8", memory: 16Gi, pods: "10", example.com/gpu: "4" } }
- metadata: { name: n2 }
  status: { allocatable: { cpu: "8", memory: 16Gi, pods: "10", example.com/gpu: "4" } }
objects:
- apiVersion: batch/v1
  kind: Job
  metadata: { name: train, namespace: default }
  spec:
    parallelism: ${parallelism}
    completions: ${parallelism}
    scheduling: { schedulingPolicy: { gang: {} } }
    template:
      spec:
        restartPolicy: Never
        containers: [{ name: w, image: trainer, resources: { requests: { example.com/gpu: "${gpusPerWorker}" }, limits: { example.com/gpu: "${gpusPerWorker}" } } }]
`, 'job-gang.yaml');

async function outcomes(gates: string, parallelism: number, gpus: number): Promise<string[]> {
  const registry = inTreeRegistry();
  const report = await runSimulation(scenario(parallelism, gpus), {
    config: defaultConfiguration(registry), registry, featureGates: FeatureGates.parse([gates]),
  });
  return report.pods.filter((p) => p.pod.startsWith('default/train-')).map((p) => p.outcome).sort();
}

describe('WorkloadWithJob: a Job scheduled as the gang its Workload describes', () => {
  it('a gang that fits whole is scheduled', async () => {
    assert.deepEqual(await outcomes('GenericWorkload=true,WorkloadWithJob=true', 4, 2), ['Scheduled', 'Scheduled', 'Scheduled', 'Scheduled']);
  });

  it('a gang that does not fit whole places none of its pods', async () => {
    assert.deepEqual(await outcomes('GenericWorkload=true,WorkloadWithJob=true', 3, 3), ['Unschedulable', 'Unschedulable', 'Unschedulable']);
  });

  it('without WorkloadWithJob the same Job\'s pods go one by one', async () => {
    assert.deepEqual(await outcomes('GenericWorkload=true', 3, 3), ['Scheduled', 'Scheduled', 'Unschedulable']);
  });
});
