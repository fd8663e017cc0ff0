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
      const shared = join(root, 'upstream-templates');
      mkdirSync(shared);
      const written = writeOwnConfig(ownCase('GPUClusterDevicePlugin'), join(root, 'run'), shared);
      assert.ok('dir' in written, JSON.stringify(written));
      const [testCase] = parse(readFileSync(join(written.dir, 'performance-config.yaml'), 'utf8')) as [{ name: string; workloadTemplate: Record<string, unknown>[]; workloads: { name: string; params: Record<string, number> }[] }];
      assert.equal(testCase.name, 'GPUClusterDevicePlugin');
      assert.deepEqual(testCase.workloadTemplate.map((op) => [op.opcode, op.nodeTemplatePath ?? op.podTemplatePath]), [
        ['createNodes', 'templates/node-with-8-gpus.yaml'],
        ['createPods', 'templates/pod-with-one-gpu.yaml'],
        ['createPods', 'templates/pod-with-one-gpu.yaml'],
      ]);
      const node = parse(readFileSync(join(written.dir, 'templates', 'node-with-8-gpus.yaml'), 'utf8')) as { status: { capacity: Record<string, string> } };
      assert.equal(node.status.capacity['nvidia.com/gpu'], '8');
      assert.equal(testCase.workloadTemplate[2]!.collectMetrics, true);
      assert.ok(testCase.workloads.some((w) => w.params.initNodes === 1000));
      const pod = parse(readFileSync(join(written.dir, 'templates', 'pod-with-one-gpu.yaml'), 'utf8')) as { spec: { containers: { resources: { requests: Record<string, string> } }[] } };
      assert.equal(pod.spec.containers[0]!.resources.requests['nvidia.com/gpu'], '1');
      assert.equal(readlinkSync(join(root, 'run', 'templates')), shared);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('says why a test case with a topic\'s own templates cannot run there', () => {
    const root = mkdtempSync(join(tmpdir(), 'own-config-'));
    try {
      const written = writeOwnConfig(ownCase('GPUClusterClaimTemplate'), join(root, 'run'), root);
      assert.ok('error' in written);
      assert.match(written.error, /GPUClusterClaimTemplate: node template dra\/node-with-dra-test-driver\.yaml/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
