// Our own test cases as upstream scheduler_perf configs (own_config.ts): what bench:upstream hands
// the misc topic's binary.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { ownTestCases } from '../../src/bench/own_workloads.js';
import { writeOwnConfig } from './own_config.js';

function ownCase(name: string) {
  const found = ownTestCases.find((t) => t.name === name);
  assert.ok(found, name);
  return found;
}

describe('our test cases written for upstream scheduler_perf', () => {
  it('writes the device-plugin GPU cluster with upstream\'s shared templates and ours beside the config', () => {
    const root = mkdtempSync(join(tmpdir(), 'own-config-'));
    try {
      const schedulerPerf = join(root, 'scheduler_perf');
      mkdirSync(join(schedulerPerf, 'templates'), { recursive: true });
      const written = writeOwnConfig(ownCase('GPUClusterDevicePlugin'), join(root, 'run'), schedulerPerf);
      assert.ok('dir' in written, JSON.stringify(written));
      assert.equal(written.topic, 'misc');
      const [testCase] = parse(readFileSync(join(written.dir, 'performance-config.yaml'), 'utf8')) as [{ name: string; workloadTemplate: Record<string, unknown>[]; workloads: { name: string; params: Record<string, number> }[] }];
      assert.equal(testCase.name, 'GPUClusterDevicePlugin');
      assert.deepEqual(testCase.workloadTemplate.map((op) => [op.opcode, op.nodeTemplatePath ?? op.podTemplatePath]), [
        ['createNodes', 'ours/node-with-8-gpus.yaml'],
        ['createPods', 'ours/pod-with-one-gpu.yaml'],
        ['createPods', 'ours/pod-with-one-gpu.yaml'],
      ]);
      const node = parse(readFileSync(join(written.dir, 'ours', 'node-with-8-gpus.yaml'), 'utf8')) as { status: { capacity: Record<string, string> } };
      assert.equal(node.status.capacity['nvidia.com/gpu'], '8');
      assert.equal(testCase.workloadTemplate[2]!.collectMetrics, true);
      assert.ok(testCase.workloads.some((w) => w.params.initNodes === 1000));
      const pod = parse(readFileSync(join(written.dir, 'ours', 'pod-with-one-gpu.yaml'), 'utf8')) as { spec: { containers: { resources: { requests: Record<string, string> } }[] } };
      assert.equal(pod.spec.containers[0]!.resources.requests['nvidia.com/gpu'], '1');
      assert.equal(readlinkSync(join(root, 'run', 'templates')), join(schedulerPerf, 'templates'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('writes the DRA GPU cluster for the dra topic, with its templates linked', () => {
    const root = mkdtempSync(join(tmpdir(), 'own-config-'));
    try {
      const schedulerPerf = join(root, 'scheduler_perf');
      mkdirSync(join(schedulerPerf, 'dra', 'templates'), { recursive: true });
      const written = writeOwnConfig(ownCase('GPUClusterClaimTemplate'), join(root, 'run'), schedulerPerf);
      assert.ok('dir' in written, JSON.stringify(written));
      assert.equal(written.topic, 'dra');
      const [testCase] = parse(readFileSync(join(written.dir, 'performance-config.yaml'), 'utf8')) as [{ featureGates: Record<string, boolean>; workloadTemplate: Record<string, unknown>[] }];
      assert.deepEqual(testCase.featureGates, { DynamicResourceAllocation: true }, 'the gate that makes scheduler_perf run the claim controller');
      assert.deepEqual(testCase.workloadTemplate.map((op) => op.nodeTemplatePath ?? op.templatePath ?? op.podTemplatePath), [
        'templates/node-with-dra-test-driver.yaml', 'templates/resourceslice-basic-devices.yaml', 'templates/deviceclass.yaml',
        'templates/resourceclaimtemplate.yaml', 'templates/pod-with-claim-template.yaml',
      ]);
      assert.deepEqual(testCase.workloadTemplate[1]!.templateParams, { numDevices: '$devicesPerNode' });
      assert.equal(readlinkSync(join(written.dir, 'templates')), join(schedulerPerf, 'dra', 'templates'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
