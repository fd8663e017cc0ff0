// End-to-end runs of the CLI on small scenarios: exact placements, messages and exit codes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { colorAllowed, describeListenError, verbosityOf } from '../src/cli/io.js';
import { runCli } from '../src/cli/main.js';

const here = dirname(fileURLToPath(import.meta.url));
const scenario = (name: string) => join(here, 'fixtures', 'scenarios', 'cli', name);

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

interface SimPodJSON {
  pod: string;
  outcome: string;
  node: string;
  attempts: number;
  scheduledAt: number | null;
  message: string;
}

describe('simulate', () => {
  it('places pods by least allocation and reports upstream messages', async () => {
    const r = await cli('simulate', scenario('three-nodes.yaml'), '--output', 'json');
    assert.equal(r.code, 0, r.err);
    const report = JSON.parse(r.out) as { pods: SimPodJSON[]; summary: Record<string, number> };
    const byName = Object.fromEntries(report.pods.map((p) => [p.pod, p]));
    assert.equal(byName['default/small']!.node, 'node-3');
    assert.equal(byName['default/large']!.node, 'node-3');
    assert.equal(byName['default/huge']!.outcome, 'Unschedulable');
    assert.equal(
      byName['default/huge']!.message,
      '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. ' +
        'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
    assert.equal(report.summary.scheduled, 2);
    assert.equal(report.summary.unschedulable, 1);
  });

  it('prints a text report with grouped messages and node allocation', async () => {
    const r = await cli('simulate', scenario('three-nodes.yaml'));
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Scheduled 2 pod\(s\), 1 unschedulable/);
    assert.match(r.out, /default\/small -> node-3/);
    assert.match(r.out, /1 pod\(s\): 0\/3 nodes are available/);
    assert.match(r.out, /node-3 +4\/4 100%/);
  });

  it('runs the bundled default scenario; the header counts the pods listed under it, the bound ones apart', async () => {
    const r = await cli('simulate');
    assert.equal(r.code, 0, r.err);
    const header = /^Scheduled (\d+) pod\(s\) \((\d+) already bound\),/.exec(r.out);
    assert.ok(header, r.out.split('\n')[0]);
    const listed = r.out.split('\n\n').find((b) => b.startsWith('Scheduled:'))!.split('\n').length - 1;
    assert.equal(Number(header[1]), listed);
    const json = JSON.parse((await cli('simulate', '--output', 'json')).out) as { summary: { scheduled: number } };
    assert.equal(Number(header[1]) + Number(header[2]), json.summary.scheduled, 'the JSON summary keeps counting every Scheduled pod');
  });

  it('shows extended resources (the bundled GPU nodes) beside cpu, memory and pods, in text and JSON', async () => {
    const text = (await cli('simulate')).out;
    assert.match(text, /^ {2}NODE +CPU +MEMORY +PODS +nvidia\.com\/gpu$/m);
    assert.match(text, /^ {2}node-12 .* 2\/110 +4\/4 100%$/m);
    assert.match(text, /^ {2}node-01 .* 3\/110 +-$/m);
    const json = JSON.parse((await cli('simulate', '--output', 'json')).out) as { nodes: { node: string; extended?: unknown }[] };
    assert.deepEqual(json.nodes.find((n) => n.node === 'node-12')?.extended, [{ name: 'nvidia.com/gpu', requested: 4, allocatable: 4 }]);
    assert.equal(json.nodes.find((n) => n.node === 'node-01')?.extended, undefined);
  });

  it('follows a timeline: pods wait for a deleted pod, a node label and a removed gate', async () => {
    const r = await cli('simulate', scenario('timeline.yaml'), '--output', 'json');
    assert.equal(r.code, 0, r.err);
    const pods = Object.fromEntries((JSON.parse(r.out) as { pods: SimPodJSON[] }).pods.map((p) => [p.pod, p]));
    assert.equal(pods['default/big']!.outcome, 'Deleted');
    assert.deepEqual([pods['default/needs-cpu']!.outcome, pods['default/needs-cpu']!.scheduledAt], ['Scheduled', 10]);
    assert.deepEqual([pods['default/needs-label']!.outcome, pods['default/needs-label']!.scheduledAt], ['Scheduled', 30]);
    assert.deepEqual([pods['default/gated']!.outcome, pods['default/gated']!.scheduledAt], ['Scheduled', 60]);
    // The gated pod never reached a scheduling attempt before its gate was removed.
    assert.equal(pods['default/gated']!.attempts, 1);
    // One failed attempt, then success when the event that helps arrives.
    assert.equal(pods['default/needs-cpu']!.attempts, 2);
    assert.equal(pods['default/needs-label']!.attempts, 2);
  });
});

describe('explain', () => {
  it('reports per-node verdicts, weighted scores and the top nodes', async () => {
    const r = await cli('explain', scenario('three-nodes.yaml'), '--tie-break', 'name');
    assert.equal(r.code, 0, r.err);
    const { pods } = JSON.parse(r.out) as { pods: Array<Record<string, unknown>> };
    assert.equal(pods.length, 3);
    const small = pods[0] as { node: string; filter: Record<string, { plugin: string; code: string; reasons: string[] }>; scores: Record<string, Record<string, number>>; bestNodes: string[] };
    assert.equal(small.node, 'node-3');
    assert.deepEqual(small.filter['node-2'], {
      plugin: 'TaintToleration',
      code: 'UnschedulableAndUnresolvable',
      reasons: ['node(s) had untolerated taint(s)'],
    });
    assert.deepEqual(Object.keys(small.scores).sort(), ['node-1', 'node-3']);
    assert.equal(small.scores['node-3']!.TaintToleration, 300);
    assert.deepEqual(small.bestNodes, ['node-3']);
  });
});

describe('explain output', () => {
  const onTerminal = async (columns: number, color: boolean, ...argv: string[]) => {
    let out = '';
    const code = await runCli(argv, { stdout: (t) => (out += t), stderr: () => {}, terminal: () => ({ columns, color }) });
    return { code, out };
  };

  it('is text on a terminal, cut to its width, and JSON when piped', async () => {
    const text = await onTerminal(70, false, 'explain', scenario('three-nodes.yaml'), '--tie-break', 'name');
    assert.equal(text.code, 0);
    assert.match(text.out, /^default\/small {2}Scheduled on node-3\n/);
    assert.match(text.out, /Rejected on 1 node\(s\)/);
    assert.ok(text.out.split('\n').every((l) => l.length <= 70), 'no line is wider than the terminal');
    assert.ok(!text.out.includes('\u001b['), 'no colour without it');
    const piped = await cli('explain', scenario('three-nodes.yaml'), '--tie-break', 'name');
    assert.doesNotThrow(() => JSON.parse(piped.out));
    const json = await onTerminal(70, true, 'explain', scenario('three-nodes.yaml'), '--output', 'json');
    assert.doesNotThrow(() => JSON.parse(json.out), '--output json wins over the terminal');
  });

  it('colours on a terminal that allows it; NO_COLOR turns it off', async () => {
    const r = await onTerminal(120, true, 'explain', scenario('three-nodes.yaml'));
    assert.ok(r.out.includes('\u001b[1mdefault/small\u001b[0m'));
    assert.equal(colorAllowed({ NO_COLOR: '1' }), false);
    assert.equal(colorAllowed({ NO_COLOR: '' }), true);
    assert.equal(colorAllowed({}), true);
  });

  it('--pod picks one pod by namespace/name or name; an unknown one is bad input', async () => {
    for (const name of ['huge', 'default/huge']) {
      const r = await cli('explain', scenario('three-nodes.yaml'), '--pod', name);
      assert.deepEqual((JSON.parse(r.out) as { pods: { pod: string }[] }).pods.map((p) => p.pod), ['default/huge']);
    }
    const r = await cli('explain', scenario('three-nodes.yaml'), '--pod', 'nope', '--output', 'text');
    assert.equal(r.code, 2);
    assert.match(r.err, /no pod "nope"/);
  });

  it('--timeline explains each pod\'s last attempt with all its attempts', async () => {
    const r = await cli('explain', scenario('timeline.yaml'), '--timeline');
    assert.equal(r.code, 0, r.err);
    const { pods } = JSON.parse(r.out) as { pods: { pod: string; attempts: unknown[] }[] };
    assert.ok(pods.length > 0);
    assert.ok(pods.every((p) => p.attempts.length >= 1));
  });
});

describe('bad input exits 2 with the file, the field and the reason', () => {
  it('rejects a negative score weight', async () => {
    const r = await cli('simulate', scenario('three-nodes.yaml'), '--config', scenario('bad-config.yaml'));
    assert.equal(r.code, 2);
    assert.match(r.err, /bad-config\.yaml/);
    assert.match(r.err, /profiles\[0\]\.plugins\.score\.enabled\[0\]\.weight/);
  });

  it('rejects an unknown plugin', async () => {
    const r = await cli('simulate', scenario('three-nodes.yaml'), '--config', scenario('unknown-plugin.yaml'));
    assert.equal(r.code, 2);
    assert.match(r.err, /profiles\[0\]\.plugins\.filter\.enabled\[0\]\.name/);
    assert.match(r.err, /NoSuchPlugin/);
  });

  it('rejects an unparsable quantity in one pod with the file, the pod, the field and the reason', async () => {
    const r = await cli('simulate', scenario('bad-quantity.yaml'), '--output', 'json');
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.equal(r.err, `error: ${scenario('bad-quantity.yaml')}: pending[1] (Pod default/broken): spec.containers[0].resources.requests.cpu: ` +
      `Invalid value: "1.2.3": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'\n`);
  });

  it('rejects a node with a null taint instead of failing every pod', async () => {
    const r = await cli('simulate', scenario('bad-node-taint.yaml'));
    assert.equal(r.code, 2);
    assert.match(r.err, /bad-node-taint\.yaml: nodes\[0\] \(Node n1\): \[metadata\.taints\[0\]\.key: Invalid value: "": name part must be non-empty, /);
    assert.match(r.err, /metadata\.taints\[0\]\.effect: Required value\]\n$/);
  });

  it('rejects a configuration without a bind plugin as a configuration error', async () => {
    const r = await cli('simulate', scenario('three-nodes.yaml'), '--config', scenario('no-binder.yaml'));
    assert.equal(r.code, 2);
    assert.equal(r.err, `error: ${scenario('no-binder.yaml')}: profiles[0].plugins.bind: Required value: at least one bind plugin is needed for profile with scheduler name "default-scheduler"\n`);
  });

  it('rejects malformed YAML', async () => {
    const r = await cli('simulate', scenario('malformed.yaml'));
    assert.equal(r.code, 2);
    assert.match(r.err, /malformed\.yaml/);
  });

  it('rejects a missing scenario file and unknown flags', async () => {
    assert.equal((await cli('simulate', scenario('nope.yaml'))).code, 2);
    assert.equal((await cli('simulate', '--bogus')).code, 2);
    assert.equal((await cli('frobnicate')).code, 2);
  });

  it('rejects a feature gate upstream does not know, or one locked to its default, in upstream\'s words in every mode', async () => {
    for (const mode of ['simulate', 'explain', 'serve', 'run', 'bench']) {
      const r = await cli(mode, '--feature-gates=NoSuchGate=true');
      assert.deepEqual([r.code, r.err], [2, 'error: unrecognized feature gate: NoSuchGate\n'], mode);
    }
    const locked = await cli('explain', '--feature-gates', 'PodSchedulingReadiness=false');
    assert.deepEqual([locked.code, locked.err], [2, 'error: cannot set feature gate PodSchedulingReadiness to false, feature is locked to true\n']);
  });
});

describe('run and serve: bad flags, files and addresses are one line and exit 2; our own failures one line and exit 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kst-cli-'));
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const kubeconfig = (cluster: string) => `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: ${cluster}
users:
- name: u
  user: {}
contexts:
- name: c
  context: {cluster: c, user: u}
current-context: c
`;
  /** A loopback port nothing listens on: requests to it are refused at once. */
  const closedPort = async () => {
    const s = net.createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as net.AddressInfo).port;
    await new Promise<void>((r) => s.close(() => r()));
    return port;
  };

  const cases: { name: string; argv: () => string[]; err: (argv: string[]) => string }[] = [
    { name: 'a kubeconfig that does not exist', argv: () => ['run', '--kubeconfig', '/missing'], err: () => 'error: --kubeconfig /missing: no such file\n' },
    {
      name: 'a kubeconfig without a server',
      argv: () => ['run', '--kubeconfig', file('noserver', kubeconfig('{}'))],
      err: (a) => `error: --kubeconfig ${a[2]}: cluster 0 has no server (clusters[0].cluster.server)\n`,
    },
    {
      name: 'an unparsable kubeconfig',
      argv: () => ['run', '--kubeconfig', file('garbage', '{{{ nope: [')],
      err: (a) => `error: --kubeconfig ${a[2]}: not a valid kubeconfig: unexpected end of the stream within a flow collection (2:1)\n`,
    },
    { name: 'a bind address that is not an IP', argv: () => ['run', '--bind-address', 'no-such-host'], err: () => 'error: invalid argument "no-such-host" for "--bind-address" flag: failed to parse IP: "no-such-host"\n' },
    { name: 'a certificate without its key', argv: () => ['run', '--tls-cert-file', '/x.crt'], err: () => 'error: --tls-cert-file and --tls-private-key-file must be given together\n' },
    { name: 'a bad duration', argv: () => ['run', '--authentication-token-webhook-cache-ttl', 'soon'], err: () => 'error: invalid argument "soon" for "--authentication-token-webhook-cache-ttl" flag: time: invalid duration "soon"\n' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const argv = c.argv();
      const r = await cli(...argv);
      assert.equal(r.code, 2, r.err);
      assert.equal(r.err, c.err(argv));
    });
  }

  it('a certificate file that is missing or not a certificate', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const kc = file('ok', kubeconfig(`{server: "${url}"}`));
    const key = file('key.pem', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n');
    let r = await cli('run', '--kubeconfig', kc, '--tls-cert-file', '/nope.crt', '--tls-private-key-file', key);
    assert.deepEqual([r.code, r.err], [2, 'error: --tls-cert-file /nope.crt: no such file\n']);
    r = await cli('run', '--kubeconfig', kc, '--tls-cert-file', key, '--tls-private-key-file', key);
    assert.deepEqual([r.code, r.err], [2, `error: --tls-cert-file ${key}: no PEM certificate in it\n`]);
    r = await cli('run', '--kubeconfig', kc, '--authentication-kubeconfig', '/nope.kubeconfig');
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /\nerror: --authentication-kubeconfig \/nope\.kubeconfig: no such file\n$/);
  });

  it('a secure port in use', async () => {
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const kc = file('ok2', kubeconfig(`{server: "http://127.0.0.1:${await closedPort()}"}`));
      const r = await cli('run', '--kubeconfig', kc, '--bind-address', '127.0.0.1', '--secure-port', String(port), '--authentication-skip-lookup');
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, new RegExp(`\\nerror: cannot listen on 127\\.0\\.0\\.1:${port}: address already in use\\n$`));
      const s = await cli('serve', '--port', String(port));
      assert.deepEqual([s.code, s.err], [2, `error: cannot listen on 127.0.0.1:${port}: address already in use\n`]);
    } finally {
      await new Promise<void>((r) => busy.close(() => r()));
    }
  });

  it('an address that does not resolve (as getaddrinfo reports it) is bad input, not a crash', () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND no-such-host'), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: 'no-such-host' });
    assert.equal(describeListenError(notFound), 'cannot listen on "no-such-host": no such host');
    assert.equal(describeListenError(new Error('boom')), undefined);
    assert.deepEqual([verbosityOf(['--x', '-v=4']), verbosityOf(['--v', '5']), verbosityOf(['-v']), verbosityOf([])], [4, 5, 0, 0]);
  });

  it('a failure that is not the input\'s fault: one line and exit 1, the stack only at -v=4', async () => {
    const kc = file('ok3', kubeconfig(`{server: "http://127.0.0.1:${await closedPort()}"}`));
    const argv = ['run', '--kubeconfig', kc, '--bind-address', '127.0.0.1', '--secure-port', String(await closedPort()), '--authentication-tolerate-lookup-failure=false'];
    const quiet = await cli(...argv);
    assert.equal(quiet.code, 1);
    assert.match(quiet.err, /\nerror: unable to load configmap based request-header-client-ca-file: connect ECONNREFUSED 127\.0\.0\.1:\d+\n$/);
    assert.doesNotMatch(quiet.err, / {4}at /);
    const loud = await cli(...argv, '-v=4');
    assert.equal(loud.code, 1);
    assert.match(loud.err, /error: unable to load configmap[^\n]*\nError: unable to load configmap[^\n]*\n {4}at /);
  });
});

describe('scenario loading follows --feature-gates', () => {
  it("drops a group's preemptionPolicy with PodGroupPreemptionPolicy off, and refuses the clash with it on (exit 2)", async () => {
    const off = await cli('simulate', scenario('group-policy-clash.yaml'), '--feature-gates', 'GenericWorkload=true', '-o', 'json');
    assert.equal(off.code, 0, off.err);
    const on = await cli('simulate', scenario('group-policy-clash.yaml'), '--feature-gates', 'GenericWorkload=true,PodGroupPreemptionPolicy=true');
    assert.equal(on.code, 2);
    assert.match(on.err, /PodGroup default\/g.*the string value of PreemptionPolicy \(PreemptLowerPriority\) must not be provided in pod group spec/);
  });
});
