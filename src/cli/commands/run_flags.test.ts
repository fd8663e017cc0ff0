// `run`'s flags and their effect on the configuration, without a cluster.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inTreeRegistry } from '../../plugins/registry.js';
import { DefaultSchedulerPort, parseRunFlags, resolveRunConfiguration } from './run.js';

const registry = inTreeRegistry();

test('run flags: klog -v spellings, leader-election overrides, bad values rejected', () => {
  const f = parseRunFlags(['-v', '4', '--leader-elect=false', '--leader-elect-resource-name', 'second-scheduler', '--bind-address', '127.0.0.1']);
  assert.equal(f.verbosity, 4);
  assert.equal(f.securePort, DefaultSchedulerPort);
  assert.equal(f.bindAddress, '127.0.0.1');
  const cfg = resolveRunConfiguration(f, registry);
  assert.equal(cfg.leaderElection.leaderElect, false);
  assert.equal(cfg.leaderElection.resourceName, 'second-scheduler');
  assert.equal(cfg.leaderElection.resourceNamespace, 'kube-system');
  assert.equal(cfg.leaderElection.leaseDuration, '15s');
  assert.equal(parseRunFlags(['-v=3']).verbosity, 3);
  assert.throws(() => parseRunFlags(['--logging-format', 'xml']), /--logging-format must be text or json/);
  assert.throws(() => parseRunFlags(['--secure-port', '70000']), /--secure-port/);
  assert.throws(() => parseRunFlags(['extra']), /does not take any arguments/);
});

test('run flags: --plugins is repeatable and keeps the order the modules are given in', () => {
  assert.deepEqual(parseRunFlags([]).plugins, []);
  assert.deepEqual(parseRunFlags(['--plugins', 'a.mjs', '--plugins=b.ts']).plugins, ['a.mjs', 'b.ts']);
});
