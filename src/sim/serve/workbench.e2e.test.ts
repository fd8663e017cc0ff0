// The web UI's endpoints of `simulate --serve` over loopback HTTP: the built files (gzipped when
// asked), a pod's last decision, and bad input answered with the reason, changing nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { admitPod } from '../../cluster/memory/admission.js';
import { defaultConfiguration, parseConfig } from '../../config/index.js';
import { inTreeRegistry } from '../../plugins/registry.js';
import { parseScenario } from '../scenario/scenario.js';
import { serveScenario, type Serving } from './serve.js';

const scenario = parseScenario(`
metadata: { name: endpoints }
nodes:
- metadata: { name: n1 }
  status: { allocatable: { cpu: "2", memory: 4Gi, pods: "10" } }
pending:
- metadata: { name: too-big, namespace: default }
  spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "8" } } }] }
`, 'endpoints.yaml');

describe('the workbench endpoints of simulate --serve', { timeout: 60_000 }, () => {
  let s: Serving;
  before(async () => {
    const registry = inTreeRegistry();
    s = await serveScenario(scenario, { config: defaultConfiguration(registry), registry, admitPod, port: 0 });
  });
  after(() => s?.close());

  it('serves the UI at /ui/ (redirecting /ui), gzipped for clients that accept it', async () => {
    const redirect = await fetch(`${s.url}/ui`, { redirect: 'manual' });
    assert.deepEqual([redirect.status, redirect.headers.get('location')], [301, '/ui/']);
    const page = await fetch(`${s.url}/ui/`);
    assert.match(await page.text(), /<script src="app.js"><\/script>/);
    const raw = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      import('node:http').then(({ get }) => get(`${s.url}/ui/app.js`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      }).on('error', reject), reject);
    });
    assert.equal(raw.encoding, 'gzip');
    assert.ok(gunzipSync(raw.body).length > raw.body.length);
    assert.equal((await fetch(`${s.url}/ui/nothing.js`)).status, 404);
  });

  it('returns a pod\'s last decision as explain records it, and 404 for a pod never attempted', async () => {
    let answer: Response | undefined;
    for (let i = 0; i < 100; i++) {
      answer = await fetch(`${s.url}/ui/api/explain/default/too-big`);
      if (answer.status === 200) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const body = (await answer!.json()) as { explain: { pod: string; outcome: string; filter: Record<string, { plugin: string; code: string; reasons: string[] }>; attempts: { time: number }[] }; attempts: number };
    assert.deepEqual([body.explain.pod, body.explain.outcome], ['default/too-big', 'Unschedulable']);
    // Seconds since serving began (the real clock), as a simulation counts from its start: not Unix time.
    const t = body.explain.attempts[0]!.time;
    assert.ok(t >= 0 && t < 60, `attempt time ${t}`);
    assert.deepEqual(body.explain.filter.n1, { plugin: 'NodeResourcesFit', code: 'UnschedulableAndUnresolvable', reasons: ['Insufficient cpu'] });
    const missing = await fetch(`${s.url}/ui/api/explain/default/nobody`);
    assert.equal(missing.status, 404);
    assert.match(((await missing.json()) as { message: string }).message, /default\/nobody has no scheduling attempt yet/);
  });

  it('gives the configuration with the running profiles as resolved: plugins per extension point and Score weights', async () => {
    const c = (await (await fetch(`${s.url}/ui/api/config`)).json()) as { yaml: string; profiles: { schedulerName: string; plugins: Record<string, string[]>; scoreWeights: Record<string, number> }[] };
    assert.deepEqual(c.profiles.map((p) => p.schedulerName), ['default-scheduler']);
    const [p] = c.profiles;
    assert.ok(p!.plugins.filter!.includes('NodeResourcesFit'));
    assert.deepEqual(p!.plugins.postFilter, ['DynamicResources', 'DefaultPreemption']);
    assert.deepEqual([p!.scoreWeights.TaintToleration, p!.scoreWeights.NodeAffinity, p!.scoreWeights.NodeResourcesFit], [3, 2, 1]);
  });

  it('refuses a bad scenario or configuration with its reason and keeps the cluster', async () => {
    const badScenario = await fetch(`${s.url}/ui/api/scenario`, { method: 'POST', body: 'nodes:\n- metadata: { name: x }\n  status: { allocatable: { cpu: 4x } }\n' });
    assert.equal(badScenario.status, 400);
    assert.match(((await badScenario.json()) as { message: string }).message, /nodes\[0\].*status\.allocatable\.cpu/);
    const badConfig = await fetch(`${s.url}/ui/api/config`, { method: 'PUT', body: 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles: [{ schedulerName: "" }]\n' });
    assert.equal(badConfig.status, 400);
    assert.deepEqual(s.cluster.listNodes().map((n) => n.metadata.name), ['n1']);
    assert.equal((await fetch(`${s.url}/ui/api/nothing`)).status, 404);
  });
});

describe('a pod\'s decision kept by the workbench of simulate --serve', { timeout: 60_000 }, () => {
  // 150 equal nodes, every one scored: the decision keeps the best 100 rows and says 150 were scored.
  const wide = parseScenario(JSON.stringify({
    metadata: { name: 'wide' },
    config: { apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration', percentageOfNodesToScore: 100 },
    nodes: Array.from({ length: 150 }, (_v, i) => ({ metadata: { name: `n${String(i).padStart(3, '0')}` }, status: { allocatable: { cpu: '2', memory: '4Gi', pods: '10' } } })),
    pending: [
      { metadata: { name: 'small', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '1' } } }] } },
      { metadata: { name: 'big', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '8' } } }] } },
      { metadata: { name: 'bigger', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '16' } } }] } },
    ],
  }), 'wide.json');
  let s: Serving;
  before(async () => {
    const registry = inTreeRegistry();
    const configText = JSON.stringify(wide.config);
    s = await serveScenario(wide, { config: parseConfig(configText, 'wide config', registry), registry, admitPod, port: 0, configText });
  });
  after(() => s?.close());

  type Answer = { explain: { scores: Record<string, Record<string, number>>; filter: Record<string, unknown> }; scoredNodes: number };
  async function decision(pod: string): Promise<Answer> {
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${s.url}/ui/api/explain/default/${pod}`);
      if (res.status === 200) return (await res.json()) as Answer;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${pod} was never attempted`);
  }

  it('keeps the best 100 score rows of a pod scored on 150 nodes and says how many were scored', async () => {
    const small = await decision('small');
    assert.equal(small.scoredNodes, 150);
    assert.equal(Object.keys(small.explain.scores).length, 100);
  });

  it('keeps every rejected node, one shared object per distinct rejection across nodes and pods', async () => {
    const [big, bigger] = [await decision('big'), await decision('bigger')];
    assert.equal(Object.keys(big.explain.filter).length, 150);
    assert.deepEqual(big.explain.filter.n000, bigger.explain.filter.n149);
  });
});
