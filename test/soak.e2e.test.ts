// The soak's short version: two leader-elected `run` replicas (separate processes of the built CLI)
// against the embedded API server behind the fault-injecting proxy, a couple of thousand pods.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quickSoak, renderSoakReport, runSoak } from './soak/soak.js';

test('soak (short): under injected faults no pod is lost, none is bound twice, no node goes over allocatable', { timeout: 200_000 }, async () => {
  const report = await runSoak({ ...quickSoak, pods: 2000, maxSeconds: 150 });
  const summary = renderSoakReport(report);
  assert.ok(report.podsCreated === 2000, summary);
  assert.equal(report.podsBoundTwice, 0, summary);
  assert.equal(report.nodesOverAllocatable, 0, summary);
  assert.equal(report.podsLost, 0, summary);
  assert.ok(report.disruptions.outage + report.disruptions.sigkill + report.disruptions.sigterm + report.disruptions.burst > 0, `no fault was injected:\n${summary}`);
});
