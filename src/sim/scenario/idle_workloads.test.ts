import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { idleWorkloads, idleWorkloadsWarning } from './idle_workloads.js';
import { parseScenario } from './scenario.js';

const deployment = (name: string) => `- { apiVersion: apps/v1, kind: Deployment, metadata: { name: ${name} }, spec: { replicas: 2, selector: { matchLabels: { app: ${name} } }, template: { metadata: { labels: { app: ${name} } }, spec: { containers: [{ name: c, image: x }] } } } }\n`;
const ownedPod = (owner: string, kind = 'ReplicaSet') => `- metadata: { name: ${owner}-1, labels: { app: ${owner} }, ownerReferences: [{ apiVersion: apps/v1, kind: ${kind}, name: ${owner}, uid: u1, controller: true }] }\n  spec: { nodeName: n1, containers: [{ name: c, image: x }] }\n`;
const replicaSet = (name: string, owner: string) => `- { apiVersion: apps/v1, kind: ReplicaSet, metadata: { name: ${name}, ownerReferences: [{ apiVersion: apps/v1, kind: Deployment, name: ${owner}, uid: u0, controller: true }] }, spec: { replicas: 1, selector: { matchLabels: { app: ${owner} } }, template: { metadata: { labels: { app: ${owner} } }, spec: { containers: [{ name: c, image: x }] } } } }\n`;
const node = '- { metadata: { name: n1 }, status: { allocatable: { cpu: "4", pods: "10" } } }\n';

describe('workloads that make no pods with controllers off', () => {
  const cases: { name: string; text: string; want: string[] }[] = [
    { name: 'a Deployment alone is idle', text: `objects:\n${deployment('web')}nodes:\n${node}`, want: ['Deployment default/web'] },
    { name: 'with controllers on nothing is idle', text: `controllers: true\nobjects:\n${deployment('web')}nodes:\n${node}`, want: [] },
    { name: 'a Deployment with its ReplicaSet and pods (a cluster dump) is not',
      text: `objects:\n${deployment('web')}${replicaSet('web-abc', 'web')}nodes:\n${node}pods:\n${ownedPod('web-abc')}`, want: [] },
    { name: 'a ReplicaSet without pods is, its Deployment is not', text: `objects:\n${deployment('web')}${replicaSet('web-abc', 'web')}nodes:\n${node}`, want: ['ReplicaSet default/web-abc'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(idleWorkloads(parseScenario(c.text, 'sc.yaml')), c.want));

  it('the warning names the file, the first three and how many more, and what to do', () => {
    const sc = parseScenario(`objects:\n${['a', 'b', 'c', 'd', 'e'].map(deployment).join('')}nodes:\n${node}`, 'sc.yaml');
    assert.equal(idleWorkloadsWarning(sc), 'sc.yaml: controllers are off, so Deployment default/a, Deployment default/b, Deployment default/c and 2 more make no pods; set "controllers: true" in the scenario to run the workload controllers');
  });
});
