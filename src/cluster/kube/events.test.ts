import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discardLogger } from '../../log/logger.js';
import { FakeClock } from '../../util/clock.js';
import type { ClusterEventRecord } from '../types.js';
import { EventSink, eventSeriesWindowMs, microTime, toEventObject } from './events.js';
import type { RestRequest, RestTransport } from './rest.js';

class RecordingTransport implements RestTransport {
  readonly requests: RestRequest[] = [];
  async request<T>(req: RestRequest): Promise<T> {
    this.requests.push(req);
    return {} as T;
  }
  watch(): { close(): void } {
    throw new Error('no watches here');
  }
}

const failed = (time: number, note = '0/3 nodes are available: 3 Insufficient cpu.'): ClusterEventRecord => ({
  regarding: { kind: 'Pod', namespace: 'web', name: 'p1', uid: 'u1' },
  type: 'Warning',
  reason: 'FailedScheduling',
  action: 'Scheduling',
  note,
  time,
});

test('an events.k8s.io/v1 Event names the pod, the reporting scheduler and a microsecond eventTime', () => {
  const t = Date.UTC(2024, 0, 2, 3, 4, 5, 678);
  const ev = toEventObject(failed(t), 'kube-scheduler-ts', 'kube-scheduler-ts-host', 0);
  assert.equal(ev.eventTime, '2024-01-02T03:04:05.678000Z');
  assert.equal(microTime(t + 0.5), '2024-01-02T03:04:05.678500Z');
  assert.deepEqual(ev.regarding, { kind: 'Pod', namespace: 'web', name: 'p1', uid: 'u1', apiVersion: 'v1' });
  assert.equal(ev.reportingController, 'kube-scheduler-ts');
  assert.equal(ev.reportingInstance, 'kube-scheduler-ts-host');
  assert.match((ev.metadata as { name: string }).name, /^p1\.[0-9a-f]+$/);
  assert.equal((ev.metadata as { namespace: string }).namespace, 'web');
});

test('a repeat within six minutes patches the series; another note or a later repeat makes a new Event', async () => {
  const transport = new RecordingTransport();
  const sink = new EventSink({ transport, clock: new FakeClock(0), log: discardLogger, host: 'h' });
  sink.record(failed(1000), 'default-scheduler');
  sink.record(failed(2000), 'default-scheduler');
  sink.record(failed(3000), 'default-scheduler');
  sink.record(failed(3000, 'other message'), 'default-scheduler');
  sink.record(failed(3000 + eventSeriesWindowMs), 'default-scheduler');
  await sink.flush();
  const summary = transport.requests.map((r) => `${r.method} ${r.path.split('/').slice(-2).join('/')}`);
  const name = (transport.requests[0]!.body as { metadata: { name: string } }).metadata.name;
  assert.deepEqual(summary, ['POST web/events', `PATCH events/${name}`, `PATCH events/${name}`, 'POST web/events', 'POST web/events']);
  assert.deepEqual(transport.requests[2]!.body, { series: { count: 3, lastObservedTime: microTime(3000) } });
  assert.equal(sink.written, 5);
  // Each write is bounded in time: a silent connection must not hold later events, or shutdown.
  for (const r of transport.requests) assert.ok((r.timeoutMs ?? 0) > 0, `${r.method} ${r.path} has a timeout`);
});
