import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger, formatTextValue } from './logger.js';

// 2024-03-05T07:08:09.123456Z
const at = Date.UTC(2024, 2, 5, 7, 8, 9) + 123.456;

function capture(format: 'text' | 'json', verbosity = 0) {
  const lines: string[] = [];
  const log = createLogger({ format, verbosity, sink: (l) => lines.push(l), now: () => at, pid: 42 });
  return { log, lines };
}

test('text lines carry klog header, quoted message and key=value pairs', () => {
  const { log, lines } = capture('text');
  log.withName('scheduler').info('Successfully bound pod to node', { pod: 'default/p1', node: 'n1', evaluatedNodes: 3, feasible: true });
  assert.deepEqual(lines, ['I0305 07:08:09.123456      42 scheduler] "Successfully bound pod to node" pod="default/p1" node="n1" evaluatedNodes=3 feasible=true\n']);
});

test('errors and warnings use E and W severities; the error message goes in err=', () => {
  const { log, lines } = capture('text');
  log.error(new Error('connection refused'), 'Failed to list', { kind: 'Pod' });
  log.warning('Profile names plugins that are not built yet');
  assert.equal(lines[0], 'E0305 07:08:09.123456      42 kube-scheduler-ts] "Failed to list" err="connection refused" kind="Pod"\n');
  assert.match(lines[1]!, /^W0305 07:08:09\.123456 +42 kube-scheduler-ts\] "Profile names plugins that are not built yet"\n$/);
});

test('verbosity gates v(n) messages, never errors', () => {
  const { log, lines } = capture('text', 2);
  log.v(2).info('shown');
  log.v(3).info('hidden');
  log.v(4).error(new Error('boom'), 'errors always show');
  assert.equal(lines.length, 2);
  assert.ok(log.enabled(2));
  assert.ok(!log.enabled(3));
});

test('json lines have ts (ms), caller, msg, v, and the key/values', () => {
  const { log, lines } = capture('json', 4);
  log.withName('leaderelection').v(4).info('Failed to acquire lease', { lease: 'kube-system/kube-scheduler' });
  log.error(new Error('timeout'), 'Failed to renew lease');
  assert.deepEqual(JSON.parse(lines[0]!), { ts: at, caller: 'leaderelection', msg: 'Failed to acquire lease', v: 4, lease: 'kube-system/kube-scheduler' });
  assert.deepEqual(JSON.parse(lines[1]!), { ts: at, msg: 'Failed to renew lease', err: 'timeout' });
});

test('text values: strings quoted, nil for missing, objects as JSON', () => {
  assert.equal(formatTextValue('a "b"'), '"a \\"b\\""');
  assert.equal(formatTextValue(undefined), '<nil>');
  assert.equal(formatTextValue(null), '<nil>');
  assert.equal(formatTextValue(['x', 1]), '["x",1]');
  assert.equal(formatTextValue(new Error('e')), '"e"');
});
