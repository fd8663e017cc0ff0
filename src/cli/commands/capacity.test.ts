// The capacity command: its questions from the command line, text and JSON, and usage errors (exit 2).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../main.js';

async function cli(argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'capacity-'));
const scenario = join(dir, 'sc.yaml');
writeFileSync(scenario, `
nodes:
- metadata: { name: n1, labels: { kubernetes.io/hostname: n1 } }
  status: { allocatable: { cpu: "2", memory: 4Gi, pods: "10" } }
pending:
- metadata: { name: p }
  spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] }
`);
const twoNodes = join(dir, 'two.yaml');
writeFileSync(twoNodes, `
nodes:
- metadata: { name: n1, labels: { kubernetes.io/hostname: n1 } }
  status: { allocatable: { cpu: "2", memory: 4Gi, pods: "10" } }
- metadata: { name: n2, labels: { kubernetes.io/hostname: n2 } }
  status: { allocatable: { cpu: "2", memory: 4Gi, pods: "10" } }
pods:
- metadata: { name: q }
  spec: { nodeName: n1, containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] }
`);
const podFile = join(dir, 'pod.yaml');
writeFileSync(podFile, 'kind: Pod\nmetadata: { name: w }\nspec: { containers: [{ name: c, image: x, resources: { requests: { cpu: 500m } } }] }\n');

describe('capacity command', () => {
  it('--pod prints how many copies fit and why the next does not', async () => {
    const r = await cli(['capacity', scenario, '--pod', podFile]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^2 more copies of default\/w fit \(after the scenario's 1 pending pods: 1 scheduled, 0 not\)\./);
    assert.match(r.out, /1 node\(s\) NodeResourcesFit: Insufficient cpu {2}\(n1\)/);
  });

  it('--add-nodes-like answers in JSON', async () => {
    const r = await cli(['capacity', scenario, '--add-nodes-like', 'n1', '-o', 'json']);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).nodes, 0);
  });

  it('--removable lists the nodes that could go', async () => {
    const r = await cli(['capacity', scenario, '--removable']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^0 of 1 node\(s\) could be removed/);
    assert.match(r.out, /n1: default\/p does not fit elsewhere: 0\/1 nodes are available: 1 node\(s\) were unschedulable\./);
  });

  it('--removable says which nodes have room when the filters alone decide, and --placements where the scheduler puts the pods', async () => {
    const room = await cli(['capacity', twoNodes, '--removable', '--nodes', 'n1']);
    assert.equal(room.code, 0, room.err);
    assert.match(room.out, /^1 of 1 node\(s\) could be removed.*\n {2}n1 {2}default\/q has room on n2\n\n"has room on": a node where the pod fits/);
    const json = await cli(['capacity', twoNodes, '--removable', '--nodes', 'n1', '-o', 'json']);
    assert.deepEqual(JSON.parse(json.out), [{ node: 'n1', removable: true, decidedBy: 'room', pods: [{ pod: 'default/q', node: 'n2', message: '' }] }]);
    const placed = await cli(['capacity', twoNodes, '--removable', '--nodes', 'n1', '--placements']);
    assert.equal(placed.code, 0, placed.err);
    assert.match(placed.out, /\n {2}n1 {2}default\/q -> n2\n$/);
  });

  const bad: [string, string[], RegExp][] = [
    ['--placements without --removable', [scenario, '--pod', podFile, '--placements'], /--placements goes with --removable/],
    ['no question', [scenario], /give exactly one of --pod, --add-nodes-like, --node-template and --removable/],
    ['--nodes without --removable', [scenario, '--pod', podFile, '--nodes', 'n1'], /--nodes goes with --removable/],
    ['--removable of an unknown node', [scenario, '--removable', '--nodes', 'n7'], /--nodes: nodes "n7" not found/],
    ['two questions', [scenario, '--pod', podFile, '--add-nodes-like', 'n1'], /give exactly one of/],
    ['an unknown node', [scenario, '--add-nodes-like', 'n9'], /--add-nodes-like: nodes "n9" not found/],
    ['a pod file with a node in it', [scenario, '--pod', scenario], /must hold exactly one Pod/],
    ['a bad --max', [scenario, '--pod', podFile, '--max', '0'], /--max must be a positive integer, got "0"/],
  ];
  for (const [name, args, want] of bad) {
    it(`${name}: exit 2 with the reason`, async () => {
      const r = await cli(['capacity', ...args]);
      assert.equal(r.code, 2);
      assert.match(r.err, want);
    });
  }
});
