import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExtensionPointLabel, MetricsRecorder } from '../metrics_recorder.js';
import { CycleState } from '../cycle_state.js';
import type { FilterPlugin, Plugin, ScorePlugin } from '../interfaces.js';
import { NodeInfo } from '../node_info.js';
import { PodInfo } from '../pod_info.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { filterCall, scoreCall } from './call_specs.js';
import { Code, Status } from '../status.js';
import type { CallSpec } from './plugin_calls.js';
import { PluginCalls } from './plugin_calls.js';

/** A recorder keeping what the two duration metrics receive; every other metric is ignored. */
function recorder(): { rec: MetricsRecorder; points: string[]; plugins: string[] } {
  const points: string[] = [];
  const plugins: string[] = [];
  const ignore = () => {};
  const rec: MetricsRecorder = {
    observeExtensionPointDuration: (point, status, profile, seconds) => points.push(`${point} ${status} ${profile} ${seconds}`),
    observePluginDuration: (plugin, point, status, seconds) => plugins.push(`${plugin} ${point} ${status} ${seconds}`),
    observePermitWaitDuration: ignore,
    observePreemptionAttempt: ignore,
    observePreemptionVictims: ignore,
    observePreemptionPDBViolations: ignore,
    observePreemptionExecution: ignore,
    observeResourceClaimCreate: ignore,
    observeBatchAttempt: ignore,
    observeBatchCacheFlush: ignore,
    observeBatchRescore: ignore,
    observeGetNodeHint: ignore,
    observeStoreScheduleResults: ignore,
  };
  return { rec, points, plugins };
}

/** A clock advancing one second per reading. */
function ticking(): () => number {
  let t = 0;
  return () => t++;
}

interface Answering extends Plugin {
  answer(x: number): Status | null;
}

const answerCall = (point: ExtensionPointLabel | null): CallSpec<Answering, number, undefined, undefined, Status | null> => ({
  point,
  call: (p, x) => p.answer(x),
  status: (r) => r,
  thrown: (s) => s,
});

const plugin = (answer: (x: number) => Status | null): Answering => ({ name: 'P', answer });

describe('PluginCalls.call', () => {
  const cases: { name: string; answer: (x: number) => Status | null; timed: boolean; point: ExtensionPointLabel | null; wantCode: Code; wantMessage?: string; wantPlugins: string[] }[] = [
    { name: 'a success, untimed', answer: () => null, timed: false, point: 'Filter', wantCode: Code.Success, wantPlugins: [] },
    { name: 'a success, timed', answer: () => null, timed: true, point: 'Filter', wantCode: Code.Success, wantPlugins: ['P Filter Success 1'] },
    { name: 'a rejection keeps its code in the metric', answer: () => Status.unschedulable('no'), timed: true, point: 'Filter', wantCode: Code.Unschedulable, wantPlugins: ['P Filter Unschedulable 1'] },
    {
      name: 'a throw becomes the error status',
      answer: () => {
        throw new TypeError('boom');
      },
      timed: true,
      point: 'Reserve',
      wantCode: Code.Error,
      wantMessage: 'boom',
      wantPlugins: ['P Reserve Error 1'],
    },
    {
      name: 'a thrown string is its message',
      answer: () => {
        throw 'plain';
      },
      timed: false,
      point: 'Reserve',
      wantCode: Code.Error,
      wantMessage: 'plain',
      wantPlugins: [],
    },
    { name: 'a call upstream does not time records nothing', answer: () => null, timed: true, point: null, wantCode: Code.Success, wantPlugins: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { rec, plugins, points } = recorder();
      const calls = new PluginCalls(rec, 'profile', ticking());
      const s = calls.call(answerCall(c.point), plugin(c.answer), c.timed, 7, undefined, undefined);
      assert.equal(s?.code ?? Code.Success, c.wantCode);
      if (c.wantMessage !== undefined) assert.equal(s!.message(), c.wantMessage);
      assert.deepEqual(plugins, c.wantPlugins);
      assert.deepEqual(points, []);
    });
  }

  it('keeps the Error a plugin threw, so its class stays readable', () => {
    const calls = new PluginCalls(null, 'profile');
    const s = calls.call(answerCall('Filter'), plugin(() => {
      throw new RangeError('out');
    }), false, 0, undefined, undefined);
    assert.ok(s!.error instanceof RangeError);
  });
});

describe('PluginCalls.callAsync', () => {
  const asyncCall = {
    point: 'Bind' as const,
    call: (p: Answering, x: number) => Promise.resolve().then(() => p.answer(x)),
    status: (r: Status | null) => r,
    thrown: (s: Status) => s,
  };

  it('times a promise until it settles and turns a rejection into an error', async () => {
    const { rec, plugins } = recorder();
    const calls = new PluginCalls(rec, 'profile', ticking());
    const s = await calls.callAsync(asyncCall, plugin(() => {
      throw new Error('lost');
    }), true, 1, undefined, undefined);
    assert.equal(s!.code, Code.Error);
    assert.equal(s!.message(), 'lost');
    assert.deepEqual(plugins, ['P Bind Error 1']);
  });

  it('answers at once when the plugin does', () => {
    const calls = new PluginCalls(null, 'profile');
    const out = calls.callAsync({ ...asyncCall, call: (p: Answering, x: number) => p.answer(x) }, plugin(() => Status.unschedulable('no')), false, 1, undefined, undefined);
    assert.ok(!(out instanceof Promise));
    assert.equal(out!.code, Code.Unschedulable);
  });
});

describe('PluginCalls.point', () => {
  it('records the extension point with the status read from its result', () => {
    const { rec, points } = recorder();
    const calls = new PluginCalls(rec, 'profile', ticking());
    const r = calls.point('PreFilter', () => ({ status: Status.unresolvable('x') }), (v) => v.status);
    assert.equal(r.status.code, Code.UnschedulableAndUnresolvable);
    assert.deepEqual(points, ['PreFilter UnschedulableAndUnresolvable profile 1']);
  });

  it('reads no clock without a recorder', () => {
    const calls = new PluginCalls(null, 'profile', () => assert.fail('clock read'));
    assert.equal(calls.point('Score', () => 3, () => null), 3);
    assert.equal(calls.measured, false);
  });

  it('ends an asynchronous point when it finishes', async () => {
    const { rec, points } = recorder();
    const calls = new PluginCalls(rec, 'profile', ticking());
    const r = await calls.pointAsync('PreBind', () => Promise.resolve(Status.error('x')), (s) => s);
    assert.equal(r.code, Code.Error);
    assert.deepEqual(points, ['PreBind Error profile 1']);
  });
});

describe('PluginCalls.call (Filter) and callScore (the per-node calls)', () => {
  const state = new CycleState();
  const pod = new PodInfo(makePod('p'));
  const node = new NodeInfo(makeNode('n'));
  const throwing = (): never => {
    throw new Error('broken');
  };

  for (const timed of [false, true]) {
    it(`answer as call does, ${timed ? 'timed' : 'untimed'}`, () => {
      const { rec, plugins } = recorder();
      const calls = new PluginCalls(rec, 'profile', ticking());
      const rejecting: FilterPlugin = { name: 'F', filter: () => Status.unschedulable('no') };
      const failing: FilterPlugin = { name: 'G', filter: throwing };
      const scoring: ScorePlugin = { name: 'S', score: () => 42 };
      const scoreFailing: ScorePlugin = { name: 'T', score: throwing };
      assert.equal(calls.call(filterCall, rejecting, timed, state, pod, node)!.code, Code.Unschedulable);
      const err = calls.call(filterCall, failing, timed, state, pod, node)!;
      assert.deepEqual([err.code, err.message()], [Code.Error, 'broken']);
      assert.equal(calls.callScore(scoreCall, scoring, timed, state, pod, node), 42);
      const scoreErr = calls.callScore(scoreCall, scoreFailing, timed, state, pod, node) as Status;
      assert.deepEqual([scoreErr.code, scoreErr.message()], [Code.Error, 'broken']);
      assert.deepEqual(plugins, timed ? ['F Filter Unschedulable 1', 'G Filter Error 1', 'S Score Success 1', 'T Score Error 1'] : []);
    });
  }
});
