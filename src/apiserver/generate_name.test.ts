// metadata.generateName through the embedded API server, as kube-apiserver v1.37 answers it: a
// name another object has is generated again (up to eight names), and a long prefix is cut.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryCluster } from '../cluster/memory/store.js';
import { FakeClock } from '../util/clock.js';
import { ApiServer } from './server.js';

describe('embedded API server: generateName', { timeout: 20_000 }, () => {
  let server: ApiServer;
  let draws: number[] = [];
  const post = async (generateName: string) => {
    const res = await fetch(`${server.url}/api/v1/namespaces/default/pods`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { generateName }, spec: { containers: [{ name: 'c', image: 'x' }] } }),
    });
    return { code: res.status, body: (await res.json()) as { metadata?: { name?: string }; reason?: string } };
  };

  before(async () => {
    const cluster = new MemoryCluster({ clock: new FakeClock(0), volumeController: false });
    server = await ApiServer.start({ cluster, port: 0, host: '127.0.0.1', clock: new FakeClock(0), random: () => draws.shift() ?? 0 });
  });
  after(async () => {
    await server.close();
  });

  it('a taken name is generated again; eight taken names are AlreadyExists', async () => {
    const first = await post('p-');
    assert.equal(first.code, 201);
    assert.equal(first.body.metadata?.name, 'p-bbbbb');
    draws = [0, 0, 0, 0, 0, 0.04, 0.04, 0.04, 0.04, 0.04];
    const second = await post('p-');
    assert.equal(second.code, 201);
    assert.equal(second.body.metadata?.name, 'p-ccccc');
    const third = await post('p-');
    assert.equal(third.code, 409);
    assert.equal(third.body.reason, 'AlreadyExists');
  });

  it('a prefix past 58 characters is cut: the name is valid', async () => {
    const r = await post(`${'x'.repeat(70)}-`);
    assert.equal(r.code, 201);
    assert.equal(r.body.metadata?.name, `${'x'.repeat(58)}bbbbb`);
  });
});
