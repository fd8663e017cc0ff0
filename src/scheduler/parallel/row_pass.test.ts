// The row pass on worker threads decides every pod as the walk on the main thread does: same
// hosts, feasible counts, statuses and messages, same random draws, same next start.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Snapshot } from '../../cache/snapshot.js';
import { CycleState } from '../../framework/cycle_state.js';
import { PodInfo } from '../../framework/pod_info.js';
import { RowPassResult, type RowPassRunner } from '../../framework/row_pass.js';
import type { ScoringStrategy } from '../../plugins/noderesources/args.js';
import { makePod } from '../../testing/builders.js';
import { seededRandom } from '../../util/clock.js';
import { schedulePod, type AlgorithmState } from '../schedule_pod.js';
import { clusterNodes, outcome, podRequests, resourcesFramework as withFilterCalls } from '../test_helpers.js';
import { RowPassPool, rowPassPool } from './row_pass_pool.js';

// BalancedAllocation weighs 2 here, so a weighted score tells which plugin it came from.
const resourcesFramework = (strategy?: ScoringStrategy) => withFilterCalls(strategy, 2).fwk;

const pools: RowPassPool[] = [];
after(() => {
  for (const pool of pools) pool.close();
});

/** A pool whose workers compute every chunk (the main thread waits for them, however long they take to start). */
async function workersOnly(): Promise<RowPassPool> {
  const pool = new RowPassPool({ workers: 1, minRows: 1, chunkRows: 7, mainComputes: false, spin: 1000 });
  pools.push(pool);
  await pool.started();
  return pool;
}

function compare(strategy: ScoringStrategy | undefined, pool: RowPassPool, seed: number): void {
  const random = seededRandom(seed);
  const nodes = clusterNodes(300, random);
  const withPass = Snapshot.fromObjects([], nodes);
  const without = Snapshot.fromObjects([], nodes);
  const fwkPass = resourcesFramework(strategy);
  const fwkPlain = resourcesFramework(strategy);
  for (const recordScores of [false, true]) {
    // Every node is wanted (100%): the walk's first stretch is long enough for the pass.
    const algPass: AlgorithmState = { nextStartNodeIndex: 0, percentageOfNodesToScore: 100, random: seededRandom(3), tieBreakByName: false, recordScores, rowPass: pool };
    const algPlain: AlgorithmState = { nextStartNodeIndex: 0, percentageOfNodesToScore: 100, random: seededRandom(3), tieBreakByName: false, recordScores };
    let placed = 0;
    for (let i = 0; i < 120; i++) {
      const pod = makePod(`p${recordScores}-${i}`, { requests: podRequests(i, random) });
      const got = outcome(algPass, fwkPass, withPass, pod);
      assert.equal(got, outcome(algPlain, fwkPlain, without, pod), `pod ${i}`);
      assert.equal(algPass.nextStartNodeIndex, algPlain.nextStartNodeIndex);
      assert.equal(algPass.random(), algPlain.random(), 'the same draws');
      // A node without its Node passes Fit (the only Filter here) and has no name: nothing to assume on.
      if (got.includes('evaluated=') && !got.startsWith(' ')) {
        const host = got.split(' ')[0]!;
        const bound = new PodInfo({ ...pod, spec: { ...pod.spec, nodeName: host } });
        withPass.get(host)!.addPod(bound);
        without.get(host)!.addPod(bound);
        placed++;
      }
      // Now and then a node goes away: its row says so, and Filter reports it.
      if (i === 40) {
        withPass.get('n005')!.removeNode();
        without.get('n005')!.removeNode();
      }
    }
    assert.ok(placed > 40, `pods placed (${placed})`);
  }
}

describe('the row pass on worker threads', () => {
  it('decides as one thread with every chunk computed by a worker (LeastAllocated, BalancedAllocation)', async () => {
    const pool = await workersOnly();
    compare(undefined, pool, 27);
    assert.ok(pool.stats.passes > 100 && pool.stats.workerChunks === pool.stats.chunks, JSON.stringify(pool.stats));
    assert.equal(pool.stats.stolen, 0);
  });

  it('decides as one thread with MostAllocated and RequestedToCapacityRatio', async () => {
    const pool = await workersOnly();
    compare({ type: 'MostAllocated', resources: [{ name: 'cpu', weight: 3 }, { name: 'memory', weight: 1 }] }, pool, 8);
    compare({
      type: 'RequestedToCapacityRatio',
      resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 2 }, { name: 'ephemeral-storage', weight: 1 }],
      requestedToCapacityRatio: { shape: [{ utilization: 0, score: 0 }, { utilization: 60, score: 10 }, { utilization: 100, score: 2 }] },
    }, pool, 9);
    assert.ok(pool.stats.workerChunks > 0 && pool.stats.workerChunks === pool.stats.chunks, JSON.stringify(pool.stats));
  });

  it('decides as one thread when the main thread and a worker share the chunks', () => {
    const pool = new RowPassPool({ workers: 1, minRows: 1, chunkRows: 5 });
    pools.push(pool);
    compare(undefined, pool, 41);
    assert.ok(pool.stats.passes > 100, JSON.stringify(pool.stats));
  });

  it('hands Score the scores the pass computed, for the plugin and requests they were computed for', () => {
    // A runner whose scores are all 7: Fit's and BalancedAllocation's recorded scores show they were taken.
    const seen: string[] = [];
    const inner = new RowPassPool({ workers: 0, minRows: 1 });
    const runner: RowPassRunner = {
      minRows: 1,
      run: (rows, first, count, check, scorings) => {
        seen.push(scorings.map((s) => s.spec.strategy).join(','));
        const real = inner.run(rows, first, count, check, scorings)!;
        return new RowPassResult(rows, first, count, real.verdicts, scorings, real.columns.map((c) => c.map(() => 7)));
      },
      close: () => {},
    };
    const snapshot = Snapshot.fromObjects([], clusterNodes(50, seededRandom(1)));
    const fwk = resourcesFramework();
    const alg: AlgorithmState = { nextStartNodeIndex: 0, percentageOfNodesToScore: 100, random: seededRandom(3), tieBreakByName: false, recordScores: true, rowPass: runner };
    const r = schedulePod(alg, fwk, new CycleState(), new PodInfo(makePod('p', { requests: { cpu: '100m', memory: '100Mi' } })), snapshot);
    if (r instanceof Promise) throw new Error('asynchronous');
    assert.deepEqual(seen, ['LeastAllocated,NodeResourcesBalancedAllocation']);
    assert.ok(r.scores.length > 10);
    for (const node of r.scores) assert.deepEqual(node.scores.map((s) => [s.name, s.score]), [['NodeResourcesFit', 7], ['NodeResourcesBalancedAllocation', 14]]);
  });

  it('leaves scalar requests and short stretches to the main thread walk', () => {
    const pool = new RowPassPool({ workers: 1, minRows: 100_000 });
    pools.push(pool);
    compare(undefined, pool, 5);
    assert.equal(pool.stats.passes, 0);
  });

  it('is off unless asked for; asked for without a count, parallelism bounds the workers', () => {
    assert.equal(rowPassPool(16), null);
    assert.equal(rowPassPool(16, null), null);
    // parallelism 1 leaves no worker: the pass runs on the main thread alone, no thread started.
    const alone = rowPassPool(1, {})!;
    pools.push(alone);
    const snapshot = Snapshot.fromObjects([], clusterNodes(20, seededRandom(2)));
    const check = { milliCPU: 100, memory: 1, ephemeralStorage: 0 };
    const r = alone.run(snapshot.rows, 0, 20, check, [])!;
    assert.equal(r.count, 20);
    assert.deepEqual(alone.stats, { passes: 1, chunks: 1, workerChunks: 0, stolen: 0, replacedSlots: 0 });
  });

  it('computes the chunks a worker claimed and did not finish, and gives the next jobs other buffers', async () => {
    // A worker that claims every chunk it can and never finishes one.
    const pool = new RowPassPool({ workers: 1, minRows: 1, chunkRows: 16, workerUrl: new URL('../../../test/fixtures/row_pass_stalling_worker.ts', import.meta.url) });
    pools.push(pool);
    await pool.started();
    const random = seededRandom(12);
    const nodes = clusterNodes(200, random);
    const withPass = Snapshot.fromObjects([], nodes);
    const without = Snapshot.fromObjects([], nodes);
    const fwkPass = resourcesFramework();
    const fwkPlain = resourcesFramework();
    const algPass: AlgorithmState = { nextStartNodeIndex: 0, percentageOfNodesToScore: 100, random: seededRandom(3), tieBreakByName: false, recordScores: false, rowPass: pool };
    const algPlain: AlgorithmState = { nextStartNodeIndex: 0, percentageOfNodesToScore: 100, random: seededRandom(3), tieBreakByName: false, recordScores: false };
    // The worker wins the race for a job's chunks now and then: enough pods for it to win some.
    for (let i = 0; i < 20_000 && pool.stats.stolen === 0; i++) {
      const pod = makePod(`s-${i}`, { requests: podRequests(i, random) });
      assert.equal(outcome(algPass, fwkPass, withPass, pod), outcome(algPlain, fwkPlain, without, pod), `pod ${i}`);
    }
    assert.ok(pool.stats.stolen > 0, JSON.stringify(pool.stats));
    assert.equal(pool.stats.workerChunks, 0);
    // The slot whose chunks the worker still holds is not written again: the next use gets new buffers.
    for (let i = 0; i < 4; i++) outcome(algPass, fwkPass, withPass, makePod(`t-${i}`, { requests: { cpu: '1m', memory: '1Mi' } }));
    assert.ok(pool.stats.replacedSlots > 0, JSON.stringify(pool.stats));
  });

  it('goes on without workers that cannot start', async () => {
    const pool = new RowPassPool({ workers: 1, minRows: 1, chunkRows: 8, workerUrl: new URL('./no_such_worker.js', import.meta.url) });
    pools.push(pool);
    await pool.started();
    compare(undefined, pool, 33);
    assert.equal(pool.stats.workerChunks, 0);
    assert.ok(pool.stats.passes > 100, JSON.stringify(pool.stats));
  });
});
