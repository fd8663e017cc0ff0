// run's cluster client over a scripted API server: the DRA informers and the ResourceClaim writes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceClaim } from '../../api/dra_types.js';
import type { Pod } from '../../api/types.js';
import { discardLogger } from '../../log/logger.js';
import { FakeClock } from '../../util/clock.js';
import { ApiError, type WatchEvent } from '../types.js';
import { KubeClusterClient } from './client.js';
import { resourceSpec } from './resources.js';
import type { RawWatchEvent, RestRequest, RestTransport, WatchHandle } from './rest.js';

/** Answers lists from `lists` (by path), records every other request and answers it with `reply`. */
class FakeApiServer implements RestTransport {
  readonly writes: RestRequest[] = [];
  reply: (req: RestRequest) => unknown = (req) => req.body;

  constructor(private readonly lists: Readonly<Record<string, readonly Record<string, unknown>[]>>) {}

  async request<T>(req: RestRequest): Promise<T> {
    if (req.method === 'GET') return { metadata: { resourceVersion: '5' }, items: structuredClone(this.lists[req.path] ?? []) } as T;
    this.writes.push(req);
    return this.reply(req) as T;
  }

  watch(_path: string, _query: Readonly<Record<string, string | undefined>>, _onEvent: (e: RawWatchEvent) => void, _onClose: (err: Error | null) => void): WatchHandle {
    return { close: () => {} };
  }
}

const claim: ResourceClaim = {
  metadata: { name: 'c1', namespace: 'ns', resourceVersion: '4', uid: 'u1' },
  spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } },
};

function client(t: RestTransport): KubeClusterClient {
  return new KubeClusterClient({ transport: t, clock: new FakeClock(0), log: discardLogger });
}

describe('KubeClusterClient: dynamic resource allocation', () => {
  it('lists and watches device classes, taint rules, slices and claims before nodes and pods', async () => {
    const t = new FakeApiServer({
      '/apis/resource.k8s.io/v1/deviceclasses': [{ metadata: { name: 'gpu', resourceVersion: '1' }, spec: {} }],
      '/apis/resource.k8s.io/v1/devicetaintrules': [{ metadata: { name: 'r', resourceVersion: '1' }, spec: { taint: { key: 'k', effect: 'NoSchedule' } } }],
      '/apis/resource.k8s.io/v1/resourceslices': [{ metadata: { name: 's', resourceVersion: '2' }, spec: { driver: 'd', pool: { name: 'p', generation: 1, resourceSliceCount: 1 }, allNodes: true } }],
      '/apis/resource.k8s.io/v1/resourceclaims': [claim as unknown as Record<string, unknown>],
      '/api/v1/nodes': [{ metadata: { name: 'n1', resourceVersion: '3' } }],
    });
    const c = client(t);
    const kinds: string[] = [];
    await c.start((e: WatchEvent) => kinds.push(`${e.type} ${e.kind}`));
    c.stop();
    assert.deepEqual(kinds, ['ADDED DeviceClass', 'ADDED DeviceTaintRule', 'ADDED ResourceSlice', 'ADDED ResourceClaim', 'ADDED Node']);
  });

  it('writes a claim\'s status with PUT on the status subresource, keeping its resourceVersion', async () => {
    const t = new FakeApiServer({});
    const c = client(t);
    const allocated: ResourceClaim = { ...claim, status: { reservedFor: [{ resource: 'pods', name: 'p', uid: 'pu' }] } };
    const written = await c.updateResourceClaimStatus(allocated);
    const req = t.writes[0]!;
    assert.equal(req.method, 'PUT');
    assert.equal(req.path, '/apis/resource.k8s.io/v1/namespaces/ns/resourceclaims/c1/status');
    assert.deepEqual(req.body, { ...allocated, apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim' });
    assert.equal(written.metadata.resourceVersion, '4');
  });

  it('passes a conflict on to the caller, which decides about retrying', async () => {
    const t = new FakeApiServer({});
    t.reply = () => {
      throw new ApiError(409, 'Operation cannot be fulfilled on resourceclaims.resource.k8s.io "c1": the object has been modified; please apply your changes to the latest version and try again');
    };
    await assert.rejects(client(t).updateResourceClaimStatus(claim), (e: unknown) => e instanceof ApiError && e.code === 409);
  });

  it('creates, updates and deletes claims at their collection and object paths', async () => {
    const t = new FakeApiServer({});
    const c = client(t);
    await c.createResourceClaim({ ...claim, metadata: { namespace: 'ns', generateName: 'p-gpu-' } });
    await c.updateResourceClaim(claim);
    await c.deleteResourceClaim('ns', 'c1');
    assert.deepEqual(t.writes.map((w) => `${w.method} ${w.path}`), [
      'POST /apis/resource.k8s.io/v1/namespaces/ns/resourceclaims',
      'PUT /apis/resource.k8s.io/v1/namespaces/ns/resourceclaims/c1',
      'DELETE /apis/resource.k8s.io/v1/namespaces/ns/resourceclaims/c1',
    ]);
  });
});

describe('KubeClusterClient: writes are bounded in time', () => {
  it('gives the binding, status patch, deletion and claim writes a timeout, so a silent server cannot hold a binding cycle forever', async () => {
    const t = new FakeApiServer({});
    const c = client(t);
    const pod: Pod = { metadata: { name: 'web', namespace: 'ns', uid: 'pu' }, spec: { containers: [] } };
    await c.bind(pod, 'n1');
    await c.updatePodStatus(pod, { nominatedNodeName: 'n1' });
    await c.deletePod(pod);
    await c.createResourceClaim({ ...claim, metadata: { namespace: 'ns', generateName: 'p-gpu-' } });
    await c.updateResourceClaim(claim);
    await c.updateResourceClaimStatus(claim);
    await c.deleteResourceClaim('ns', 'c1');
    assert.equal(t.writes.length, 7);
    for (const w of t.writes) assert.ok((w.timeoutMs ?? 0) > 0, `${w.method} ${w.path} has a timeout`);
  });
});

describe('KubeClusterClient: reading a pod from the API server', () => {
  /** Answers each GET with `answer` and records it. */
  class PodServer implements RestTransport {
    readonly gets: RestRequest[] = [];
    constructor(private readonly answer: (req: RestRequest) => unknown) {}
    async request<T>(req: RestRequest): Promise<T> {
      this.gets.push(req);
      return this.answer(req) as T;
    }
    watch(): WatchHandle {
      return { close: () => {} };
    }
  }

  const cases: { name: string; answer: () => unknown; want: string }[] = [
    { name: 'the pod as the server has it', answer: () => ({ metadata: { name: 'web', namespace: 'ns', uid: 'u1' }, spec: { nodeName: 'n1' } }), want: 'n1' },
    { name: 'null when the server has no such pod', answer: () => { throw new ApiError(404, 'pods "web" not found'); }, want: 'null' },
    { name: 'a failed read rejects', answer: () => { throw new ApiError(503, 'the API server is restarting'); }, want: 'error: the API server is restarting' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const t = new PodServer(c.answer);
      const got = await client(t).readPod('ns', 'web').then(
        (p) => (p === null ? 'null' : p.spec.nodeName ?? ''),
        (err: Error) => `error: ${err.message}`,
      );
      assert.equal(got, c.want);
      assert.equal(t.gets.length, 1);
      assert.equal(t.gets[0]!.method, 'GET');
      assert.equal(t.gets[0]!.path, '/api/v1/namespaces/ns/pods/web');
      assert.ok((t.gets[0]!.timeoutMs ?? 0) > 0, 'each read is bounded in time');
    });
  }
});

describe('KubeClusterClient: catching up on taking the lease', () => {
  /** Lists from `lists`, counting list requests by path; watches of the kinds in `refused` cannot connect. */
  class WatchedServer implements RestTransport {
    readonly listed: string[] = [];
    readonly refused = new Set<string>();
    constructor(private readonly lists: Readonly<Record<string, readonly Record<string, unknown>[]>>) {}
    async request<T>(req: RestRequest): Promise<T> {
      this.listed.push(req.path);
      return { metadata: { resourceVersion: '5' }, items: structuredClone(this.lists[req.path] ?? []) } as T;
    }
    watch(path: string, _query: Readonly<Record<string, string | undefined>>, _onEvent: (e: RawWatchEvent) => void, onClose: (err: Error | null) => void, onOpen?: () => void): WatchHandle {
      if (this.refused.has(path)) queueMicrotask(() => onClose(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' })));
      else queueMicrotask(() => onOpen?.());
      return { close: () => {} };
    }
  }

  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
  };

  const cases: { name: string; refused: string[]; reread: string[] }[] = [
    { name: 'informers still watching are used at once: nothing is read again', refused: [], reread: [] },
    { name: 'pods whose watch cannot reconnect are read afresh; watching nodes are not', refused: ['/api/v1/pods'], reread: ['Pod'] },
    { name: 'nodes and pods both out of touch are both read afresh', refused: ['/api/v1/pods', '/api/v1/nodes'], reread: ['Node', 'Pod'] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const t = new WatchedServer({ '/api/v1/nodes': [{ metadata: { name: 'n1', resourceVersion: '3' } }] });
      for (const path of c.refused) t.refused.add(path);
      const k = new KubeClusterClient({ transport: t, clock: new FakeClock(0), log: discardLogger, resources: ['Node', 'Pod'].map(resourceSpec) });
      await k.start(() => undefined);
      await settle();
      const listsBefore = t.listed.length;
      assert.deepEqual(await k.catchUp(15_000), c.reread);
      const relisted = t.listed.slice(listsBefore);
      assert.deepEqual(relisted.sort(), c.reread.map((kind) => (kind === 'Pod' ? '/api/v1/pods' : '/api/v1/nodes')).sort());
      k.stop();
    });
  }

  it('a watch back in touch less than the settling time ago may still be replaying what it missed: its kind is read afresh', async () => {
    const t = new WatchedServer({});
    t.refused.add('/api/v1/pods');
    const clock = new FakeClock(0);
    const k = new KubeClusterClient({ transport: t, clock, log: discardLogger, random: () => 0, resources: ['Node', 'Pod'].map(resourceSpec) });
    await k.start(() => undefined);
    await settle();
    t.refused.clear();
    // The reflector's backoff (800 ms without jitter) passes, and the pod watch reopens.
    clock.advance(1_000);
    await settle();
    assert.deepEqual(k.informerStatus().map((s) => [s.kind, s.healthy]), [['Node', true], ['Pod', true]]);
    assert.deepEqual(await k.catchUp(15_000), ['Pod'], 'reopened 200 ms ago');
    clock.advance(15_000);
    assert.deepEqual(await k.catchUp(15_000), [], 'watching for longer than the settling time');
    k.stop();
  });
});

describe('KubeClusterClient: the watches after sync', () => {
  it('open after what the caller does at once on sync (the first binding takes a connection the lists left open)', async () => {
    const sent: string[] = [];
    const t: RestTransport = {
      request: async <T>(req: RestRequest): Promise<T> => {
        sent.push(`${req.method} ${req.path}`);
        return { metadata: { resourceVersion: '5' }, items: [] } as T;
      },
      watch: (path: string): WatchHandle => {
        sent.push(`WATCH ${path}`);
        return { close: () => {} };
      },
    };
    const k = new KubeClusterClient({ transport: t, clock: new FakeClock(0), log: discardLogger, resources: ['Node', 'Pod'].map(resourceSpec) });
    await k.start(() => undefined);
    const pod = { metadata: { name: 'p', namespace: 'ns', uid: 'u' }, spec: { containers: [] } } as Pod;
    await k.bind(pod, 'n1');
    assert.deepEqual(sent, ['GET /api/v1/nodes', 'GET /api/v1/pods', 'POST /api/v1/namespaces/ns/pods/p/binding']);
    await new Promise<void>((r) => setImmediate(r));
    assert.deepEqual(sent.slice(3), ['WATCH /api/v1/nodes', 'WATCH /api/v1/pods'], 'then every kind watches from its list');
    k.stop();
  });
});

describe('KubeClusterClient: the first lists', () => {
  /** Lists answered when the test says: each path's answer waits for `release(path)`. */
  class HeldLists extends FakeApiServer {
    private readonly held = new Map<string, () => void>();
    readonly asked: string[] = [];
    heldPaths = ['/api/v1/nodes', '/api/v1/pods'];

    override async request<T>(req: RestRequest): Promise<T> {
      if (req.method === 'GET' && this.heldPaths.includes(req.path)) {
        this.asked.push(req.path);
        await new Promise<void>((resolve) => this.held.set(req.path, resolve));
      }
      return super.request<T>(req);
    }

    release(path: string): void {
      this.held.get(path)!();
    }
  }

  const lists = {
    '/api/v1/nodes': [{ metadata: { name: 'n1', resourceVersion: '3' } }],
    '/api/v1/pods': [{ metadata: { name: 'p1', namespace: 'ns', resourceVersion: '4' }, spec: { nodeName: 'n1', containers: [] } }],
  };
  const settle = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };
  /** A client started over held lists (nodes, pods and `extra`), with the events it delivers, once its lists were asked for. */
  const startHeld = async (extra: Readonly<Record<string, readonly Record<string, unknown>[]>> = {}) => {
    const t = new HeldLists({ ...lists, ...extra });
    t.heldPaths.push(...Object.keys(extra));
    const c = client(t);
    const kinds: string[] = [];
    const started = c.start((e: WatchEvent) => kinds.push(`${e.type} ${e.kind}`));
    await settle();
    return { t, c, kinds, started };
  };

  const either: [string, string, string, string, string][] = [
    ['node', '/api/v1/nodes', 'ADDED Node', '/api/v1/pods', 'ADDED Pod'],
    ['pod', '/api/v1/pods', 'ADDED Pod', '/api/v1/nodes', 'ADDED Node'],
  ];
  for (const [what, firstPath, firstKind, secondPath, secondKind] of either) {
    it(`a ${what} list in first is delivered while the other is on its way`, async () => {
      const { t, c, kinds, started } = await startHeld();
      assert.deepEqual([...t.asked].sort(), ['/api/v1/nodes', '/api/v1/pods'], 'both lists asked for at once');
      t.release(firstPath);
      await settle();
      assert.deepEqual(kinds, [firstKind], 'before the other list came in');
      t.release(secondPath);
      await started;
      c.stop();
      assert.deepEqual(kinds, [firstKind, secondKind]);
    });
  }

  it('the kinds before nodes and pods are still delivered before either, in table order', async () => {
    const classes = '/apis/resource.k8s.io/v1/deviceclasses';
    const { t, c, kinds, started } = await startHeld({ [classes]: [{ metadata: { name: 'gpu', resourceVersion: '1' }, spec: {} }] });
    t.release('/api/v1/pods');
    t.release('/api/v1/nodes');
    await settle();
    assert.deepEqual(kinds, [], 'nodes and pods wait for the device classes');
    t.release(classes);
    await started;
    c.stop();
    // Both were in by then: the table's order.
    assert.deepEqual(kinds, ['ADDED DeviceClass', 'ADDED Node', 'ADDED Pod']);
  });
});
