// `simulate --serve`: serves the bundled scenario on a free port, prints its URL, stops on signal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../main.js';
import { serveInBackground } from './test_helpers.js';

test('simulate --serve serves the scenario cluster until told to stop', { timeout: 20_000 }, async () => {
  let out = '';
  const serve = serveInBackground(['--serve', '--port', '0'], { stdout: (t) => (out += t), stderr: () => undefined });
  const serving = await serve.serving;
  assert.match(out, new RegExp(`^Serving the embedded cluster of default at ${serving.url.replace(/\./g, '\\.')}\n`));
  const res = await fetch(`${serving.url}/api/v1/nodes`);
  const list = await res.json() as { items: unknown[] };
  assert.equal(list.items.length, serving.cluster.listNodes().length);
  assert.ok(list.items.length > 0);
  serve.stop();
  assert.equal(await serve.done, 0);
  await assert.rejects(fetch(`${serving.url}/api/v1/nodes`));
});

test('simulate --serve rejects a bad port', async () => {
  let err = '';
  const code = await runCli(['simulate', '--serve', '--port', 'x'], { stdout: () => undefined, stderr: (t) => (err += t) });
  assert.equal(code, 2);
  assert.match(err, /--port must be a port number/);
});
