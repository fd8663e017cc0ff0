// End-to-end runs of the CLI on small scenarios: exact placements, messages and exit codes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../src/cli/main.js';

const here = dirname(fileURLToPath(import.meta.url));
const scenario = (name: string) => join(here, 'scenarios', name);

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
        'preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..',
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

  it('runs the bundled default scenario', async () => {
    const r = await cli('simulate');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Scheduled \d+ pod\(s\)/);
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

  it('keeps serving the other pods when one pod has an invalid quantity', async () => {
    const r = await cli('simulate', scenario('bad-quantity.yaml'), '--output', 'json');
    assert.equal(r.code, 0, r.err);
    const pods = Object.fromEntries((JSON.parse(r.out) as { pods: SimPodJSON[] }).pods.map((p) => [p.pod, p]));
    assert.equal(pods['default/good-1']!.outcome, 'Scheduled');
    assert.equal(pods['default/good-2']!.outcome, 'Scheduled');
    assert.equal(pods['default/broken']!.outcome, 'Unschedulable');
    assert.match(pods['default/broken']!.message, /invalid resource quantity in pod default\/broken: .*"1\.2\.3"/);
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
});
