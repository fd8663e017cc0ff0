// The resource walk's test cluster and its runner, shared by the walk's tests over rows
// (row_walk.test.ts) and by the row pass on worker threads (parallel/row_pass.test.ts).
import type { Node, Pod, ResourceList } from '../api/types.js';
import { Snapshot } from '../cache/snapshot.js';
import { CycleState } from '../framework/cycle_state.js';
import { defaultFeatures } from '../framework/features.js';
import type { AnyPlugin, QueuedPodInfo } from '../framework/interfaces.js';
import { MapObjectLister } from '../framework/object_lister.js';
import { PodInfo } from '../framework/pod_info.js';
import { Registry } from '../framework/registry.js';
import { FitError } from '../framework/runtime/fit_error.js';
import { Framework } from '../framework/runtime/framework.js';
import type { ScoringStrategy } from '../plugins/noderesources/args.js';
import { defaultNodeResourcesBalancedAllocationArgs, defaultNodeResourcesFitArgs } from '../plugins/noderesources/args.js';
import { BalancedAllocation } from '../plugins/noderesources/balanced_allocation.js';
import { Fit } from '../plugins/noderesources/fit.js';
import { makeNode } from '../testing/builders.js';
import { FakeClock } from '../util/clock.js';
import { schedulePod, type AlgorithmState } from './schedule_pod.js';

const less = (a: QueuedPodInfo, b: QueuedPodInfo) => a.timestamp < b.timestamp;

/**
 * A framework with NodeResourcesFit (whose Filter calls are counted; `strategy` its scoring) and
 * BalancedAllocation (weighing `balancedWeight`).
 */
export function resourcesFramework(strategy?: ScoringStrategy, balancedWeight = 1): { fwk: Framework; filterCalls: () => number } {
  const fit = new Fit(defaultNodeResourcesFitArgs(strategy === undefined ? {} : { scoringStrategy: strategy }));
  const filter = fit.filter.bind(fit);
  let calls = 0;
  fit.filter = (state, pod, ni) => {
    calls++;
    return filter(state, pod, ni);
  };
  const balanced = new BalancedAllocation(defaultNodeResourcesBalancedAllocationArgs({}));
  const plugins: AnyPlugin[] = [{ name: 'QueueSort', less }, { name: 'Binder', bind: async () => null }, fit, balanced];
  const fwk = new Framework(
    {
      schedulerName: 'default-scheduler',
      plugins: {
        queueSort: { enabled: [{ name: 'QueueSort' }] },
        bind: { enabled: [{ name: 'Binder' }] },
        preFilter: { enabled: [{ name: fit.name }] },
        filter: { enabled: [{ name: fit.name }] },
        preScore: { enabled: [{ name: fit.name }, { name: balanced.name }] },
        score: { enabled: [{ name: fit.name, weight: 1 }, { name: balanced.name, weight: balancedWeight }] },
      },
    },
    {
      registry: new Registry(plugins.map((p) => ({ name: p.name, factory: () => p }))),
      snapshot: () => new Snapshot(),
      objects: new MapObjectLister(),
      client: { bind: async () => {}, deletePod: async () => {}, clearNominatedNodeName: async () => {} },
      eventRecorder: { event: () => {} },
      nominator: { nominatedPodsForNode: () => [], hasNominatedPods: () => false },
      clock: new FakeClock(),
      random: () => 0,
      parallelism: 16,
      features: defaultFeatures,
    },
  );
  return { fwk, filterCalls: () => calls };
}

/** Nodes of varied sizes, some nearly full of pods, some with a GPU, some with ephemeral storage. */
export function clusterNodes(count: number, random: () => number): Node[] {
  return Array.from({ length: count }, (_, i) => {
    const allocatable: ResourceList = {
      cpu: `${1 + Math.floor(random() * 8)}`,
      memory: `${1 + Math.floor(random() * 16)}Gi`,
      pods: `${1 + Math.floor(random() * 6)}`,
    };
    if (i % 7 === 0) allocatable['example.com/gpu'] = '2';
    if (i % 5 === 0) allocatable['ephemeral-storage'] = '10Gi';
    return makeNode(`n${String(i).padStart(3, '0')}`, { allocatable });
  });
}

/** A pending pod's requests: often small, sometimes larger than any node, a GPU or storage now and then. */
export function podRequests(i: number, random: () => number): ResourceList | undefined {
  if (i % 11 === 0) return undefined;
  const requests: ResourceList = { cpu: `${Math.floor(random() * 1500) + 1}m`, memory: `${Math.floor(random() * 3000) + 1}Mi` };
  if (i % 13 === 0) requests.cpu = '20';
  if (i % 9 === 0) requests['example.com/gpu'] = '1';
  if (i % 6 === 0) requests['ephemeral-storage'] = '3Gi';
  return requests;
}

/** What a cycle decided: the host and counts, or the FitError's message and every node's status. */
export function outcome(alg: AlgorithmState, fwk: Framework, snapshot: Snapshot, pod: Pod): string {
  try {
    const r = schedulePod(alg, fwk, new CycleState(), new PodInfo(pod), snapshot);
    if (r instanceof Promise) throw new Error('asynchronous without extenders');
    return `${r.suggestedHost} evaluated=${r.evaluatedNodes} feasible=${r.feasibleNodes} best=${r.bestNodes.join(',')}`;
  } catch (err) {
    if (!(err instanceof FitError)) throw err;
    const statuses = [...err.diagnosis.nodeToStatus.entries()].map(([name, s]) => `${name}:${s.code}:${s.reasons.join('/')}`);
    return `${err.message} | ${statuses.sort().join(' ')}`;
  }
}

