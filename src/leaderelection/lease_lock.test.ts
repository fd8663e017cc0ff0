import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RestRequest, RestTransport } from '../cluster/kube/rest.js';
import { ApiError } from '../cluster/types.js';
import { LeaseLock, type Lease } from './lease_lock.js';

/** A Lease store behind the REST calls LeaseLock makes, recording each call. */
class LeaseServer implements RestTransport {
  readonly calls: string[] = [];
  /** The resourceVersion each write carried. */
  readonly writtenOver: Array<string | undefined> = [];
  constructor(public lease: Lease | null) {}

  request<T>(req: RestRequest): Promise<T> {
    this.calls.push(req.method);
    if (req.method === 'GET') return this.lease ? Promise.resolve(this.lease as T) : Promise.reject(new ApiError(404, 'not found'));
    this.writtenOver.push((req.body as Lease).metadata.resourceVersion);
    this.lease = { ...(req.body as Lease), metadata: { ...(req.body as Lease).metadata, resourceVersion: String(this.calls.length) } };
    return Promise.resolve(this.lease as T);
  }

  watch(): never {
    throw new Error('no watches here');
  }
}

const held = (holder: string): Lease => ({ metadata: { name: 'kube-scheduler', namespace: 'kube-system', resourceVersion: '7' }, spec: { holderIdentity: holder, leaseDurationSeconds: 15 } });
const lockOver = (server: LeaseServer, firstRead?: Promise<Lease | null>) => new LeaseLock({ transport: server, namespace: 'kube-system', name: 'kube-scheduler', identity: 'me', firstRead });

describe('LeaseLock with the Lease read before the core loaded', () => {
  const cases = [
    { name: 'the first get answers with the early read, the next ones ask the server', early: () => Promise.resolve(held('early')), server: held('now'), want: ['early', 'now'], calls: ['GET'] },
    { name: 'an early "not found" is the first answer', early: () => Promise.resolve(null), server: held('now'), want: [null, 'now'], calls: ['GET'] },
    { name: 'an early read that failed is asked again', early: () => Promise.reject(new Error('connection reset')), server: held('now'), want: ['now', 'now'], calls: ['GET', 'GET'] },
    { name: 'without an early read every get asks', early: () => undefined, server: held('now'), want: ['now', 'now'], calls: ['GET', 'GET'] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const server = new LeaseServer(c.server);
      const lock = lockOver(server, c.early());
      const got = [await lock.get(), await lock.get()].map((r) => (r === null ? null : r.record.holderIdentity));
      assert.deepEqual(got, c.want);
      assert.deepEqual(server.calls, c.calls);
    });
  }

  it('updates the Lease it was given early (its resourceVersion guards the write)', async () => {
    const server = new LeaseServer(held('now'));
    const lock = lockOver(server, Promise.resolve(held('')));
    await lock.get();
    await lock.update({ holderIdentity: 'me', leaseDurationSeconds: 15, acquireTime: 0, renewTime: 0, leaderTransitions: 1 });
    assert.deepEqual(server.calls, ['PUT']);
    assert.deepEqual(server.writtenOver, ['7']);
    assert.equal(server.lease?.spec?.holderIdentity, 'me');
  });
});
