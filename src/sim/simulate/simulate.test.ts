// simulate's timeline on a simulated clock: a step far in the future costs no more than a near one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfiguration } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { parseScenario } from '../scenario/scenario.js';
import { runSimulation } from './simulate.js';

const scenarioAfter = (after: string) => parseScenario(`
nodes:
- metadata: { name: n1 }
  status: { allocatable: { cpu: "2", memory: 4Gi, pods: "10" } }
pods:
- metadata: { name: big, namespace: default }
  spec: { nodeName: n1, containers: [{ name: c, image: x, resources: { requests: { cpu: "1500m" } } }] }
pending:
- metadata: { name: needs-cpu }
  spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] }
- metadata: { name: never }
  spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "3" } } }] }
steps:
- after: ${after}
  delete: [{ kind: Pod, namespace: default, name: big }]
`, 'long-after.yaml');

describe('simulate timeline', () => {
  const registry = inTreeRegistry();
  const opts = { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins };

  it('jumps to a step 100000000h away without stepping through the queue\'s periodic flushes', { timeout: 10_000 }, async () => {
    const report = await runSimulation(scenarioAfter('100000000h'), opts);
    const hours = 100_000_000 * 3600;
    const pods = Object.fromEntries(report.pods.map((p) => [p.pod, p]));
    assert.deepEqual([pods['default/needs-cpu']!.outcome, pods['default/needs-cpu']!.scheduledAt], ['Scheduled', hours]);
    assert.equal(pods['default/big']!.outcome, 'Deleted');
    assert.equal(pods['default/never']!.outcome, 'Unschedulable');
    assert.equal(report.summary.simulatedSeconds, hours);
  });

  it('gives the far step the outcome a near one gets, shifted in time', async () => {
    const near = await runSimulation(scenarioAfter('10m'), opts);
    const far = await runSimulation(scenarioAfter('100000000h'), opts);
    const strip = (r: typeof near) => r.pods.map(({ scheduledAt: _, ...p }) => p);
    assert.deepEqual(strip(far), strip(near));
  });
});
