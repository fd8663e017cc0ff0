import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../log/logger.js';
import { FakeClock } from '../../util/clock.js';
import { InformerHealth } from './informer_health.js';

test('one warning when informers fall out of sync, one when all are back with the outage length; /readyz fails in between', () => {
  const clock = new FakeClock(1_000_000);
  const lines: string[] = [];
  const h = new InformerHealth(clock, createLogger({ verbosity: 0, sink: (l) => lines.push(l), now: () => clock.now() }));
  assert.equal(h.check(), null);
  const refused = new Error('connect ECONNREFUSED 127.0.0.1:6443');
  h.update('Pod', refused);
  clock.advance(1000);
  h.update('Node', refused);
  h.update('Pod', refused);
  clock.advance(11_500);
  assert.equal(h.check()?.message, '2 informer(s) out of sync for 13s (Pod, Node); Pod: connect ECONNREFUSED 127.0.0.1:6443');
  h.update('Pod', null);
  assert.notEqual(h.check(), null, 'Node is still out of sync');
  h.update('Node', null);
  h.update('Node', null);
  assert.equal(h.check(), null);
  assert.equal(lines.length, 2, lines.join(''));
  assert.match(lines[0]!, /^W.*"Informers cannot list or watch the API server; retrying with backoff until it answers" kind="Pod" err="connect ECONNREFUSED 127.0.0.1:6443"/);
  assert.match(lines[1]!, /^W.*"Informers are in sync with the API server again" outage="12.500s"/);
});
