// The scoring core shared by NodeResourcesFit's strategies and NodeResourcesBalancedAllocation
// (framework/plugins/noderesources/resource_allocation.go).
import { computePodResourceRequests, isScalarResourceName, type PodRequestsOptions } from '../../api/resource_requests.js';
import type { Pod } from '../../api/types.js';
import type { StateData } from '../../framework/cycle_state.js';
import { MaxNodeScore, MinNodeScore, type ScoresOnto } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import { Block, KeptBlocks, wholeBlockAt, type NodeRows, type NodeRowSelection } from '../../framework/node_rows.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';
import type { ResourceSpec } from './args.js';
import type { DraExtendedResources, DraScoringState } from './dra_extended_resources.js';
import type { ExactPlacementScorer, ResourceScorer } from './strategies.js';
import { KindCPU, KindEphemeralStorage, KindIgnored, KindMemory, KindScalar, packedKind, resourceScorerOf, RowScorer } from './row_arithmetic.js';
import { NoPassedScore, type RowScorerSpec, type RowScoring } from '../../framework/row_pass.js';
import { sameNumbers } from '../../util/same_numbers.js';

export type { ExactPlacementScorer, ResourceScorer } from './strategies.js';

/** What PreScore works out once per pod for a scorer's Score (Fit's and BalancedAllocation's preScoreState). */
export class PreScoreState implements StateData {
  constructor(
    readonly podRequests: Float64Array,
    /** For scored resources that devices back (null when there are none). */
    readonly dra: DraScoringState | null,
  ) {}

  clone(): StateData {
    return this;
  }
}

/** Beyond this, requested * MaxNodeScore may not be exact in a double. */
const exactProductLimit = Math.floor(Number.MAX_SAFE_INTEGER / MaxNodeScore);

function resourceKind(name: string): number {
  const packed = packedKind(name);
  if (packed !== KindIgnored) return packed;
  return isScalarResourceName(name) ? KindScalar : KindIgnored;
}

/** Fewest entries of the score memo (a power of two). */
const minMemoSize = 8192;
/** Numbers per memo entry: the node's generation, the epoch of the requests, the score. */
const memoStride = 3;
/**
 * Most entries (a power of two): 24 MiB per scorer. Reached at 2^20 / 32 = 32,768 nodes scored per
 * cycle, which the adaptive percentageOfNodesToScore only asks of clusters past 650,000 nodes.
 */
const maxMemoSize = 1 << 20;
/**
 * Entries per node scored in one cycle. A cycle scores at least 5% of the nodes from where the
 * last one stopped, so a node comes back after at most 20 cycles: with 32 entries per scored node
 * every node of the list has its own, or a 50,000-node cluster never hits.
 */
const memoSlotsPerScoredNode = 32;

export class ResourceAllocationScorer {
  readonly names: readonly string[];
  readonly weights: readonly number[];
  private readonly kinds: Int8Array;
  // Scratch buffers reused for every node: scoring is synchronous and never re-entered.
  private readonly requested: Float64Array;
  private readonly allocatable: Float64Array;

  /**
   * @param useRequested cpu and memory from the pods' real requests (BalancedAllocation) rather
   *   than the non-zero ones (100m / 200Mi for containers without requests; NodeResourcesFit).
   * @param draResources counts the devices behind extended resources DeviceClasses back, for
   *   nodes that do not advertise them (DRAExtendedResource); null with the gate off.
   * @param podParts what of the pending pod counts: null for all of it (PodInfo's requests);
   *   NodeResourcesFit's strategies are built without the pod-level and in-place resize flags.
   */
  constructor(
    readonly strategyName: string,
    resources: readonly ResourceSpec[],
    private readonly scorer: ResourceScorer,
    readonly useRequested: boolean,
    readonly draResources: DraExtendedResources | null = null,
    private readonly podParts: PodRequestsOptions | null = null,
  ) {
    this.names = resources.map((r) => r.name);
    this.weights = resources.map((r) => r.weight);
    this.kinds = Int8Array.from(this.names, resourceKind);
    this.requested = new Float64Array(resources.length);
    this.allocatable = new Float64Array(resources.length);
    this.packedOnly = this.names.length > 0 && this.kinds.every((k) => k === KindCPU || k === KindMemory || k === KindEphemeralStorage);
    this.rowScorer = this.packedOnly ? new RowScorer(resources, useRequested, scorer) : null;
  }

  /**
   * The scorer a spec describes (NodeResourcesFit's strategies, BalancedAllocation): with only
   * packed resources, the row pass's worker threads can score for it.
   */
  static fromSpec(spec: RowScorerSpec, draResources: DraExtendedResources | null = null, podParts: PodRequestsOptions | null = null): ResourceAllocationScorer {
    const scorer = resourceScorerOf(spec);
    if (scorer === null) throw new Error(`scoring strategy ${spec.strategy} is not supported`);
    const s = new ResourceAllocationScorer(spec.strategy, spec.resources, scorer, spec.useRequested, draResources, podParts);
    s.spec = spec;
    return s;
  }

  /** What built this scorer, when fromSpec did. */
  private spec: RowScorerSpec | null = null;
  /** The row arithmetic of the packed path (null unless packedOnly). */
  private readonly rowScorer: RowScorer | null;

  /** The row pass's scoring of `pod` by this scorer (which takes it back in scoreRowsInto), or null when rows cannot score it. */
  rowScoring(pod: PodInfo): RowScoring | null {
    if (this.spec === null || this.rowScorer === null) return null;
    return { owner: this, spec: this.spec, podRequests: this.podRequests(pod) };
  }

  /**
   * Scores by node generation for the pod requests in memoRequests: pods of one workload ask for
   * the same, and most nodes have not changed since the last pod looked at them. Triples of
   * (generation, epoch, score) in a direct-mapped table indexed by the node's place in the
   * snapshot's list; a collision only costs a recomputation. Other requests start a new epoch
   * instead of clearing the table, which at 100,000 nodes is megabytes per alternating pod.
   */
  private memo: Float64Array | null = null;
  private memoRequests: Float64Array | null = null;
  /** Entries of older epochs were computed for other requests; 0 is never current. */
  private memoEpoch = 1;

  private memoFor(podRequests: Float64Array, scoredNodes: number): Float64Array {
    const same = this.memoRequests !== null && sameNumbers(this.memoRequests, podRequests);
    if (!same) {
      this.memoEpoch++;
      this.memoRequests = Float64Array.from(podRequests);
    }
    const size = memoSize(scoredNodes);
    // Generation 0 is never handed out, so a zeroed table holds no valid entry.
    if (this.memo === null || this.memo.length < memoStride * size) this.memo = new Float64Array(memoStride * size);
    return this.memo;
  }

  /** True when every configured resource is one of NodeInfo's packed numbers (no scalars). */
  private readonly packedOnly: boolean;

  /** The pod's request for every configured resource, in order (calculatePodResourceRequestList). */
  podRequests(pod: PodInfo): Float64Array {
    const out = new Float64Array(this.names.length);
    const req = this.podParts !== null && hasPartsBeyondSpec(pod.pod) ? computePodResourceRequests(pod.pod, this.podParts) : pod.requests;
    for (let i = 0; i < out.length; i++) {
      switch (this.kinds[i]) {
        case KindCPU: out[i] = this.useRequested ? req.resource.milliCPU : req.nonZeroMilliCPU; break;
        case KindMemory: out[i] = this.useRequested ? req.resource.memory : req.nonZeroMemory; break;
        case KindEphemeralStorage: out[i] = req.resource.ephemeralStorage; break;
        case KindScalar: out[i] = req.resource.scalar(this.names[i]!); break;
        default: out[i] = 0;
      }
    }
    return out;
  }

  /** True when the pod requests none of the configured resources (isBestEffortPod). */
  static isBestEffort(podRequests: Float64Array): boolean {
    for (let i = 0; i < podRequests.length; i++) if (podRequests[i] !== 0) return false;
    return true;
  }

  /** What scoring devices needs this cycle (getDRAPreScoredParams): null when no scored resource is backed by devices. */
  draPreScore(): DraScoringState | null {
    return this.draResources === null || this.packedOnly ? null : this.draResources.preScore(this.names);
  }

  /**
   * `score` for every node into scores[i]; the first error stops it. With the nodes' rows
   * (`selection`, see CycleState.scoredRows) the numbers come from the rows alone.
   */
  scoreNodesInto(nodes: readonly NodeInfo[], podRequests: Float64Array, scores: Float64Array, dra: DraScoringState | null = null, selection: NodeRowSelection | null = null): Status | null {
    const rows = this.packedOnly && selection !== null ? selection.rowsFor(nodes) : null;
    if (rows !== null) {
      this.scoreRowsInto(rows, selection!, nodes.length, podRequests, scores);
      return null;
    }
    if (this.packedOnly) {
      // Every configured resource is a packed number: no Resource objects, no scalar lookups.
      const n = this.names.length;
      const kinds = this.kinds;
      const useRequested = this.useRequested;
      const requested = this.requested;
      const allocatable = this.allocatable;
      const memo = this.memoFor(podRequests, nodes.length);
      const memoMask = memo.length / memoStride - 1;
      const epoch = this.memoEpoch;
      for (let k = 0; k < nodes.length; k++) {
        const ni = nodes[k]!;
        // A node's generation pins its numbers, so an unchanged node scores what it scored before.
        // Its place in the snapshot's list is its slot (no two listed nodes collide); a copy no
        // snapshot placed uses its generation.
        const at = ni.position;
        const slot = ((at >= 0 ? at : ni.generation) & memoMask) * memoStride;
        if (memo[slot] === ni.generation && memo[slot + 1] === epoch) {
          scores[k] = memo[slot + 2]!;
          continue;
        }
        for (let i = 0; i < n; i++) {
          const kind = kinds[i]!;
          const a = allocatableOnNode(ni, kind);
          // Only a resource the node has takes part; the rest stay (0, 0) and strategies skip them.
          allocatable[i] = a;
          requested[i] = a === 0 ? 0 : usedOnNode(ni, kind, useRequested) + podRequests[i]!;
        }
        const score = this.scorer(requested, allocatable, podRequests);
        memo[slot] = ni.generation;
        memo[slot + 1] = epoch;
        memo[slot + 2] = score;
        scores[k] = score;
      }
      return null;
    }
    for (let i = 0; i < nodes.length; i++) {
      const r = this.score(nodes[i]!, podRequests, dra);
      if (typeof r !== 'number') return r;
      scores[i] = r;
    }
    return null;
  }

  /**
   * The packed path of scoreNodesInto over rows: the k-th node is row `positions[k]`, its memo slot
   * that position (as `ni.position` gives it above), and no NodeInfo object is read. A row the
   * walk's row pass scored for this scorer and these requests takes that score.
   */
  private scoreRowsInto(rows: NodeRows, selection: NodeRowSelection, count: number, podRequests: Float64Array, scores: Float64Array): void {
    const positions = selection.positions;
    const pass = selection.pass !== null && selection.pass.rows === rows ? selection.pass : null;
    const passed = pass === null ? null : pass.columnOf(this, podRequests);
    const passFirst = pass === null ? 0 : pass.first;
    const passCount = pass === null ? 0 : pass.count;
    const memo = this.memoFor(podRequests, count);
    const memoMask = memo.length / memoStride - 1;
    const epoch = this.memoEpoch;
    const kept = passed === null ? this.keptScoresOf(rows) : null;
    for (let k = 0; k < count; k++) {
      const at = positions[k]!;
      // A whole block of rows in a row (the walk takes a stretch's rows in order): its kept scores,
      // brought up to date (a score out of range reaches the column, which the framework checks).
      if (kept !== null && wholeBlockAt(positions, k, count)) {
        this.refreshBlock(rows, at, podRequests, memo, memoMask, epoch);
        for (let j = 0; j < Block.Size; j++) scores[k + j] = kept[at + j]!;
        k += Block.Size - 1;
        continue;
      }
      if (passed !== null) {
        const off = at - passFirst;
        if (off >= 0 && off < passCount) {
          const v = passed[off]!;
          if (v !== NoPassedScore) {
            scores[k] = v;
            continue;
          }
        }
      }
      scores[k] = this.scoreRow(rows, at, podRequests, memo, memoMask, epoch);
    }
  }

  /**
   * scoreNodesInto's packed row path, each score times `onto.weight` onto `onto.totals` (added, or
   * over `onto.base`): true when done, false when the nodes have no rows here (or the walk's row
   * pass scored them), or the first score out of MinNodeScore..MaxNodeScore.
   */
  addScoresOnto(nodes: readonly NodeInfo[], podRequests: Float64Array, selection: NodeRowSelection | null, onto: ScoresOnto): boolean | number {
    const rows = this.packedOnly && selection !== null ? selection.rowsFor(nodes) : null;
    if (rows === null || (selection!.pass !== null && selection!.pass.rows === rows)) return false;
    const count = nodes.length;
    const positions = selection!.positions;
    const memo = this.memoFor(podRequests, count);
    const memoMask = memo.length / memoStride - 1;
    const epoch = this.memoEpoch;
    const kept = this.keptScoresOf(rows);
    const { weight, totals } = onto;
    const base = onto.base ?? 0;
    const add = onto.base === null;
    // Locals: the bundle's module constants are variables to V8, read again at every use.
    const hi = MaxNodeScore;
    const lo = MinNodeScore;
    for (let k = 0; k < count; ) {
      const at = positions[k]!;
      if (wholeBlockAt(positions, k, count)) {
        // Kept scores are in range (refreshBlock keeps no block with one out of it): no check per node.
        if (!this.refreshBlock(rows, at, podRequests, memo, memoMask, epoch)) return firstOutOfRange(kept, at);
        if (add) for (let j = 0; j < Block.Size; j++) totals[k + j]! += kept[at + j]! * weight;
        else for (let j = 0; j < Block.Size; j++) totals[k + j] = base + kept[at + j]! * weight;
        k += Block.Size;
        continue;
      }
      const score = this.scoreRow(rows, at, podRequests, memo, memoMask, epoch);
      if (score > hi || score < lo) return score;
      totals[k] = (add ? totals[k]! : base) + score * weight;
      k++;
    }
    return true;
  }

  /** Row `at`'s score, from the memo when its generation and the requests' epoch match. */
  private scoreRow(rows: NodeRows, at: number, podRequests: Float64Array, memo: Float64Array, memoMask: number, epoch: number): number {
    const generation = rows.generation(at);
    const slot = (at & memoMask) * memoStride;
    if (memo[slot] === generation && memo[slot + 1] === epoch) return memo[slot + 2]!;
    const score = this.rowScorer!.score(rows, at, podRequests);
    memo[slot] = generation;
    memo[slot + 1] = epoch;
    memo[slot + 2] = score;
    return score;
  }

  /** The blocks of keptScores that hold for the current requests (the memo epoch). */
  private readonly keptBlocks = new KeptBlocks();
  /** By row: each block's scores as this scorer last computed them (see keptBlocks). */
  private keptScores = new Float64Array(0);

  private keptScoresOf(rows: NodeRows): Float64Array {
    if (this.keptBlocks.use(rows)) this.keptScores = new Float64Array(rows.list.length);
    return this.keptScores;
  }

  /**
   * Brings the kept scores of the block starting at row `at` up to date for the memo's requests;
   * false when one of them is out of MinNodeScore..MaxNodeScore (the block is then not kept).
   */
  private refreshBlock(rows: NodeRows, at: number, podRequests: Float64Array, memo: Float64Array, memoMask: number, epoch: number): boolean {
    const block = at >> Block.Shift;
    if (this.keptBlocks.holds(block, epoch)) return true;
    const kept = this.keptScores;
    let inRange = true;
    for (let j = 0; j < Block.Size; j++) {
      const score = this.scoreRow(rows, at + j, podRequests, memo, memoMask, epoch);
      if (score > MaxNodeScore || score < MinNodeScore) inRange = false;
      kept[at + j] = score;
    }
    if (inRange) this.keptBlocks.keep(block, epoch);
    return inRange;
  }

  /** Fills requested/allocatable for the node and runs the strategy (resourceAllocationScorer.score). */
  score(nodeInfo: NodeInfo, podRequests: Float64Array, dra: DraScoringState | null = null): number | Status {
    const n = this.names.length;
    if (n === 0) return Status.error('resources not found');
    const requested = this.requested;
    const allocatable = this.allocatable;
    for (let i = 0; i < n; i++) {
      const podRequest = podRequests[i]!;
      const kind = this.kinds[i]!;
      let a = 0;
      let r = 0;
      switch (kind) {
        case KindCPU:
        case KindMemory:
        case KindEphemeralStorage:
          a = allocatableOnNode(nodeInfo, kind);
          r = usedOnNode(nodeInfo, kind, this.useRequested) + podRequest;
          break;
        case KindScalar: {
          // A scalar resource the pod does not request is left out of the score.
          if (podRequest === 0) break;
          const name = this.names[i]!;
          const nodeAlloc = nodeInfo.allocatable.scalarResources?.get(name);
          // Not advertised by the node: devices may back it (calculateDRAExtendedResourceAllocatableRequest).
          const devices = (nodeAlloc ?? 0) === 0 && dra !== null ? this.draResources!.totals(nodeInfo.node!, name, dra) : null;
          if (devices !== null && devices.capacity > 0) {
            a = devices.capacity;
            r = devices.allocated + podRequest;
          } else if (nodeAlloc !== undefined) {
            a = nodeAlloc;
            r = nodeInfo.requested.scalar(name) + podRequest;
          }
          break;
        }
        default:
          break;
      }
      // Only a resource the node has takes part; the rest stay (0, 0) and strategies skip them.
      if (a === 0) {
        allocatable[i] = 0;
        requested[i] = 0;
      } else {
        allocatable[i] = a;
        requested[i] = r;
      }
    }
    return this.scorer(requested, allocatable, podRequests);
  }

  /**
   * A placement's score (scorePlacement): the strategy over the sums of the placement's nodes,
   * `requested` being the proposed members' requests plus what the nodes' pods use already.
   * The nodes are read as the snapshot holds them, without the trial's members.
   */
  scorePlacement(members: readonly PodInfo[], nodes: readonly NodeInfo[], exact: ExactPlacementScorer): number {
    const n = this.names.length;
    const requested = new PlacementSums(n);
    const allocatable = new PlacementSums(n);
    for (const pod of members) {
      const r = this.podRequests(pod);
      for (let i = 0; i < n; i++) requested.add(i, r[i]!);
    }
    // The members' share of `requested`, as the scorer's contract wants it.
    const proposed = Float64Array.from(requested.low);
    for (const ni of nodes) {
      for (let i = 0; i < n; i++) {
        // Upstream passes the running total as the "pod request": a scalar nobody asked for so far is skipped.
        if (this.kinds[i] === KindScalar && requested.isZero(i)) continue;
        const a = this.placementAllocatable(ni, i);
        if (a === 0) continue;
        allocatable.add(i, a);
        requested.add(i, this.placementUsed(ni, i));
      }
    }
    if (requested.exceeded || allocatable.exceeded) return exact(requested.int64(), allocatable.int64());
    return this.scorer(requested.low, allocatable.low, proposed);
  }

  /** A node's allocatable amount of resource `i`, as a placement sums it. */
  private placementAllocatable(ni: NodeInfo, i: number): number {
    const kind = this.kinds[i]!;
    if (kind === KindScalar) return ni.allocatable.scalarResources?.get(this.names[i]!) ?? 0;
    return kind === KindIgnored ? 0 : allocatableOnNode(ni, kind);
  }

  /** What a node's pods use of resource `i`, as a placement sums it. */
  private placementUsed(ni: NodeInfo, i: number): number {
    const kind = this.kinds[i]!;
    if (kind === KindScalar) return ni.requested.scalar(this.names[i]!);
    return kind === KindIgnored ? 0 : usedOnNode(ni, kind, this.useRequested);
  }

}

/**
 * A placement's sums of non-negative integers, exact as upstream's int64 in one pass: each is
 * `high + low`, where the double `low` stays within exactProductLimit (its additions and its
 * product with MaxNodeScore are exact there) and the bigint `high`, made only for a placement
 * that needs it, takes what would pass it.
 */
class PlacementSums {
  readonly low: Float64Array;
  private high: bigint[] | null = null;

  constructor(n: number) {
    this.low = new Float64Array(n);
  }

  add(i: number, v: number): void {
    const s = this.low[i]! + v;
    if (s <= exactProductLimit) {
      this.low[i] = s;
      return;
    }
    this.high ??= new Array<bigint>(this.low.length).fill(0n);
    this.high[i] = this.high[i]! + BigInt(this.low[i]!) + BigInt(v);
    this.low[i] = 0;
  }

  isZero(i: number): boolean {
    return this.low[i] === 0 && (this.high === null || this.high[i] === 0n);
  }

  /** True when some sum left `low`: only the exact scorer may read them then. */
  get exceeded(): boolean {
    return this.high !== null;
  }

  /** The sums as Go's int64 adds them: wrapping once at the end is the same as wrapping at each step. */
  int64(): bigint[] {
    return Array.from(this.low, (l, i) => BigInt.asIntN(64, (this.high?.[i] ?? 0n) + BigInt(l)));
  }
}

/** The memo's entries for cycles scoring `scoredNodes` nodes: a power of two, never shrinking a cycle's hits. */
/** The first of a block's scores (from row `at`) outside MinNodeScore..MaxNodeScore. */
function firstOutOfRange(scores: Float64Array, at: number): number {
  for (let j = 0; j < Block.Size; j++) if (scores[at + j]! > MaxNodeScore || scores[at + j]! < MinNodeScore) return scores[at + j]!;
  return NaN;
}

function memoSize(scoredNodes: number): number {
  let size = minMemoSize;
  while (size < maxMemoSize && size < scoredNodes * memoSlotsPerScoredNode) size *= 2;
  return size;
}

/** Pod-level requests or container statuses: parts that only some scorers count. */
function hasPartsBeyondSpec(pod: Pod): boolean {
  const s = pod.status;
  return pod.spec.resources?.requests != null || (s?.containerStatuses?.length ?? 0) > 0 || (s?.initContainerStatuses?.length ?? 0) > 0;
}

/** The node's allocatable cpu, memory or ephemeral storage. */
function allocatableOnNode(ni: NodeInfo, kind: number): number {
  if (kind === KindCPU) return ni.allocatableMilliCPU;
  if (kind === KindMemory) return ni.allocatableMemory;
  return ni.allocatableEphemeralStorage;
}

/**
 * What the node's pods use of a cpu, memory or ephemeral-storage resource: their real requests
 * (`useRequested`) or the non-zero ones, which ephemeral storage does not have.
 */
function usedOnNode(ni: NodeInfo, kind: number, useRequested: boolean): number {
  if (kind === KindCPU) return useRequested ? ni.requestedMilliCPU : ni.nonZeroRequestedMilliCPU;
  if (kind === KindMemory) return useRequested ? ni.requestedMemory : ni.nonZeroRequestedMemory;
  return ni.requestedEphemeralStorage;
}
