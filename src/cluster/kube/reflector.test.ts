import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Pod } from '../../api/types.js';
import { podSchedulingProblem } from '../../api/validation/index.js';
import { discardLogger } from '../../log/logger.js';
import { FakeClock } from '../../util/clock.js';
import type { WatchEvent } from '../types.js';
import { StatusError } from './errors.js';
import { Reflector, type ReflectorOptions } from './reflector.js';
import type { RawWatchEvent, RestRequest, RestTransport, WatchHandle } from './rest.js';

const obj = (name: string, uid: string, rv: string, phase?: string): KubeObject =>
  ({ metadata: { namespace: 'ns', name, uid, resourceVersion: rv }, spec: { containers: [] }, status: phase ? { phase } : {} }) as KubeObject;
const raw = (o: KubeObject) => o as unknown as Record<string, unknown>;

interface ScriptedWatch {
  readonly query: Readonly<Record<string, string | undefined>>;
  closedByClient: boolean;
  open(): void;
  emit(e: RawWatchEvent): void;
  end(err: Error | null): void;
}

/** Lists from a script (then the current state) and hands the test each watch opened. */
class ScriptedTransport implements RestTransport {
  state: { items: KubeObject[]; rv: string } = { items: [], rv: '1' };
  /** Answers of the next list requests, in order: an error to throw, or undefined for the state. */
  readonly listScript: (Error | undefined)[] = [];
  /** Errors the next watch requests fail with before any stream (undefined: the test drives it). */
  readonly watchScript: (Error | undefined)[] = [];
  readonly listQueries: Readonly<Record<string, string | undefined>>[] = [];
  readonly listTimeouts: (number | undefined)[] = [];
  /** Each list request's withoutManagedFields. */
  readonly listTrims: (boolean | undefined)[] = [];
  readonly watches: ScriptedWatch[] = [];

  async request<T>(req: RestRequest): Promise<T> {
    this.listQueries.push(req.query ?? {});
    this.listTimeouts.push(req.timeoutMs);
    this.listTrims.push(req.withoutManagedFields);
    const scripted = this.listScript.shift();
    if (scripted) throw scripted;
    return { metadata: { resourceVersion: this.state.rv }, items: this.state.items.map((o) => structuredClone(o)) } as T;
  }

  watch(_path: string, query: Readonly<Record<string, string | undefined>>, onEvent: (e: RawWatchEvent) => void, onClose: (err: Error | null) => void, onOpen?: () => void): WatchHandle {
    let done = false;
    const w: ScriptedWatch = {
      query,
      closedByClient: false,
      open: () => onOpen?.(),
      emit: (e) => {
        if (!done) onEvent(e);
      },
      end: (err) => {
        if (done) return;
        done = true;
        onClose(err);
      },
    };
    this.watches.push(w);
    const failure = this.watchScript.shift();
    if (failure) queueMicrotask(() => w.end(failure));
    return {
      close: () => {
        w.closedByClient = true;
        w.end(null);
      },
    };
  }
}

/** Lets promise chains and microtasks run (no time passes on the fake clock). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' });

function setup(extra: Partial<ReflectorOptions> = {}) {
  const t = new ScriptedTransport();
  const clock = new FakeClock(0);
  const events: string[] = [];
  const health: string[] = [];
  const handler = (e: WatchEvent) => events.push(`${e.type} ${e.object.metadata?.name}@${e.object.metadata?.resourceVersion}${e.oldObject ? ` (was @${e.oldObject.metadata?.resourceVersion})` : ''}`);
  const r = new Reflector({
    spec: { key: 'Pod', kind: 'Pod', apiVersion: 'v1', path: '/api/v1/pods', namespaced: true },
    transport: t,
    clock,
    log: discardLogger,
    handler,
    keep: (o) => (o as { status?: { phase?: string } }).status?.phase !== 'Succeeded',
    random: () => 0,
    onHealth: (kind, err) => health.push(err ? `${kind} unhealthy: ${err.message}` : `${kind} healthy`),
    ...extra,
  });
  /** The first list, applied, and the watch loop started. */
  const start = async () => {
    const l = await r.listUntilSynced();
    r.replace(l!.items, l!.resourceVersion);
    void r.run();
    await settle();
  };
  return { t, r, clock, events, health, start };
}

test('watch events reach the handler with the previous version; duplicates and unknown deletes are dropped', async () => {
  const { t, r, events, start } = setup();
  t.state = { items: [obj('a', 'u1', '5')], rv: '7' };
  await start();
  assert.equal(t.listQueries[0]!.resourceVersion, '0', 'the first list may be served from the watch cache');
  assert.equal(t.listQueries[0]!.limit, '500');
  assert.equal(t.listTimeouts[0], 60_000, 'a hung list is given up');
  assert.ok(Number(t.watches[0]!.query.timeoutSeconds) >= 300 && Number(t.watches[0]!.query.timeoutSeconds) <= 600, 'watches end after 5-10 minutes');
  assert.equal(t.watches[0]!.query.resourceVersion, '7');
  const w = t.watches[0]!;
  w.open();
  w.emit({ type: 'MODIFIED', object: raw(obj('a', 'u1', '8')) });
  w.emit({ type: 'MODIFIED', object: raw(obj('a', 'u1', '8')) });
  w.emit({ type: 'DELETED', object: raw(obj('ghost', 'u9', '9')) });
  w.emit({ type: 'ADDED', object: raw(obj('b', 'u2', '10')) });
  w.emit({ type: 'MODIFIED', object: raw(obj('b', 'u2', '11', 'Succeeded')) });
  w.emit({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '12' } } });
  assert.deepEqual(events, ['ADDED a@5', 'MODIFIED a@8 (was @5)', 'ADDED b@10', 'DELETED b@11 (was @10)']);
  assert.equal(r.resourceVersion, '12');
  // A stream the server ends (its timeoutSeconds) resumes at once from the last version seen.
  w.end(null);
  await settle();
  assert.equal(t.watches[1]!.query.resourceVersion, '12');
  assert.equal(r.status().watches, 1);
  r.stop();
});

test('listed and watched objects reach the handler marked as from the API server, so the scheduler does not check them again', async () => {
  const seen: Pod[] = [];
  const { t, r, start } = setup({ handler: (e) => seen.push(e.object as Pod) });
  // Invalid on purpose (a negative request): the API server would have refused it, so only the mark lets it pass.
  const invalid = (name: string, rv: string) => {
    const o = obj(name, `u-${name}`, rv);
    (o as Pod).spec!.containers = [{ name: 'c', image: 'i', resources: { requests: { cpu: '-1' } } }];
    return o;
  };
  t.state = { items: [invalid('listed', '5')], rv: '5' };
  await start();
  t.watches[0]!.open();
  t.watches[0]!.emit({ type: 'ADDED', object: raw(invalid('watched', '6')) });
  assert.deepEqual(seen.map((p) => [p.metadata?.name, podSchedulingProblem(p)]), [['listed', null], ['watched', null]]);
  assert.match(podSchedulingProblem(structuredClone(seen[0]!)) ?? '', /Invalid value: "-1"/, 'the same object built elsewhere is checked');
  r.stop();
});

test('a 410 Gone relists after backoff at the last resourceVersion and reconciles: new, changed, replaced (new uid) and vanished objects', async () => {
  const { t, r, clock, events, start } = setup();
  t.state = { items: [obj('keep', 'u1', '1'), obj('change', 'u2', '2'), obj('gone', 'u3', '3'), obj('renamed', 'u4', '4')], rv: '4' };
  await start();
  events.length = 0;
  t.state = { items: [obj('keep', 'u1', '1'), obj('change', 'u2', '20'), obj('renamed', 'u5', '21'), obj('new', 'u6', '22')], rv: '22' };
  t.watches[0]!.open();
  t.watches[0]!.emit({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 4 (10)' } });
  await settle();
  assert.equal(t.listQueries.length, 1, 'no relist before the backoff');
  clock.advance(800);
  await settle();
  assert.equal(t.listQueries[1]!.resourceVersion, '4');
  assert.equal(t.listQueries[1]!.limit, undefined, 'a list at a resourceVersion is not paged, so the watch cache can serve it');
  assert.deepEqual(events, ['MODIFIED change@20 (was @2)', 'DELETED renamed@4 (was @4)', 'ADDED renamed@21', 'ADDED new@22', 'DELETED gone@3 (was @3)']);
  assert.equal(r.relists, 1);
  assert.equal(t.watches[1]!.query.resourceVersion, '22');
  r.stop();
});

test('connection refused: the watch is retried from the same resourceVersion with growing backoff, without relisting', async () => {
  const { t, r, clock, health, start } = setup();
  t.state = { items: [obj('a', 'u1', '5')], rv: '5' };
  await start();
  t.watches[0]!.open();
  t.watchScript.push(refused(), refused());
  clock.advance(2000);
  t.watches[0]!.end(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
  await settle();
  assert.equal(t.watches.length, 2, 'a stream that lived past a second is reopened at once');
  assert.deepEqual(health, ['Pod unhealthy: connect ECONNREFUSED 127.0.0.1:6443']);
  assert.equal(r.status().healthy, false);
  clock.advance(799);
  await settle();
  assert.equal(t.watches.length, 2, 'waits the backoff (800ms)');
  clock.advance(1);
  await settle();
  assert.equal(t.watches.length, 3);
  clock.advance(1599);
  await settle();
  assert.equal(t.watches.length, 3, 'the backoff doubled');
  clock.advance(1);
  await settle();
  assert.equal(t.watches.length, 4);
  t.watches[3]!.open();
  assert.deepEqual(t.watches.map((w) => w.query.resourceVersion), ['5', '5', '5', '5']);
  assert.equal(t.listQueries.length, 1, 'never relisted');
  assert.deepEqual(health, ['Pod unhealthy: connect ECONNREFUSED 127.0.0.1:6443', 'Pod healthy']);
  assert.equal(r.status().healthy, true);
  r.stop();
});

test('a server that lost its data (watch from a too large resourceVersion): relist, falling back to the latest, and reconcile', async () => {
  const { t, r, clock, events, start } = setup();
  t.state = { items: [obj('a', 'u1', '5'), obj('b', 'u2', '9')], rv: '9' };
  await start();
  events.length = 0;
  const tooLarge = () => new StatusError(504, 'Timeout: Too large resource version: 9, current: 3', 'Timeout', [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], 1);
  t.state = { items: [obj('a', 'u7', '2'), obj('c', 'u8', '3')], rv: '3' };
  t.watchScript.push(tooLarge());
  t.listScript.push(tooLarge());
  t.watches[0]!.open();
  clock.advance(2000);
  t.watches[0]!.end(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
  await settle();
  assert.equal(t.watches.length, 2, 'watched again at once, and told the version is not there');
  clock.advance(800);
  await settle();
  assert.deepEqual(t.listQueries.slice(1).map((q) => q.resourceVersion), ['9', undefined], 'relisted at 9, then at the latest');
  assert.deepEqual(events, ['DELETED a@5 (was @5)', 'ADDED a@2', 'ADDED c@3', 'DELETED b@9 (was @9)']);
  assert.equal(t.watches.at(-1)!.query.resourceVersion, '3');
  assert.equal(r.status().healthy, true);
  r.stop();
});

test('429 on a watch waits for Retry-After when it is longer than the backoff', async () => {
  const { t, r, clock, start } = setup();
  await start();
  t.watchScript.push(new StatusError(429, 'too many requests', 'TooManyRequests', [], 5));
  t.watches[0]!.open();
  clock.advance(2000);
  t.watches[0]!.end(null);
  await settle();
  assert.equal(t.watches.length, 2);
  clock.advance(4999);
  await settle();
  assert.equal(t.watches.length, 2);
  clock.advance(1);
  await settle();
  assert.equal(t.watches.length, 3);
  assert.equal(t.listQueries.length, 1);
  r.stop();
});

test('failed lists back off and retry until they succeed; a kind the server does not serve lists as empty', async () => {
  const { t, r, clock, health } = setup();
  t.state = { items: [obj('a', 'u1', '5')], rv: '5' };
  t.listScript.push(new StatusError(503, 'the server is currently unable to handle the request', 'ServiceUnavailable'), refused());
  const listed = r.listUntilSynced();
  await settle();
  clock.advance(800);
  await settle();
  clock.advance(1600);
  await settle();
  const l = await listed;
  assert.equal(l!.items.length, 1);
  assert.equal(t.listQueries.length, 3);
  assert.deepEqual(health, ['Pod unhealthy: the server is currently unable to handle the request', 'Pod healthy']);
  r.stop();

  const missing = setup();
  missing.t.listScript.push(new StatusError(404, 'the server could not find the requested resource', 'NotFound'));
  assert.deepEqual(await missing.r.listUntilSynced(), { items: [], resourceVersion: '' });
  missing.r.stop();
});

test('a very short watch (ended at once with nothing) relists after backoff; a hung one is dropped past its timeout and reopened', async () => {
  const { t, r, clock, start } = setup({ minWatchTimeoutMs: 10_000, watchGraceMs: 5000 });
  t.state = { items: [], rv: '3' };
  await start();
  assert.equal(t.watches[0]!.query.timeoutSeconds, '10');
  t.watches[0]!.open();
  t.watches[0]!.end(null);
  await settle();
  assert.equal(t.watches.length, 1);
  clock.advance(800);
  await settle();
  assert.equal(t.listQueries.length, 2, 'relisted');
  assert.equal(t.watches.length, 2);
  t.watches[1]!.open();
  clock.advance(14_999);
  await settle();
  assert.equal(t.watches.length, 2);
  clock.advance(1);
  await settle();
  assert.ok(t.watches[1]!.closedByClient, 'the hung watch was closed');
  assert.equal(t.watches.length, 3, 'and another opened at once');
  assert.equal(t.watches[2]!.query.resourceVersion, '3');
  r.stop();
  assert.ok(t.watches[2]!.closedByClient, 'stop closes the open watch');
});

test('a watch request cut before its answer is sent again after a second, as the rest client retries it, ten times before a relist', async () => {
  const { t, r, clock, start } = setup();
  t.state = { items: [], rv: '4' };
  await start();
  const hangUp = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  for (let i = 0; i < 11; i++) t.watchScript.push(hangUp());
  t.watches[0]!.open();
  clock.advance(2000);
  t.watches[0]!.end(null);
  await settle();
  for (let i = 0; i < 10; i++) {
    clock.advance(1000);
    await settle();
  }
  assert.equal(t.watches.length, 12, 'the first watch, the one cut, and ten retries a second apart');
  assert.equal(t.listQueries.length, 1, 'no relist yet');
  assert.ok(t.watches.every((w) => w.query.resourceVersion === '4'));
  clock.advance(800);
  await settle();
  assert.equal(t.listQueries.length, 2, 'the eleventh failure relists after the backoff');
  r.stop();
});

test('catchUp reads the latest state past a watch that missed changes, then watches from there', async () => {
  const { t, r, clock, events, start } = setup();
  t.state = { items: [obj('a', 'u1', '5')], rv: '7' };
  await start();
  const stale = t.watches[0]!;
  stale.open();
  // The server moved on (a pod bound by another leader) without this watch seeing it.
  t.state = { items: [obj('a', 'u1', '9'), obj('b', 'u2', '10')], rv: '12' };
  const failing = new StatusError(500, 'etcd is busy', 'InternalError');
  t.listScript.push(failing);
  const caughtUp = r.catchUp();
  await settle();
  assert.equal(events.length, 1, 'a failed read changes nothing');
  // The retry waits out its backoff on the fake clock, then succeeds.
  clock.advance(60_000);
  await caughtUp;
  assert.deepEqual(events, ['ADDED a@5', 'MODIFIED a@9 (was @5)', 'ADDED b@10']);
  const lastList = t.listQueries[t.listQueries.length - 1]!;
  assert.equal(lastList.resourceVersion, undefined, 'a consistent read: the latest state, not a cache');
  assert.equal(stale.closedByClient, true);
  await settle();
  assert.equal(t.watches[t.watches.length - 1]!.query.resourceVersion, '12');
  r.stop();
});

test('a first list asked for earlier is used instead of listing; a failed one is listed again', async () => {
  const given = { items: [obj('a', 'u1', '5')], resourceVersion: '5' };
  const withFirst = setup({ firstList: Promise.resolve(given) });
  withFirst.t.state = { items: [obj('late', 'u9', '9')], rv: '9' };
  const l = await withFirst.r.listUntilSynced();
  assert.equal(l, given);
  assert.equal(withFirst.t.listQueries.length, 0, 'nothing listed again');
  assert.equal(withFirst.r.status().lists, 1);
  withFirst.r.replace(l!.items, l!.resourceVersion);
  void withFirst.r.run();
  await settle();
  assert.equal(withFirst.t.watches[0]!.query.resourceVersion, '5', 'the watch resumes from the given list');
  withFirst.r.stop();

  const failed = setup({ firstList: Promise.reject(new StatusError(503, 'the server is currently unable to handle the request', 'ServiceUnavailable')) });
  failed.t.state = { items: [obj('b', 'u2', '7')], rv: '7' };
  const relisted = await failed.r.listUntilSynced();
  assert.deepEqual(relisted!.items.map((o) => o.metadata?.name), ['b']);
  assert.equal(failed.t.listQueries[0]!.resourceVersion, '0');
  failed.r.stop();
});

test('with trimManagedFields, listed and watched objects reach the store and the handler without managedFields', async () => {
  const managed = (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o.metadata, managedFields: [{ manager: 'kubectl', operation: 'Update' }] } } as KubeObject);
  for (const trim of [true, false]) {
    const seen: KubeObject[] = [];
    const { t, r, start } = setup({ trimManagedFields: trim, handler: (e) => seen.push(e.object) });
    t.state = { items: [managed(obj('a', 'u1', '5'))], rv: '7' };
    await start();
    t.watches[0]!.open();
    t.watches[0]!.emit({ type: 'ADDED', object: raw(managed(obj('b', 'u2', '8'))) });
    const fields = [...r.store.values(), ...seen].map((o) => o.metadata?.managedFields?.length ?? 0);
    assert.deepEqual(fields, trim ? [0, 0, 0, 0] : [1, 1, 1, 1], `trimManagedFields: ${trim}`);
    // The list asks the transport to leave them out of what it decodes (HttpTransport cuts them from the text).
    assert.deepEqual(t.listTrims, [trim], `trimManagedFields: ${trim}`);
    r.stop();
  }
});
