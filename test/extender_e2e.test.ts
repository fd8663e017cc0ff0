// An HTTP extender configured in KubeSchedulerConfiguration, served on loopback, deciding a
// simulation: filter and prioritize verbs as upstream's JSON, managed resources the scheduler
// ignores, and a bad TLS setting stopping start-up with the field path.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configFromObject } from '../src/config/index.js';
import { ExtenderSetupError } from '../src/extender/build.js';
import { inTreeRegistry } from '../src/plugins/registry.js';
import { parseScenario } from '../src/sim/scenario/scenario.js';
import { runSimulation } from '../src/sim/simulate/simulate.js';

interface Seen {
  verb: string;
  body: Record<string, unknown>;
}

/** Filter keeps nodes labelled gpu=yes (the others get a reason); prioritize prefers node "b". */
function extenderServer(seen: Seen[]): Server {
  return createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const verb = (req.url ?? '').split('/').pop()!;
      const body = JSON.parse(text) as Record<string, unknown>;
      seen.push({ verb, body });
      const items = ((body.Nodes as { items: { metadata: { name: string; labels?: Record<string, string> } }[] } | null)?.items) ?? [];
      let answer: unknown;
      if (verb === 'filter') {
        const keep = items.filter((n) => n.metadata.labels?.gpu === 'yes');
        const failed: Record<string, string> = {};
        for (const n of items) if (n.metadata.labels?.gpu !== 'yes') failed[n.metadata.name] = 'node(s) had no free gpu';
        answer = { Nodes: { items: keep }, FailedNodes: failed, Error: '' };
      } else {
        answer = items.map((n) => ({ Host: n.metadata.name, Score: n.metadata.name === 'b' ? 10 : 0 }));
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
}

const scenarioText = `
nodes:
- metadata: { name: a, labels: { gpu: "yes" } }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
- metadata: { name: b, labels: { gpu: "yes" } }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
- metadata: { name: c }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
pending:
- metadata: { name: trainer }
  spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "1", example.com/gpu: "1" }, limits: { example.com/gpu: "1" } } }] }
- metadata: { name: web }
  spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] }
`;

describe('HTTP extender from the configuration', () => {
  const seen: Seen[] = [];
  const server = extenderServer(seen);
  let url = '';

  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/scheduler`;
  });
  after(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  function config(extender: Record<string, unknown>) {
    return configFromObject({
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      extenders: [{ urlPrefix: url, filterVerb: 'filter', prioritizeVerb: 'prioritize', weight: 1, ...extender }],
    }, 'test', inTreeRegistry());
  }

  it('filters and scores the pods it manages; Fit ignores the resource it owns', async () => {
    seen.length = 0;
    const registry = inTreeRegistry();
    const cfg = config({ managedResources: [{ name: 'example.com/gpu', ignoredByScheduler: true }] });
    const report = await runSimulation(parseScenario(scenarioText, 'gpu.yaml'), { config: cfg, registry, tieBreakByName: true });
    const placed = Object.fromEntries(report.pods.map((p) => [p.pod, p.node]));
    // No node advertises example.com/gpu: without ignoredByScheduler, Fit would reject them all.
    assert.equal(placed['default/trainer'], 'b', 'the extender kept a and b and preferred b');
    assert.ok(placed['default/web'], 'web is scheduled');
    assert.deepEqual(seen.map((s) => `${s.verb} ${(s.body.Pod as { metadata: { name: string } }).metadata.name}`), ['filter trainer', 'prioritize trainer'],
      'the extender is asked about the pod requesting its resource only');
    const args = seen[0]!.body;
    assert.equal(args.NodeNames, null);
    assert.deepEqual((args.Nodes as { items: { metadata: { name: string } }[] }).items.map((n) => n.metadata.name), ['a', 'b', 'c']);
  });

  it('reports the extender\'s reasons when it leaves no node', async () => {
    const registry = inTreeRegistry();
    const sc = parseScenario(scenarioText, 'gpu.yaml');
    for (const n of sc.nodes) if (n.metadata.labels) delete n.metadata.labels.gpu;
    const report = await runSimulation(sc, { config: config({}), registry });
    const web = report.pods.find((p) => p.pod === 'default/web')!;
    assert.equal(web.outcome, 'Unschedulable');
    assert.match(web.message, /^0\/3 nodes are available: 3 node\(s\) had no free gpu\./);
  });

  it('loads TLS settings without reading their files, and stops start-up on those it cannot use, naming the extender', async () => {
    const cfg = config({ enableHTTPS: true, tlsConfig: { caFile: '/nonexistent/ca.crt' } });
    const registry = inTreeRegistry();
    await assert.rejects(
      runSimulation(parseScenario(scenarioText, 'tls.yaml'), { config: cfg, registry }),
      (err: unknown) => err instanceof ExtenderSetupError && /^extenders\[0\]: /.test(err.message) && err.message.includes('/nonexistent/ca.crt'),
    );
  });
});
