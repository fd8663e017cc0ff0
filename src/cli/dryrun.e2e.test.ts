// `serve --plugins` answering the dry-run endpoint over loopback HTTP: the answer comes from the
// served configuration with its TypeScript plugin, and the served cluster keeps no trace of it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '../api/types.js';
import type { DryRunResult } from '../sim/serve/dryrun.js';
import type { Serving } from '../sim/serve/serve.js';
import { serveCommand } from './commands/serve.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const needsBuild = existsSync(join(root, 'dist/index.js')) ? false : 'the example plugin imports the built package (npm ci builds it)';
const cpuPod = (name: string, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu: '1' } } }], ...extra } });

describe('serve: the dry-run endpoint', { skip: needsBuild, timeout: 60_000 }, () => {
  it('answers with the served plugins, validates as creates, and stores nothing', async () => {
    let stop!: () => void;
    const stopSignal = new Promise<void>((resolve) => (stop = resolve));
    let serving: Serving | undefined;
    const done = serveCommand(
      [join(root, 'test/fixtures/scenarios/cli/zones.yaml'), '--port', '0', '--plugins', join(root, 'examples/avoid-zone.ts'), '--config', join(root, 'examples/avoid-zone-config.yaml')],
      { stdout: () => undefined, stderr: () => undefined },
      { stopSignal, onServing: (s) => (serving = s) },
    );
    try {
      for (let i = 0; i < 10_000 && serving === undefined; i++) await new Promise((r) => setTimeout(r, 5));
      assert.ok(serving, 'serving');
      const url = `${serving.url}/apis/dryrun.kube-scheduler-ts.io/v1/schedule`;
      const post = (body: unknown) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

      const res = await post({ pods: [cpuPod('web'), cpuPod('zone-b-only', { nodeSelector: { 'topology.kubernetes.io/zone': 'zone-b' } })] });
      assert.equal(res.status, 200);
      const r = await res.json() as DryRunResult;
      // zone-b's node is the emptier: only the AvoidZone plugin keeps the pod on a.
      assert.deepEqual(r.pods.map((p) => [p.pod, p.outcome, p.node]), [['default/web', 'Scheduled', 'a'], ['default/zone-b-only', 'Unschedulable', '']]);
      assert.match(r.pods[1]!.message, /node\(s\) in avoided zone zone-b/);

      const bad = await post({ pods: [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'Not_A_Name' }, spec: { containers: [{ name: 'c', image: 'pause' }] } }] });
      assert.equal(bad.status, 422);
      assert.equal((await bad.json() as { reason: string }).reason, 'Invalid');

      const stored = await fetch(`${serving.url}/api/v1/namespaces/default/pods/web`);
      assert.equal(stored.status, 404, 'the asked pod was not created');
      await stored.arrayBuffer();
      const about = serving.cluster.list<KubeObject & { regarding?: { name?: string } }>('Event').filter((e) => ['web', 'zone-b-only'].includes(e.regarding?.name ?? ''));
      assert.deepEqual(about, [], 'no events about the asked pods');
    } finally {
      stop();
    }
    assert.equal(await done, 0);
  });
});
