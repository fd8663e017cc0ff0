// `run`'s flags (run_flags.ts) and their effect on the configuration, without a cluster.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inTreeRegistry } from '../../plugins/registry.js';
import { DefaultSchedulerPort, parseRunFlags, resolveRunConfiguration } from './run_flags.js';

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
  // Secure serving and delegated authn/authz, with upstream's defaults and pflag's bool spellings.
  assert.deepEqual(
    [f.alwaysAllowPaths, f.authenticationSkipLookup, f.authenticationTolerateLookupFailure, f.tokenCacheTtlMs, f.authorizedCacheTtlMs, f.unauthorizedCacheTtlMs],
    [['/healthz', '/readyz', '/livez'], false, true, 10_000, 10_000, 10_000],
  );
  const s = parseRunFlags(['--authentication-skip-lookup', '--authentication-tolerate-lookup-failure=false', '--authorization-always-allow-paths', '/healthz,/debug/*',
    '--authentication-token-webhook-cache-ttl=1m', '--tls-cert-file', 'c.pem', '--tls-private-key-file', 'k.pem', '--client-ca-file', 'ca.pem']);
  assert.deepEqual([s.authenticationSkipLookup, s.authenticationTolerateLookupFailure, s.alwaysAllowPaths, s.tokenCacheTtlMs], [true, false, ['/healthz', '/debug/*'], 60_000]);
  assert.deepEqual([s.tlsCertFile, s.tlsPrivateKeyFile, s.clientCAFile], ['c.pem', 'k.pem', 'ca.pem']);
  assert.throws(() => parseRunFlags(['--authentication-skip-lookup=maybe']), /invalid argument "maybe" for "--authentication-skip-lookup" flag/);
  assert.throws(() => parseRunFlags(['--bind-address', 'localhost']), /failed to parse IP/);
});

test('run flags: --plugins is repeatable and keeps the order the modules are given in', () => {
  assert.deepEqual(parseRunFlags([]).plugins, []);
  assert.deepEqual(parseRunFlags(['--plugins', 'a.mjs', '--plugins=b.ts']).plugins, ['a.mjs', 'b.ts']);
});
