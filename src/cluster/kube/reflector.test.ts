import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../api/types.js';
import { discardLogger } from '../../log/logger.js';
import { FakeClock } from '../../util/clock.js';
import type { WatchEvent } from '../types.js';
import { Reflector } from './reflector.js';
import type { RawWatchEvent, RestRequest, RestTransport, WatchHandle } from './rest.js';

const obj = (name: string, uid: string, rv: string, phase?: string): KubeObject =>
  ({ metadata: { namespace: 'ns', name, uid, resourceVersion: rv }, spec: { containers: [] }, status: phase ? { phase } : {} }) as KubeObject;

/** Serves one list and hands the test each watch opened. */
class ScriptedTransport implements RestTransport {
  list: { items: KubeObject[]; rv: string } = { items: [], rv: '1' };
  readonly watches: { query: Readonly<Record<string, string | undefined>>; emit: (e: RawWatchEvent) => void; close: (err: Error | null) => void }[] = [];

  async request<T>(_req: RestRequest): Promise<T> {
    return { metadata: { resourceVersion: this.list.rv }, items: this.list.items.map((o) => structuredClone(o)) } as T;
  }

  watch(_path: string, query: Readonly<Record<string, string | undefined>>, onEvent: (e: RawWatchEvent) => void, onClose: (err: Error | null) => void): WatchHandle {
    this.watches.push({ query, emit: onEvent, close: onClose });
    return { close: () => undefined };
  }
}

const flush = () => new Promise<void>((r) => setImmediate(r));

function setup() {
  const t = new ScriptedTransport();
  const events: string[] = [];
  const handler = (e: WatchEvent) => events.push(`${e.type} ${e.object.metadata?.name}@${e.object.metadata?.resourceVersion}${e.oldObject ? ` (was @${e.oldObject.metadata?.resourceVersion})` : ''}`);
  const r = new Reflector({
    spec: { kind: 'Pod', apiVersion: 'v1', path: '/api/v1/pods', namespaced: true },
    transport: t,
    clock: new FakeClock(0),
    log: discardLogger,
    handler,
    keep: (o) => (o as { status?: { phase?: string } }).status?.phase !== 'Succeeded',
    random: () => 0,
  });
  return { t, r, events };
}

test('watch events reach the handler with the previous version; duplicates and unknown deletes are dropped', async () => {
  const { t, r, events } = setup();
  t.list = { items: [obj('a', 'u1', '5')], rv: '7' };
  const l = await r.listWithRetry();
  r.replace(l!.items, l!.resourceVersion);
  void r.watchLoop();
  await flush();
  assert.equal(t.watches[0]!.query.resourceVersion, '7');
  const w = t.watches[0]!;
  w.emit({ type: 'MODIFIED', object: obj('a', 'u1', '8') as unknown as Record<string, unknown> });
  w.emit({ type: 'MODIFIED', object: obj('a', 'u1', '8') as unknown as Record<string, unknown> });
  w.emit({ type: 'DELETED', object: obj('ghost', 'u9', '9') as unknown as Record<string, unknown> });
  w.emit({ type: 'ADDED', object: obj('b', 'u2', '10') as unknown as Record<string, unknown> });
  w.emit({ type: 'MODIFIED', object: obj('b', 'u2', '11', 'Succeeded') as unknown as Record<string, unknown> });
  w.emit({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '12' } } });
  assert.deepEqual(events, ['ADDED a@5', 'MODIFIED a@8 (was @5)', 'ADDED b@10', 'DELETED b@11 (was @10)']);
  assert.equal(r.resourceVersion, '12');
  // A stream that ends resumes from the last version seen.
  w.close(null);
  await flush();
  assert.equal(t.watches[1]!.query.resourceVersion, '12');
  r.stop();
});

test('a relist after 410 reconciles the store: new, changed, replaced (new uid) and vanished objects', async () => {
  const { t, r, events } = setup();
  t.list = { items: [obj('keep', 'u1', '1'), obj('change', 'u2', '2'), obj('gone', 'u3', '3'), obj('renamed', 'u4', '4')], rv: '4' };
  const l = await r.listWithRetry();
  r.replace(l!.items, l!.resourceVersion);
  void r.watchLoop();
  await flush();
  events.length = 0;
  t.list = { items: [obj('keep', 'u1', '1'), obj('change', 'u2', '20'), obj('renamed', 'u5', '21'), obj('new', 'u6', '22')], rv: '22' };
  t.watches[0]!.emit({ type: 'ERROR', object: { kind: 'Status', code: 410, message: 'too old resource version: 4 (10)' } });
  await flush();
  await flush();
  assert.deepEqual(events, ['MODIFIED change@20 (was @2)', 'DELETED renamed@4 (was @4)', 'ADDED renamed@21', 'ADDED new@22', 'DELETED gone@3 (was @3)']);
  assert.equal(r.relists, 1);
  assert.equal(t.watches[1]!.query.resourceVersion, '22');
  r.stop();
});
