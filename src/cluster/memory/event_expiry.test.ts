import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { FakeClock } from '../../util/clock.js';
import { defaultEventTtlMs, EventExpiry } from './event_expiry.js';
import { MemoryCluster } from './store.js';

const hour = defaultEventTtlMs;

function setup() {
  const clock = new FakeClock(0);
  const cluster = new MemoryCluster({ clock, volumeController: false, resourceClaimController: false });
  const deleted: string[] = [];
  cluster.subscribe(({ event }) => {
    if (event.kind === 'Event' && event.type === 'DELETED') deleted.push(`${event.object.metadata?.name}@${clock.now()}`);
  });
  return { clock, cluster, deleted, expiry: new EventExpiry(cluster, clock) };
}

const event = (name: string, note = 'x'): KubeObject => ({
  apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name, namespace: 'default' },
  eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'c', reportingInstance: 'i', action: 'Binding', reason: 'Scheduled', type: 'Normal', note,
} as KubeObject);

const names = (cluster: MemoryCluster) => cluster.list('Event').map((e) => e.metadata?.name).sort();

describe('EventExpiry (kube-apiserver --event-ttl)', () => {
  it('deletes an Event one hour after it was written, not before, with a DELETED watch event', () => {
    const { clock, cluster, deleted, expiry } = setup();
    expiry.start();
    cluster.create(event('a'));
    clock.advance(1000);
    cluster.create(event('b'));
    clock.advance(hour - 1001);
    assert.deepEqual(names(cluster), ['a', 'b']);
    clock.advance(1);
    assert.deepEqual(names(cluster), ['b']);
    clock.advance(1000);
    assert.deepEqual(names(cluster), []);
    assert.deepEqual(deleted, [`a@${hour}`, `b@${hour + 1000}`]);
    assert.equal(expiry.pending, 0);
  });

  it('a write of the Event starts its hour again, as every write to etcd sets the TTL', () => {
    const { clock, cluster, expiry } = setup();
    expiry.start();
    cluster.create(event('a'));
    clock.advance(hour / 2);
    cluster.update(event('a', 'again'));
    clock.advance(hour / 2);
    assert.deepEqual(names(cluster), ['a']);
    clock.advance(hour / 2);
    assert.deepEqual(names(cluster), []);
  });

  it('Events stored before it starts expire an hour after the start; other kinds never', () => {
    const { clock, cluster, expiry } = setup();
    cluster.create(event('old'));
    cluster.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' } } as KubeObject);
    clock.advance(10 * hour);
    expiry.start();
    clock.advance(hour - 1);
    assert.deepEqual(names(cluster), ['old']);
    clock.advance(1);
    assert.deepEqual(names(cluster), []);
    assert.equal(cluster.list('ConfigMap').length, 1);
  });

  it('an Event a client deleted is forgotten; stop leaves the rest', () => {
    const { clock, cluster, deleted, expiry } = setup();
    expiry.start();
    cluster.create(event('gone'));
    cluster.create(event('kept'));
    cluster.remove('Event', 'default', 'gone');
    assert.equal(expiry.pending, 1);
    expiry.stop();
    clock.advance(2 * hour);
    assert.deepEqual(names(cluster), ['kept']);
    assert.deepEqual(deleted, ['gone@0']);
  });
});
