// The preemption Evaluator: eligibility, dry runs over candidate nodes, choosing a node and
// evicting its victims (framework/preemption/preemption.go).
import type { PodDisruptionBudget } from '../../api/types.js';
import type { CycleState } from '../../framework/cycle_state.js';
import { Diagnosis, FitError } from '../../framework/runtime/fit_error.js';
import type { Handle, NodeToStatusReader, PostFilterResult } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import { NodeToStatus } from '../../framework/node_to_status.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status, isSuccess } from '../../framework/status.js';
import { andThen, type MaybePromise } from '../../util/maybe_promise.js';
import type { Candidate, PreemptionPolicy } from './candidate.js';
import { narrowCandidatesByExtenders } from './extenders.js';
import { diagnosePreemption, type EvaluatorFindings } from './diagnosis.js';
import { compileDisruptionBudgets, type DisruptionBudget } from './pdb.js';
import { pickOneNodeForPreemption } from './pick_node.js';

const PreemptionNotHelpfulMsg = 'Preemption is not helpful for scheduling';
export const PodReasonPreemptionByScheduler = 'PreemptionByScheduler';

export interface PreemptOutcome {
  readonly result: PostFilterResult | null;
  readonly status: Status | null;
}

export class Evaluator {
  constructor(
    readonly pluginName: string,
    private readonly handle: Handle,
    private readonly policy: PreemptionPolicy,
  ) {}

  /**
   * Tries to make room for `pod`. Outcomes, as upstream's Preempt:
   * - result null, Error: a transient failure; the nomination is kept.
   * - result null, Unschedulable: the pod may not preempt (now); the nomination is kept.
   * - result with nominatedNodeName '', Unschedulable: preemption cannot help; the nomination is cleared.
   * - result with the chosen node, Success saying so (v1.37 leaves it in the FitError): victims are
   *   being evicted and the pod is nominated there.
   * The extenders with a preempt verb narrow the candidates first; only asking them is asynchronous.
   */
  preempt(state: CycleState, pod: PodInfo, m: NodeToStatusReader): MaybePromise<PreemptOutcome> {
    // A diagnosed cycle notes the nodes the dry run looks at, and explains every node at the end.
    const dryRunNodes = state.diagnosis !== null ? new Set<string>() : null;
    const found = this.candidatesFor(state, pod, m, dryRunNodes);
    if (!Array.isArray(found)) {
      if (dryRunNodes !== null) this.diagnose(state, pod, m, { dryRunNodes, candidates: [], chosen: null });
      return found;
    }
    const lister = this.handle.snapshotSharedLister().nodeInfos();
    const narrowed = narrowCandidatesByExtenders(this.handle.extenders?.() ?? [], pod, found, (name) => lister.get(name));
    return andThen(narrowed, (candidates): PreemptOutcome => {
      const list = candidates instanceof Status ? [] : candidates;
      const best = this.selectCandidate(list);
      // Before the victims' deletions start: the diagnosis sees what the choice saw.
      if (dryRunNodes !== null) this.diagnose(state, pod, m, { dryRunNodes, candidates: list, chosen: best });
      if (candidates instanceof Status) return { result: null, status: candidates };
      return this.prepare(best, pod);
    });
  }

  private diagnose(state: CycleState, pod: PodInfo, m: NodeToStatusReader, found: EvaluatorFindings): void {
    state.diagnosis!.preemption = diagnosePreemption(this.handle, this.policy, state, pod, m, found);
  }

  /** Eligibility and the dry runs: the candidates, or the outcome when there are none. */
  private candidatesFor(state: CycleState, pod: PodInfo, m: NodeToStatusReader, dryRunNodes: Set<string> | null): Candidate[] | PreemptOutcome {
    const nominated = pod.pod.status?.nominatedNodeName ?? '';
    const notEligible = this.policy.podEligibleToPreemptOthers(pod, m.get(nominated));
    if (notEligible !== null) return { result: null, status: Status.unschedulable(notEligible) };

    const allNodes = this.handle.snapshotSharedLister().nodeInfos().list();
    if (allNodes.length === 0) return { result: null, status: Status.error('no nodes available') };
    const { candidates, nodeStatuses, errors } = this.findCandidates(state, allNodes, pod, m, dryRunNodes);
    if (errors.length > 0 && candidates.length === 0) return { result: null, status: Status.error(aggregateMessage(errors)) };

    if (candidates.length === 0) {
      // Nodes that were not dry-run are counted as not helped by preemption.
      for (const ni of allNodes) {
        if (!nodeStatuses.has(ni.name)) nodeStatuses.set(ni.name, new Status(Code.UnschedulableAndUnresolvable, [PreemptionNotHelpfulMsg]));
      }
      const diagnosis = new Diagnosis();
      diagnosis.nodeToStatus = nodeStatuses;
      const fitError = new FitError(pod.pod, allNodes.length, diagnosis);
      return { result: { nominatedNodeName: '' }, status: Status.unschedulable(fitError.message) };
    }
    return candidates;
  }

  /** Evicting the chosen node's victims (best is SelectCandidate's answer). */
  private prepare(best: Candidate | null, pod: PodInfo): PreemptOutcome {
    if (best === null || best.name === '') return { result: null, status: Status.unschedulable('no candidate node for preemption') };
    this.handle.metricsRecorder?.()?.observePreemptionVictims(best.victims.pods.length);
    this.prepareCandidate(best, pod);
    const placed = `found a potential placement for pod on node ${best.name}, preempting ${best.victims.pods.length} victims`;
    return { result: { nominatedNodeName: best.name }, status: new Status(Code.Success, [placed]) };
  }

  /** Dry-runs preemption on the nodes whose filter failure removing pods might resolve. */
  findCandidates(
    state: CycleState,
    allNodes: readonly NodeInfo[],
    pod: PodInfo,
    m: NodeToStatusReader,
    dryRunNodes: Set<string> | null = null,
  ): { candidates: Candidate[]; nodeStatuses: NodeToStatus; errors: Error[] } {
    // Only nodes rejected as Unschedulable may be helped; UnschedulableAndUnresolvable ones and
    // nodes never evaluated (absent from m) may not.
    const potentialNodes: NodeInfo[] = [];
    for (const ni of allNodes) {
      if (m.get(ni.name)?.code === Code.Unschedulable) potentialNodes.push(ni);
    }
    if (potentialNodes.length === 0) return { candidates: [], nodeStatuses: new NodeToStatus(), errors: [] };
    const pdbs = compileDisruptionBudgets(this.handle.objects().list<PodDisruptionBudget>('PodDisruptionBudget'));
    const { offset, numCandidates } = this.policy.getOffsetAndNumCandidates(potentialNodes.length);
    return this.dryRunPreemption(state, pod, potentialNodes, pdbs, offset, numCandidates, dryRunNodes);
  }

  /**
   * Selects victims on the potential nodes, starting at `offset` and wrapping around, until
   * `numCandidates` candidates are found with at least one that violates no PDB. Candidates that
   * violate no PDB come first in the result.
   */
  dryRunPreemption(
    state: CycleState,
    pod: PodInfo,
    potentialNodes: readonly NodeInfo[],
    pdbs: readonly DisruptionBudget[],
    offset: number,
    numCandidates: number,
    dryRunNodes: Set<string> | null = null,
  ): { candidates: Candidate[]; nodeStatuses: NodeToStatus; errors: Error[] } {
    const nonViolating: Candidate[] = [];
    const violating: Candidate[] = [];
    const nodeStatuses = new NodeToStatus();
    const errors: Error[] = [];
    const n = potentialNodes.length;
    // Upstream checks `parallelism` nodes at a time and stops starting new ones once enough
    // candidates are found; nodes already being checked still finish. We check the same waves
    // one after another, so the same nodes are evaluated.
    const wave = Math.max(1, this.handle.parallelism);
    const found: WaveCandidate[] = [];
    for (let start = 0; start < n; start += wave) {
      found.length = 0;
      const end = Math.min(n, start + wave);
      for (let i = start; i < end; i++) {
        const node = potentialNodes[(offset + i) % n]!;
        dryRunNodes?.add(node.name);
        const nodeCopy = node.clone();
        const sel = this.policy.selectVictimsOnNode(state.clone(), pod, nodeCopy, pdbs);
        let status = sel.status;
        if (isSuccess(status)) {
          if (sel.victims.length > 0) {
            found.push({ work: node.pods.length, candidate: { name: nodeCopy.name, victims: { pods: sel.victims, numPDBViolations: sel.numPDBViolations } } });
            continue;
          }
          status = Status.error(`expected at least one victim pod on node "${nodeCopy.name}"`);
        }
        if (status!.code === Code.Error) errors.push(status!.asError());
        nodeStatuses.set(nodeCopy.name, status!);
      }
      // Parallel checks report in the order they finish, and each list keeps only the first
      // numCandidates; a dry run's cost grows with the node's pods, so lighter nodes come first.
      found.sort(byWork);
      for (const { candidate } of found) {
        const list = candidate.victims.numPDBViolations === 0 ? nonViolating : violating;
        if (list.length < numCandidates) list.push(candidate);
      }
      if (nonViolating.length > 0 && nonViolating.length + violating.length >= numCandidates) break;
    }
    return { candidates: nonViolating.concat(violating), nodeStatuses, errors };
  }

  /** The best candidate (SelectCandidate); null when there is none. */
  selectCandidate(candidates: readonly Candidate[]): Candidate | null {
    if (candidates.length === 0) return null;
    if (candidates.length === 1) return candidates[0]!;
    const name = pickOneNodeForPreemption(candidates);
    for (const c of candidates) if (c.name === name) return c;
    return candidates[0]!;
  }

  /**
   * Clears the nominations of lower-priority pods nominated to the node and evicts the victims.
   * The API calls are all issued before the scheduling cycle ends; they complete asynchronously.
   */
  private prepareCandidate(c: Candidate, pod: PodInfo): void {
    const victims: PodInfo[] = [];
    for (const v of c.victims.pods) {
      // A victim whose graceful deletion already started needs no second call.
      if (!v.pod.metadata.deletionTimestamp) victims.push(v);
    }
    if (victims.length === 0) return;
    const client = this.handle.client();
    for (const np of this.lowerPriorityNominatedPods(pod, c.name)) {
      client.clearNominatedNodeName(np.pod).catch(ignoreApiError);
    }
    for (const v of victims) this.preemptPod(c.name, pod, v).catch(ignoreApiError);
  }

  /** Rejects a victim waiting at Permit, or deletes it with the DisruptionTarget condition set. */
  private async preemptPod(nodeName: string, preemptor: PodInfo, victim: PodInfo): Promise<void> {
    const waiting = this.handle.getWaitingPod(victim.uid);
    if (waiting) {
      waiting.reject(this.pluginName, 'preempted');
    } else {
      const schedulerName = preemptor.pod.spec.schedulerName ?? this.handle.profileName;
      await this.handle.client().deletePod(victim.pod, {
        disruptionReason: PodReasonPreemptionByScheduler,
        message: `${schedulerName}: preempting to accommodate a higher priority pod`,
      });
    }
    this.handle.eventRecorder().event(victim.pod, 'Normal', 'Preempted', 'Preempting', `Preempted by pod ${preemptor.uid} on node ${nodeName}`);
  }

  /** Pods nominated to the node with a priority below the preemptor's: they may no longer fit. */
  private lowerPriorityNominatedPods(pod: PodInfo, nodeName: string): PodInfo[] {
    const out: PodInfo[] = [];
    for (const np of this.handle.nominator().nominatedPodsForNode(nodeName)) {
      if (np.priority < pod.priority) out.push(np);
    }
    return out;
  }
}

interface WaveCandidate {
  readonly work: number;
  readonly candidate: Candidate;
}

const byWork = (a: WaveCandidate, b: WaveCandidate): number => a.work - b.work;

// A failed eviction or status patch is not retried here: the pod already gone (404) is what we
// wanted, and the preemptor is retried by the queue if its node is still full.
function ignoreApiError(): void {}

/** utilerrors.NewAggregate(errs).Error(): one message as is, several deduplicated in brackets. */
function aggregateMessage(errors: readonly Error[]): string {
  const seen: string[] = [];
  for (const e of errors) if (!seen.includes(e.message)) seen.push(e.message);
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}
