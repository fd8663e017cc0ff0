// serve --simulator-annotations: a scheduled and a rejected pod get kube-scheduler-simulator's
// result annotations with its shapes, the write does not requeue the rejected pod, and results
// too large for the API's annotation limit are cut with a note.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../api/types.js';
import { validateAnnotations } from '../../api/validation/meta.js';
import { defaultConfiguration } from '../../config/index.js';
import { inTreeRegistry } from '../../plugins/registry.js';
import { createEmbedded } from '../scenario/embedded.js';
import { parseScenario } from '../scenario/scenario.js';
import { profilePlugins, SimulatorAnnotationWriter } from './simulator_annotation_writer.js';
import { annotateResults, simulatorAnnotationKeys as keys, truncatedAnnotationKey, type SimulatorResult } from './simulator_annotations.js';
import { makeNode, makePod } from '../../testing/builders.js';

const node = (name: string, cpu: string) => makeNode(name, { allocatable: { cpu, memory: '8Gi', pods: '10' } });
const pod = (name: string, cpu: string) => makePod(name, { requests: { cpu } });
const scenario = parseScenario(JSON.stringify({
  metadata: { name: 'simulator-annotations' },
  nodes: [node('n1', '2'), node('n2', '4'), node('n3', '4')],
  pending: [],
}), 'simulator-annotations.json');

const json = (p: Pod, key: string): unknown => JSON.parse(p.metadata.annotations?.[key] ?? 'null');

async function scheduledAndRejected() {
  const registry = inTreeRegistry();
  let writer: SimulatorAnnotationWriter | null = null;
  let attempts = 0;
  const env = await createEmbedded(scenario, {
    config: defaultConfiguration(registry), registry, recordScores: true, diagnose: true, tieBreakByName: true,
    onAttempt: (a) => {
      attempts++;
      writer!.record(a);
    },
  });
  const fwk = env.scheduler.profiles.get('default-scheduler')!;
  writer = new SimulatorAnnotationWriter(env.cluster, env.clock, () => profilePlugins(fwk));
  env.cluster.create<Pod>(pod('fits', '3') as Pod);
  env.cluster.create<Pod>(pod('too-big', '8') as Pod);
  for (let i = 0; i < 10 && env.scheduler.scheduleOne() !== false; i++) await env.scheduler.waitForBindings();
  return { env, fwk, attempts: () => attempts, get: (name: string) => env.cluster.getPod('default', name)! };
}

describe('kube-scheduler-simulator result annotations', () => {
  it('writes a scheduled and a rejected pod\'s results in the simulator\'s shapes, in a batch after the delay', async () => {
    const { env, fwk, get } = await scheduledAndRejected();
    assert.equal(get('fits').metadata.annotations?.[keys.filter], undefined, 'nothing is written before the batch');
    env.clock.advance(200);
    const fits = get('fits');
    // Filter plugins whose PreFilter skipped (NodeAffinity, NodePorts, ... for this pod) do not run.
    const passed = { NodeUnschedulable: 'passed', NodeName: 'passed', TaintToleration: 'passed' };
    const insufficient = { ...passed, NodeResourcesFit: 'Insufficient cpu' };
    const allPassed = { ...passed, NodeResourcesFit: 'passed' };
    assert.deepEqual(json(fits, keys.filter), { n1: insufficient, n2: allPassed, n3: allPassed });
    assert.equal(fits.metadata.annotations?.[keys.selectedNode], fits.spec.nodeName);
    const scores = json(fits, keys.score) as Record<string, Record<string, string>>;
    const finals = json(fits, keys.finalScore) as Record<string, Record<string, string>>;
    assert.deepEqual(Object.keys(scores).sort(), ['n2', 'n3']);
    // score-result has Score's answer, finalscore-result the normalized score times the weight:
    // no intolerable taint is 0, normalized (reversed) to 100, by TaintToleration's weight of 3.
    assert.deepEqual([scores.n2!.TaintToleration, finals.n2!.TaintToleration], ['0', '300']);
    assert.match(scores.n2!.NodeResourcesFit!, /^\d+$/);
    assert.deepEqual(json(fits, keys.bind), { DefaultBinder: 'success' });
    assert.deepEqual(json(fits, keys.permitTimeout), {});
    assert.deepEqual(json(fits, keys.preFilter), {});
    const preFilterStatus = json(fits, keys.preFilterStatus) as Record<string, string>;
    assert.deepEqual(Object.keys(preFilterStatus), fwk.preFilterPlugins.map((p) => p.name).sort(), 'keys sorted, as Go writes a map');
    assert.deepEqual([preFilterStatus.NodeResourcesFit, preFilterStatus.NodeAffinity], ['success', ''], 'a PreFilter that skipped has an empty message');
    assert.equal((json(fits, keys.preScore) as Record<string, string>).InterPodAffinity, '', 'a PreScore that skipped has an empty message');
    const history = json(fits, keys.history) as Record<string, string>[];
    assert.equal(history.length, 1);
    assert.equal(history[0]![keys.filter], fits.metadata.annotations?.[keys.filter]);

    const rejected = get('too-big');
    assert.deepEqual(json(rejected, keys.filter), { n1: insufficient, n2: insufficient, n3: insufficient });
    assert.equal(rejected.metadata.annotations?.[keys.selectedNode], '');
    assert.deepEqual(json(rejected, keys.postFilter), { n1: {}, n2: {}, n3: {} });
    for (const k of [keys.score, keys.finalScore, keys.preScore, keys.reserve, keys.permit, keys.preBind, keys.bind]) assert.deepEqual(json(rejected, k), {}, k);
    assert.deepEqual(validateAnnotations(rejected.metadata.annotations, 'metadata.annotations'), []);
    env.scheduler.stop();
  });

  it('does not requeue the rejected pod: an annotation-only update is no event a queueing hint acts on', async () => {
    const { env, attempts, get } = await scheduledAndRejected();
    const uid = get('too-big').metadata.uid!;
    assert.equal(env.scheduler.queue.whereIs(uid), 'unschedulable');
    const before = attempts();
    env.clock.advance(200);
    assert.ok(get('too-big').metadata.annotations?.[keys.filter], 'the results were written');
    env.clock.advance(60_000);
    assert.equal(env.scheduler.scheduleOne(), false);
    assert.equal(env.scheduler.queue.whereIs(uid), 'unschedulable');
    assert.equal(attempts(), before);
    env.scheduler.stop();
  });

  it('appends each attempt to result-history and keeps the pod\'s own annotations', () => {
    const r: SimulatorResult = { nodes: ['a'], rows: { filter: new Map([['a', '{"P":"passed"}']]), postFilter: new Map(), score: new Map(), finalScore: new Map() }, fixed: { [keys.selectedNode]: 'a' } };
    const once = annotateResults({ mine: 'kept' }, [r]);
    const twice = annotateResults(once, [r, r]);
    assert.equal(twice.mine, 'kept');
    assert.equal((JSON.parse(twice[keys.history]!) as unknown[]).length, 3);
    assert.equal(twice[truncatedAnnotationKey], undefined);
  });

  it('cuts history, then nodes, to stay under the limit, and says what it cut', () => {
    const nodes = Array.from({ length: 400 }, (_v, i) => `node-${String(i).padStart(3, '0')}`);
    const filter = new Map(nodes.map((n) => [n, '{"NodeResourcesFit":"Insufficient cpu","TaintToleration":"passed"}']));
    const r: SimulatorResult = { nodes: ['node-399', ...nodes.slice(0, -1)], rows: { filter, postFilter: new Map(), score: new Map(), finalScore: new Map() }, fixed: { [keys.selectedNode]: 'node-399' } };
    const limit = 16 * 1024;
    const out = annotateResults({ [keys.history]: JSON.stringify([{ old: 'x'.repeat(4000) }]) }, [r], limit);
    const size = Object.entries(out).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
    assert.ok(size <= limit, `${size} bytes`);
    const kept = JSON.parse(out[keys.filter]!) as Record<string, unknown>;
    assert.ok('node-399' in kept, 'the selected node is kept first');
    assert.ok(Object.keys(kept).length < nodes.length);
    assert.equal((JSON.parse(out[keys.history]!) as unknown[]).length, 1);
    assert.equal(out[truncatedAnnotationKey], `result-history: 1 older attempt(s) dropped; per-node results: ${Object.keys(kept).length} of 400 nodes kept`);
  });
});
