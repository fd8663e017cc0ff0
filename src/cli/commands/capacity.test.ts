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
const gangFile = join(dir, 'gang.yaml');
writeFileSync(gangFile, `apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: { name: g }
spec: { schedulingPolicy: { gang: { minCount: 2 } } }
---
kind: Pod
metadata: { name: w }
spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "1", example.com/gpu: "1" }, limits: { example.com/gpu: "1" } } }] }
`);
const gpuNodes = join(dir, 'gpus.yaml');
writeFileSync(gpuNodes, `
nodes:
- metadata: { name: n1 }
  status: { allocatable: { cpu: "4", memory: 4Gi, pods: "10", example.com/gpu: "2" } }
- metadata: { name: n2 }
  status: { allocatable: { cpu: "4", memory: 4Gi, pods: "10", example.com/gpu: "1" } }
`);
/** A CompositePodGroup `job` over gangs a (2 x 1 GPU) and b (1 x 1 GPU); `edit` rewrites the text for the refusal cases. */
const treeText = `apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: { name: job }
spec: { workloadRef: { workloadName: w, templateName: job }, schedulingPolicy: { gang: { minGroupCount: 2 } } }
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: { name: a }
spec: { parentCompositePodGroupName: job, workloadRef: { workloadName: w, templateName: a }, schedulingPolicy: { gang: { minCount: 2 } } }
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: { name: b }
spec: { parentCompositePodGroupName: job, workloadRef: { workloadName: w, templateName: b }, schedulingPolicy: { gang: { minCount: 1 } } }
---
kind: Pod
metadata: { name: wa }
spec: { schedulingGroup: { podGroupName: a }, containers: [{ name: c, image: x, resources: { requests: { cpu: "1", example.com/gpu: "1" }, limits: { example.com/gpu: "1" } } }] }
---
kind: Pod
metadata: { name: wb }
spec: { schedulingGroup: { podGroupName: b }, containers: [{ name: c, image: x, resources: { requests: { cpu: "1", example.com/gpu: "1" }, limits: { example.com/gpu: "1" } } }] }
`;
const treeFile = (name: string, edit: (t: string) => string = (t) => t): string => {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, edit(treeText));
  return path;
};
const treeGates = ['--feature-gates', 'GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true'];
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

  it('--gang counts whole groups and shows the extended resources left', async () => {
    const r = await cli(['capacity', gpuNodes, '--gang', gangFile, '--feature-gates', 'GenericWorkload=true']);
    assert.equal(r.code, 0, r.err);
    // 3 GPUs: one gang of 2 fits; the next has one GPU left for two members.
    assert.match(r.out, /^1 more group\(s\) like default\/g fit, each all or nothing \(2 member\(s\), minCount 2\)\./);
    assert.match(r.out, /The next group does not fit \(0 of 2 member\(s\) would be placed\)\./);
    assert.match(r.out, /example\.com\/gpu +3 +2 +1 +1 \(n[12]\)/);
    const json = JSON.parse((await cli(['capacity', gpuNodes, '--gang', gangFile, '--members', '3', '--feature-gates', 'GenericWorkload=true', '-o', 'json'])).out);
    assert.equal(json.fits, 1);
    assert.equal(json.members, 3);
  });

  it('--gang with --add-nodes-like adds the nodes one group needs', async () => {
    const r = await cli(['capacity', gpuNodes, '--gang', gangFile, '--members', '5', '--add-nodes-like', 'n2', '--feature-gates', 'GenericWorkload=true']);
    assert.equal(r.code, 0, r.err);
    // Without nodes the gang's cycle places 3 (minCount 2 is met) and 2 are left; each added 1-GPU node holds one more.
    assert.match(r.out, /^Add 2 node\(s\) like n2: then the 5 member\(s\) of default\/g fit \(2 do not without them\)\./);
  });

  it('--gang counts whole CompositePodGroup trees and explains the next one', async () => {
    const r = await cli(['capacity', gpuNodes, '--gang', treeFile('tree'), ...treeGates]);
    assert.equal(r.code, 0, r.err);
    // 3 GPUs: one tree of 3 members fits; the next finds none.
    assert.match(r.out, /^1 more tree\(s\) like default\/job fit, each all or nothing \(3 member\(s\), minGroupCount 2\)\./);
    assert.match(r.out, /The next tree does not fit \(0 of 3 member\(s\) would be placed\):\n {2}CompositePodGroup default\/job-copy-1 \(gang, minGroupCount 2\) {2}Unschedulable: 0\/2 child group\(s\), 0 member\(s\) placed\n/);
    assert.match(r.out, /\n {4}PodGroup default\/a-copy-1 \(gang, minCount 2\) {2}Unschedulable: 0\/2 member\(s\) placed\n/);
    const json = JSON.parse((await cli(['capacity', gpuNodes, '--gang', treeFile('tree'), '--members', '2', ...treeGates, '-o', 'json'])).out);
    // Two members per PodGroup: b's gang needs only one of its two, so a tree still fits in 3 GPUs, with 3 members placed.
    assert.equal(json.fits, 1);
    assert.equal(json.members, 4);
    assert.equal(json.kind, 'CompositePodGroup');
    assert.equal(json.placements.reduce((s: number, p: { members: number }) => s + p.members, 0), 3);
    assert.deepEqual(json.stoppedBy.children.map((c: { group: string }) => c.group), ['default/a-copy-1', 'default/b-copy-1']);
  });

  it('--gang with a tree and --add-nodes-like adds the nodes the whole tree needs', async () => {
    const r = await cli(['capacity', gpuNodes, '--gang', treeFile('tree'), '--members', '3', '--add-nodes-like', 'n2', ...treeGates]);
    assert.equal(r.code, 0, r.err);
    // 6 GPUs for the tree, 3 on the nodes: three 1-GPU nodes more.
    assert.match(r.out, /^Add 3 node\(s\) like n2: then the 6 member\(s\) of default\/job fit \(6 do not without them\)\./);
  });

  it('--pod shows what is left on the nodes', async () => {
    const r = await cli(['capacity', gpuNodes, '--pod', podFile]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Left on the nodes:\n {2}RESOURCE +ALLOCATABLE +REQUESTED +FREE +MOST FREE ON ONE NODE\n {2}cpu +8 /);
  });

  const bad: [string, string[], RegExp][] = [
    ['--placements without --removable', [scenario, '--pod', podFile, '--placements'], /--placements goes with --removable/],
    ['no question', [scenario], /give exactly one of --pod, --gang, --add-nodes-like, --node-template and --removable/],
    ['--gang with --pod', [scenario, '--gang', gangFile, '--pod', podFile, '--feature-gates', 'GenericWorkload=true'], /give exactly one of|--gang goes alone/],
    ['--members without --gang', [scenario, '--pod', podFile, '--members', '2'], /--members goes with --gang/],
    ['a gang file without its PodGroup', [scenario, '--gang', podFile, '--feature-gates', 'GenericWorkload=true'], /must hold exactly one PodGroup and one Pod/],
    ['fewer members than minCount', [scenario, '--gang', gangFile, '--members', '1', '--feature-gates', 'GenericWorkload=true'], /members: Invalid value: 1: fewer than the gang's minCount \(2\)/],
    ['a tree without the CompositePodGroup gate', [scenario, '--gang', treeFile('tree'), '--feature-gates', 'GenericWorkload=true'], /tree.yaml: a CompositePodGroup tree needs --feature-gates GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true/],
    ['a tree whose group names a missing parent', [scenario, '--gang', treeFile('orphan', (t) => t.replace('parentCompositePodGroupName: job, workloadRef: { workloadName: w, templateName: b }', 'parentCompositePodGroupName: other, workloadRef: { workloadName: w, templateName: b }')), ...treeGates],
      /orphan.yaml: PodGroup "b": spec.parentCompositePodGroupName: Not found: "other": not a CompositePodGroup of the file/],
    ['a tree with two pods for one group', [scenario, '--gang', treeFile('twice', (t) => t.replace('podGroupName: b }', 'podGroupName: a }')), ...treeGates],
      /twice.yaml: Pod "wb": spec.schedulingGroup.podGroupName: Duplicate value: "a": one Pod per PodGroup/],
    ['a tree with a group no pod names', [scenario, '--gang', treeFile('bare', (t) => t.slice(0, t.lastIndexOf('---'))), ...treeGates], /bare.yaml: PodGroup "b": no Pod in the file names it in spec.schedulingGroup.podGroupName/],
    ['a tree that can never meet minGroupCount', [scenario, '--gang', treeFile('quorum', (t) => t.replace('minGroupCount: 2', 'minGroupCount: 3')), ...treeGates],
      /quorum.yaml: CompositePodGroup "job": spec.schedulingPolicy.gang.minGroupCount: Invalid value: 3: more than its 2 child group\(s\)/],
    ['a tree with fewer members than a minCount', [scenario, '--gang', treeFile('tree'), '--members', '1', ...treeGates], /tree.yaml: PodGroup "a": members: Invalid value: 1: fewer than the gang's minCount \(2\)/],
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
