// How each extension point calls a plugin, for PluginCalls: the call, the status its metrics
// record, and the answer a throw stands for (runtime/framework.go run<Point>Plugin).
import type { SchedulingGroup } from '../../api/scheduling.js';
import type { Pod } from '../../api/types.js';
import type { CycleState } from '../cycle_state.js';
import type * as fw from '../interfaces.js';
import type { NodeInfo } from '../node_info.js';
import type { PodInfo } from '../pod_info.js';
import { Status } from '../status.js';
import type { AsyncCallSpec, CallSpec } from './plugin_calls.js';

const same = (s: Status | null): Status | null => s;
const thrownAsStatus = (s: Status): Status => s;
const statusOf = (r: { readonly status: Status | null }): Status | null => r.status;
const scoreStatus = (r: number | Status): Status | null => (typeof r === 'number' ? null : r);

type Point<P extends fw.Plugin, A, B, C, R, D = undefined> = CallSpec<P, A, B, C, R, D>;
type Binding<P extends fw.Plugin> = AsyncCallSpec<P, CycleState, PodInfo, string, Status | null>;

/** PreEnqueue is not timed (upstream has no label for it). */
export const preEnqueueCall: Point<fw.PreEnqueuePlugin, Pod, undefined, undefined, Status | null> = {
  point: null,
  call: (p, pod) => p.preEnqueue(pod),
  status: same,
  thrown: thrownAsStatus,
};

export const signCall: Point<fw.SignPlugin, PodInfo, undefined, undefined, readonly fw.SignFragment[] | Status> = {
  point: 'Sign',
  call: (p, pod) => p.signPod(pod),
  status: (r) => (r instanceof Status ? r : null),
  thrown: thrownAsStatus,
};

export const preFilterCall: Point<fw.PreFilterPlugin, CycleState, PodInfo, readonly NodeInfo[], fw.PreFilterOutcome | null> = {
  point: 'PreFilter',
  call: (p, state, pod, nodes) => p.preFilter(state, pod, nodes),
  status: (r) => r?.status ?? null,
  thrown: (s) => ({ result: null, status: s }),
};

/** A PreFilter plugin's extensions (untimed): none, or what asking for them threw. */
export const preFilterExtensionsOf: Point<fw.PreFilterPlugin, undefined, undefined, undefined, fw.PreFilterExtensions | null | Status> = {
  point: null,
  call: (p) => p.preFilterExtensions?.() ?? null,
  status: () => null,
  thrown: thrownAsStatus,
};

/**
 * AddPod/RemovePod on a plugin whose preFilterExtensions() answered (the runner asked first):
 * the arguments go as they are, so a call per node per nominated pod allocates nothing.
 */
type PreFilterExtensionCall = Point<fw.PreFilterPlugin, CycleState, PodInfo, PodInfo, Status | null, NodeInfo>;

export const addPodCall: PreFilterExtensionCall = {
  point: 'PreFilterExtensionAddPod',
  call: (p, state, pod, other, nodeInfo) => p.preFilterExtensions!()!.addPod(state, pod, other, nodeInfo),
  status: same,
  thrown: thrownAsStatus,
};

export const removePodCall: PreFilterExtensionCall = {
  point: 'PreFilterExtensionRemovePod',
  call: (p, state, pod, other, nodeInfo) => p.preFilterExtensions!()!.removePod(state, pod, other, nodeInfo),
  status: same,
  thrown: thrownAsStatus,
};

export const filterCall: Point<fw.FilterPlugin, CycleState, PodInfo, NodeInfo, Status | null> = {
  point: 'Filter',
  call: (p, state, pod, nodeInfo) => p.filter(state, pod, nodeInfo),
  status: same,
  thrown: thrownAsStatus,
};

/** A PostFilter plugin that threw ends the run as an error naming it. */
export const postFilterCall: AsyncCallSpec<fw.PostFilterPlugin, CycleState, PodInfo, fw.NodeToStatusReader, fw.PostFilterOutcome> = {
  point: 'PostFilter',
  call: (p, state, pod, statuses) => p.postFilter(state, pod, statuses),
  status: statusOf,
  thrown: (s, p) => ({ result: null, status: Status.error(`running PostFilter plugin "${p.name}": ${s.message()}`) }),
};

export const preScoreCall: Point<fw.PreScorePlugin, CycleState, PodInfo, readonly NodeInfo[], Status | null> = {
  point: 'PreScore',
  call: (p, state, pod, nodes) => p.preScore(state, pod, nodes),
  status: same,
  thrown: thrownAsStatus,
};

export const scoreCall: Point<fw.ScorePlugin, CycleState, PodInfo, NodeInfo, number | Status> = {
  point: 'Score',
  call: (p, state, pod, nodeInfo) => p.score(state, pod, nodeInfo),
  status: scoreStatus,
  thrown: thrownAsStatus,
};

/** A batch Score call, timed once for all nodes. */
export const scoreNodesCall: Point<fw.ScorePlugin, CycleState, PodInfo, readonly NodeInfo[], Status | null, fw.NodeScore[]> = {
  point: 'Score',
  call: (p, state, pod, nodes, out) => p.scoreNodes!(state, pod, nodes, out),
  status: same,
  thrown: thrownAsStatus,
};

export const addScoresOntoCall: Point<fw.ScorePlugin, CycleState, PodInfo, readonly NodeInfo[], Status | boolean | number, fw.ScoresOnto> = {
  point: 'Score',
  call: (p, state, pod, nodes, onto) => p.addScoresOnto!(state, pod, nodes, onto),
  status: (r) => (r instanceof Status ? r : null),
  thrown: thrownAsStatus,
};

export const scoreNodesIntoCall: Point<fw.ScorePlugin, CycleState, PodInfo, readonly NodeInfo[], Status | null, Float64Array> = {
  point: 'Score',
  call: (p, state, pod, nodes, scores) => p.scoreNodesInto!(state, pod, nodes, scores),
  status: same,
  thrown: thrownAsStatus,
};

/** Whether a Filter plugin passes the pod everywhere (untimed); a throw keeps it in the walk. */
export const passesEveryNodeCall: Point<fw.FilterPlugin, CycleState, PodInfo, undefined, boolean> = {
  point: null,
  call: (p, state, pod) => p.passesEveryNode!(state, pod),
  status: () => null,
  thrown: () => false,
};

/** The score a plugin gives every node alike (untimed: it stands in for Score calls). */
export const uniformScoreCall: Point<fw.ScorePlugin, CycleState, PodInfo, readonly NodeInfo[], number | null | Status> = {
  point: null,
  call: (p, state, pod, nodes) => p.uniformScore!(state, pod, nodes),
  status: () => null,
  thrown: thrownAsStatus,
};

/** A Score plugin's extensions (untimed): none, or what asking for them threw. */
export const scoreExtensionsOf: Point<fw.ScorePlugin, undefined, undefined, undefined, fw.ScoreExtensions | null | Status> = {
  point: null,
  call: (p) => p.scoreExtensions?.() ?? null,
  status: () => null,
  thrown: thrownAsStatus,
};

export const normalizeScoreCall: Point<fw.ScorePlugin, fw.ScoreExtensions, CycleState, PodInfo, Status | null, fw.NodeScore[]> = {
  point: 'ScoreExtensionNormalize',
  call: (_p, ext, state, pod, scores) => ext.normalizeScore(state, pod, scores),
  status: same,
  thrown: thrownAsStatus,
};

export const reserveCall: Point<fw.ReservePlugin, CycleState, PodInfo, string, Status | null> = {
  point: 'Reserve',
  call: (p, state, pod, nodeName) => p.reserve(state, pod, nodeName),
  status: same,
  thrown: thrownAsStatus,
};

/** A point whose plugins answer nothing: null, or the status of what one threw. */
function answeringNothing<P extends fw.Plugin>(point: 'Unreserve' | 'PostBind', run: (p: P, state: CycleState, pod: PodInfo, nodeName: string) => void): Point<P, CycleState, PodInfo, string, Status | null> {
  return {
    point,
    call: (p, state, pod, nodeName) => {
      run(p, state, pod, nodeName);
      return null;
    },
    status: same,
    thrown: thrownAsStatus,
  };
}

export const unreserveCall = answeringNothing<fw.ReservePlugin>('Unreserve', (p, state, pod, nodeName) => p.unreserve(state, pod, nodeName));

export const permitCall: Point<fw.PermitPlugin, CycleState, PodInfo, string, fw.PermitOutcome> = {
  point: 'Permit',
  call: (p, state, pod, nodeName) => p.permit(state, pod, nodeName),
  status: statusOf,
  thrown: (s) => ({ status: s, timeoutMs: 0 }),
};

/** A plugin without a pre-flight has work to do, as upstream's plugins all answer one. */
export const preBindPreFlightCall: Point<fw.PreBindPlugin, CycleState, PodInfo, string, fw.PreBindPreFlightOutcome> = {
  point: 'PreBindPreFlight',
  call: (p, state, pod, nodeName) => (p.preBindPreFlight ? p.preBindPreFlight(state, pod, nodeName) : { result: null, status: null }),
  status: statusOf,
  thrown: (s) => ({ result: null, status: s }),
};

/** The fourth argument is the binding's AbortSignal (upstream's context), aborted when preemption cancels it. */
export const preBindCall: AsyncCallSpec<fw.PreBindPlugin, CycleState, PodInfo, string, Status | null, AbortSignal | undefined> = {
  point: 'PreBind',
  call: (p, state, pod, nodeName, signal) => p.preBind(state, pod, nodeName, signal),
  status: same,
  thrown: thrownAsStatus,
};

export const bindCall: Binding<fw.BindPlugin> = {
  point: 'Bind',
  call: (p, state, pod, nodeName) => p.bind(state, pod, nodeName),
  status: same,
  thrown: thrownAsStatus,
};

export const postBindCall = answeringNothing<fw.PostBindPlugin>('PostBind', (p, state, pod, nodeName) => p.postBind(state, pod, nodeName));

export const generatePlacementsCall: Point<fw.PlacementGeneratePlugin, CycleState, SchedulingGroup, fw.Placement, fw.GeneratePlacementsResult | Status> = {
  point: 'PlacementGenerate',
  call: (p, state, podGroup, parent) => p.generatePlacements(state, podGroup, parent),
  status: (r) => (r instanceof Status ? r : null),
  thrown: thrownAsStatus,
};

export const scorePlacementCall: Point<fw.PlacementScorePlugin, CycleState, SchedulingGroup, fw.PodGroupAssignments, number | Status> = {
  point: 'PlacementScore',
  call: (p, state, podGroup, assignments) => p.scorePlacement(state, podGroup, assignments),
  status: scoreStatus,
  thrown: thrownAsStatus,
};

export const normalizePlacementScoreCall: Point<fw.PlacementScorePlugin, CycleState, SchedulingGroup, fw.PlacementScore[], Status | null> = {
  point: 'PlacementScoreExtensionNormalize',
  call: (p, state, podGroup, scores) => p.normalizePlacementScore!(state, podGroup, scores),
  status: same,
  thrown: thrownAsStatus,
};
