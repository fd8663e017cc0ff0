// NodeResourcesFit: rejects nodes without room for the pod's requests and scores nodes with the
// configured strategy (framework/plugins/noderesources/fit.go).
import { quantityMilliValue, quantityValue } from '../../api/quantity.js';
import {
  computePodResourceRequests,
  isExtendedResourceName,
  Resource,
  ResourceCPU,
  ResourceEphemeralStorage,
  ResourceMemory,
  ResourcePods,
  type PodRequestsOptions,
} from '../../api/resource_requests.js';
import type { PodGroup } from '../../api/scheduling.js';
import type { Container, Node, Pod, ResourceList } from '../../api/types.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import { eventObjectsAs } from '../../framework/event_objects.js';
import { ActionType, ActionTypeUpdate, QueueingHint, type ClusterEventWithHint } from '../../framework/events.js';
import type {
  EnqueueExtensions,
  FilterPlugin,
  PlacementScorePlugin,
  PodGroupAssignments,
  PreFilterOutcome,
  PreFilterPlugin,
  PreScorePlugin,
  ScorePlugin,
} from '../../framework/interfaces.js';
import { NodeInfo } from '../../framework/node_info.js';
import {
  Block,
  KeptBlocks,
  scalarNameBit,
  scalarNameHash,
  ScalarOnly,
  type NodeRows,
  type ScalarColumn,
} from '../../framework/node_rows.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';
import {
  LeastAllocated,
  MostAllocated,
  RequestedToCapacityRatio,
  type NodeResourcesFitArgs,
  type ScoringStrategy,
} from './args.js';
import { mostResourceScorerExact } from './most_allocated.js';
import { fitsRow } from './row_arithmetic.js';
import type { RowResourceCheck, RowScoring } from '../../framework/row_pass.js';
import { PreScoreState, ResourceAllocationScorer, type ExactPlacementScorer } from './resource_allocation.js';
import { isDRAExtendedResourceName, ResourceDeviceClassPrefix } from '../../dra/device_class_resolver.js';
import type { DeviceClassResolver } from '../../framework/shared_dra_manager.js';
import type { SharedDRAManager } from '../../framework/shared_dra_manager.js';
import { draExtendedResources, type DraExtendedResources } from './dra_extended_resources.js';
import type { ScoresOnto, SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { signResources } from './sign.js';

export const FitName = 'NodeResourcesFit';
const preFilterStateKey = `PreFilter${FitName}`;
const preScoreStateKey = `PreScore${FitName}`;

/** A resource the node lacks for the pod (fit.go InsufficientResource). */
export interface InsufficientResource {
  readonly resourceName: string;
  /** "Too many pods", "Insufficient cpu", "Insufficient <resource>". */
  readonly reason: string;
  readonly requested: number;
  readonly used: number;
  readonly capacity: number;
  /** The request exceeds the node's whole allocatable, so preemption cannot help. */
  readonly unresolvable: boolean;
}

const noBits: readonly number[] = Object.freeze([]);

/**
 * A pod's requests prepared once for the per-node check: scalar resources with a zero request
 * or ignored by the args are dropped, and their reason strings are built up front.
 */
class FitRequest {
  private constructor(
    readonly milliCPU: number,
    readonly memory: number,
    readonly ephemeralStorage: number,
    readonly scalarNames: readonly string[],
    readonly scalarValues: readonly number[],
    readonly scalarReasons: readonly string[],
    /** Per scalar: a DeviceClass backs it, so a node without it in allocatable leaves it to DynamicResources. */
    readonly scalarBackedByDRA: readonly boolean[] | null,
  ) {
    this.bits = scalarNames.length === 0 ? noBits : scalarNames.map(scalarNameBit);
    this.hashes = scalarNames.length === 0 ? noBits : scalarNames.map(scalarNameHash);
  }

  /**
   * Per scalar, Filter's status for a node short of it alone (plain, and past the node's whole
   * allocatable), taken from the plugin's shared ones at first use: no lookup by reason per node.
   */
  readonly shortOf: (Status | undefined)[] = [];
  readonly shortOfUnresolvable: (Status | undefined)[] = [];

  private check: RowResourceCheck | null = null;

  /** The packed part of the request as filterRows checks it; a zero cpu or memory request is not checked. */
  get rowCheck(): RowResourceCheck {
    return (this.check ??= {
      milliCPU: this.milliCPU > 0 ? this.milliCPU : -Infinity,
      memory: this.memory > 0 ? this.memory : -Infinity,
      ephemeralStorage: this.ephemeralStorage,
    });
  }

  /** Each scalar name's bit in the rows' Cold.ScalarNames signatures (set once here: no lazy field for V8 to see change). */
  private readonly bits: readonly number[];
  /** Each scalar name's hash, as the rows' Cold.ScalarOnly holds a node's only name. */
  private readonly hashes: readonly number[];
  private columnsOf: NodeRows | null = null;
  private readonly columns: (ScalarColumn | null | undefined)[] = [];

  scalarBit(i: number): number {
    return this.bits[i]!;
  }

  scalarHash(i: number): number {
    return this.hashes[i]!;
  }

  /** The column of `rows` for scalar request `i` (made at first ask); null when the table keeps none for it. */
  scalarColumn(rows: NodeRows, i: number): ScalarColumn | null {
    if (this.columnsOf !== rows) {
      this.columnsOf = rows;
      this.columns.length = 0;
    }
    let column = this.columns[i];
    if (column === undefined) column = this.columns[i] = rows.scalarColumn(this.scalarNames[i]!);
    return column;
  }

  static compile(
    request: Resource,
    ignoredResources?: ReadonlySet<string>,
    ignoredResourceGroups?: ReadonlySet<string>,
    draClasses?: DeviceClassResolver | null,
  ): FitRequest {
    const names: string[] = [];
    const values: number[] = [];
    const reasons: string[] = [];
    let backed: boolean[] | null = null;
    if (request.scalarResources) {
      for (const [name, quantity] of request.scalarResources) {
        if (quantity === 0) continue;
        // Only extended resources can be ignored; hugepages and kubernetes.io/ ones are always checked.
        if (isExtendedResourceName(name)) {
          if (ignoredResources?.has(name)) continue;
          if (ignoredResourceGroups && ignoredResourceGroups.size > 0 && ignoredResourceGroups.has(name.split('/')[0]!)) continue;
        }
        if (draClasses && isDRAExtendedResourceName(name) && draClasses.getDeviceClass(name) !== undefined) {
          (backed ??= new Array<boolean>(names.length).fill(false)).push(true);
        } else {
          backed?.push(false);
        }
        names.push(name);
        values.push(quantity);
        reasons.push(`Insufficient ${name}`);
      }
    }
    return new FitRequest(request.milliCPU, request.memory, request.ephemeralStorage, names, values, reasons, backed);
  }
}

/** A count of shortfalls and the first one: all Filter needs when it is the only one. */
class FirstShortfall {
  count = 0;
  reason = '';
  unresolvable = false;
  /** When the first shortfall is a scalar resource: its index in the FitRequest, else -1. */
  scalar = -1;

  note(reason: string, unresolvable: boolean): void {
    if (this.count++ > 0) return;
    this.reason = reason;
    this.unresolvable = unresolvable;
  }
}

/**
 * Counts the resources `nodeInfo` lacks for `req` (0 when the pod fits), notes the first in
 * `first`, and pushes each into `out` when given. Runs per node in Filter, which passes no `out`:
 * a node short of one resource (the common rejection) then costs no allocation.
 */
function shortfalls(req: FitRequest, nodeInfo: NodeInfo, first: FirstShortfall, out: InsufficientResource[] | null): number {
  // The packed numbers first: most nodes pass on them without touching the Resource objects.
  const podCount = nodeInfo.podCount;
  const allowedPods = nodeInfo.allowedPodNumber;
  const allocCPU = nodeInfo.allocatableMilliCPU;
  const usedCPU = nodeInfo.requestedMilliCPU;
  const allocMemory = nodeInfo.allocatableMemory;
  const usedMemory = nodeInfo.requestedMemory;
  first.count = 0;
  first.scalar = -1;
  if (podCount + 1 > allowedPods) {
    first.note('Too many pods', false);
    out?.push({ resourceName: ResourcePods, reason: 'Too many pods', requested: 1, used: podCount, capacity: allowedPods, unresolvable: false });
  }
  if (req.milliCPU > 0 && req.milliCPU > allocCPU - usedCPU) {
    first.note('Insufficient cpu', req.milliCPU > allocCPU);
    out?.push({
      resourceName: ResourceCPU, reason: 'Insufficient cpu', requested: req.milliCPU, used: usedCPU,
      capacity: allocCPU, unresolvable: req.milliCPU > allocCPU,
    });
  }
  if (req.memory > 0 && req.memory > allocMemory - usedMemory) {
    first.note('Insufficient memory', req.memory > allocMemory);
    out?.push({
      resourceName: ResourceMemory, reason: 'Insufficient memory', requested: req.memory, used: usedMemory,
      capacity: allocMemory, unresolvable: req.memory > allocMemory,
    });
  }
  if (req.ephemeralStorage > 0) {
    const allocEph = nodeInfo.allocatableEphemeralStorage;
    const usedEph = nodeInfo.requestedEphemeralStorage;
    if (req.ephemeralStorage > allocEph - usedEph) {
      first.note('Insufficient ephemeral-storage', req.ephemeralStorage > allocEph);
      out?.push({
        resourceName: ResourceEphemeralStorage, reason: 'Insufficient ephemeral-storage', requested: req.ephemeralStorage,
        used: usedEph, capacity: allocEph, unresolvable: req.ephemeralStorage > allocEph,
      });
    }
  }
  if (req.scalarNames.length === 0) return first.count;
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  const names = req.scalarNames;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const quantity = req.scalarValues[i]!;
    const capacity = alloc.scalar(name);
    // Devices serve what the node does not advertise (shouldDelegateResourceToDRA): whatever is
    // in use, no shortfall, so the node's requested amount is not even looked up.
    if (capacity === 0 && req.scalarBackedByDRA?.[i] === true) continue;
    const inUse = used.scalar(name);
    if (quantity > capacity - inUse) {
      first.note(req.scalarReasons[i]!, quantity > capacity);
      if (first.count === 1) first.scalar = i;
      out?.push({
        resourceName: name, reason: req.scalarReasons[i]!, requested: quantity, used: inUse, capacity,
        unresolvable: quantity > capacity,
      });
    }
  }
  return first.count;
}

/**
 * `shortfalls` without `out`, read from row `at` of `rows`: the same count and first shortfall,
 * in the same order of checks; -1 when a scalar request needs the NodeInfo.
 */
function rowShortfalls(req: FitRequest, rows: NodeRows, at: number, first: FirstShortfall): number {
  first.count = 0;
  first.scalar = -1;
  if (rows.podCount(at) + 1 > rows.allowedPodNumber(at)) first.note('Too many pods', false);
  const allocCPU = rows.allocatableMilliCPU(at);
  if (req.milliCPU > 0 && req.milliCPU > allocCPU - rows.requestedMilliCPU(at)) first.note('Insufficient cpu', req.milliCPU > allocCPU);
  const allocMemory = rows.allocatableMemory(at);
  if (req.memory > 0 && req.memory > allocMemory - rows.requestedMemory(at)) first.note('Insufficient memory', req.memory > allocMemory);
  if (req.ephemeralStorage > 0) {
    const allocEph = rows.allocatableEphemeralStorage(at);
    if (req.ephemeralStorage > allocEph - rows.requestedEphemeralStorage(at)) {
      first.note('Insufficient ephemeral-storage', req.ephemeralStorage > allocEph);
    }
  }
  const names = req.scalarNames;
  if (names.length === 0) return first.count;
  // A name missing from the row's signature is neither allocatable nor in use there: 0 and 0; so
  // is a name other than the node's only one.
  const signature = rows.scalarNames(at);
  const only = rows.scalarOnly(at);
  for (let i = 0; i < names.length; i++) {
    let capacity = 0;
    let inUse = 0;
    if ((signature & req.scalarBit(i)) !== 0 && (only === ScalarOnly.Several || only === req.scalarHash(i))) {
      const column = req.scalarColumn(rows, i);
      if (column === null) return -1;
      column.sync(rows, at);
      capacity = column.allocatable[at]!;
      inUse = column.requested[at]!;
    }
    if (capacity === 0 && req.scalarBackedByDRA?.[i] === true) continue;
    const quantity = req.scalarValues[i]!;
    if (quantity > capacity - inUse) {
      first.note(req.scalarReasons[i]!, quantity > capacity);
      if (first.count === 1) first.scalar = i;
    }
  }
  return first.count;
}

/**
 * The resources `nodeInfo` lacks for a pod requesting `podRequest` (fit.go fitsRequest); empty
 * when it fits. Shared with other plugins (preemption) that need the same check.
 */
export function fitsRequest(
  podRequest: Resource,
  nodeInfo: NodeInfo,
  ignoredResources?: ReadonlySet<string>,
  ignoredResourceGroups?: ReadonlySet<string>,
  draClasses?: DeviceClassResolver | null,
): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  shortfalls(FitRequest.compile(podRequest, ignoredResources, ignoredResourceGroups, draClasses), nodeInfo, new FirstShortfall(), out);
  return out;
}

/**
 * The blocks of rows whose every row passed the packed check of one set of requests (cpu,
 * memory, ephemeral storage): pods of a workload ask for the same, and most blocks have not
 * changed since the last pod walked them. Other requests start a new epoch.
 */
class PassingBlocks {
  private readonly kept = new KeptBlocks();
  private epoch = 0;
  private milliCPU = NaN;
  private memory = NaN;
  private ephemeralStorage = NaN;

  /** This, for `rows` and `check`. */
  of(rows: NodeRows, check: RowResourceCheck): this {
    this.kept.use(rows);
    if (check.milliCPU !== this.milliCPU || check.memory !== this.memory || check.ephemeralStorage !== this.ephemeralStorage) {
      this.milliCPU = check.milliCPU;
      this.memory = check.memory;
      this.ephemeralStorage = check.ephemeralStorage;
      this.epoch++;
    }
    return this;
  }

  holds(block: number): boolean {
    return this.kept.holds(block, this.epoch);
  }

  keep(block: number): void {
    this.kept.keep(block, this.epoch);
  }
}

/**
 * The union of the scalar-name signatures of each whole block's rows, kept while the block's stamp
 * holds: a block none of whose rows has the signature bit of the pod's only scalar resource is
 * refused whole (a pod asking for a resource few nodes have meets most blocks so).
 */
class SignatureBlocks {
  private rows: NodeRows | null = null;
  private stamps = new Float64Array(0);
  private unions = new Float64Array(0);

  /** This, for `rows`. */
  of(rows: NodeRows): this {
    if (this.rows !== rows) {
      this.rows = rows;
      const blocks = (rows.list.length + Block.Size - 1) >> Block.Shift;
      this.stamps = new Float64Array(blocks).fill(NaN);
      this.unions = new Float64Array(blocks);
    }
    return this;
  }

  /** The union of the signatures of the rows of `block`, which must be whole (Block.Size rows). */
  union(block: number): number {
    const rows = this.rows!;
    const stamp = rows.blockStamp(block);
    if (this.stamps[block] === stamp) return this.unions[block]!;
    let union = 0;
    for (let at = block << Block.Shift, end = at + Block.Size; at < end; at++) union |= rows.scalarNames(at);
    this.stamps[block] = stamp;
    this.unions[block] = union;
    return union;
  }
}

class PreFilterState implements StateData {
  constructor(readonly request: FitRequest) {}

  clone(): StateData {
    return this;
  }
}

/** Feature gates that change this plugin, at their v1.37 defaults. */
export interface FitFeatures {
  readonly enableInPlacePodVerticalScaling: boolean;
  readonly enableSchedulingQueueHint: boolean;
}

const defaultFitFeatures: FitFeatures = { enableInPlacePodVerticalScaling: true, enableSchedulingQueueHint: true };

// v1.37's getScorer builds every strategy without the PodLevelResources and
// InPlacePodVerticalScaling flags: the score counts the containers' spec requests only.
const containerSpecOnly: PodRequestsOptions = { podLevelResources: false, statusResources: false };

function newScorer(strategy: ScoringStrategy, dra: DraExtendedResources | null): ResourceAllocationScorer {
  const resources = strategy.resources;
  switch (strategy.type) {
    case LeastAllocated:
    case MostAllocated:
      return ResourceAllocationScorer.fromSpec({ strategy: strategy.type, resources, shape: null, useRequested: false }, dra, containerSpecOnly);
    case RequestedToCapacityRatio: {
      const shape = strategy.requestedToCapacityRatio?.shape;
      if (!shape || shape.length === 0) {
        throw new Error(`${FitName}: scoring strategy ${RequestedToCapacityRatio} needs a non-empty requestedToCapacityRatio.shape`);
      }
      return ResourceAllocationScorer.fromSpec({ strategy: RequestedToCapacityRatio, resources, shape, useRequested: false }, dra, containerSpecOnly);
    }
    default:
      throw new Error(`${FitName}: scoring strategy ${strategy.type} is not supported`);
  }
}

export class Fit implements PreFilterPlugin, FilterPlugin, EnqueueExtensions, PreScorePlugin, ScorePlugin, PlacementScorePlugin, SignPlugin {
  readonly name = FitName;

  signPod(pod: PodInfo): readonly SignFragment[] | Status {
    return signResources(pod, this.draClasses);
  }
  readonly ignoredResources: ReadonlySet<string>;
  readonly ignoredResourceGroups: ReadonlySet<string>;
  readonly scorer: ResourceAllocationScorer;
  /** Placements are scored MostAllocated over the configured resources, whatever the node strategy. */
  private readonly placementScorer: ResourceAllocationScorer;
  /** Its exact form, for placements whose sums leave a double's integers. */
  private readonly placementExact: ExactPlacementScorer;

  /** Which DeviceClass backs an extended resource; null with DRAExtendedResource off. */
  private readonly draClasses: DeviceClassResolver | null;

  /**
   * @param dra the scheduler's DRA objects when DRAExtendedResource is on: a node that does not
   *   advertise an extended resource a DeviceClass backs leaves it to DynamicResources, and its
   *   devices count in the score. Without it every extended resource must be in allocatable.
   */
  constructor(args: NodeResourcesFitArgs, private readonly features: FitFeatures = defaultFitFeatures, dra: SharedDRAManager | null = null) {
    this.ignoredResources = new Set(args.ignoredResources);
    this.ignoredResourceGroups = new Set(args.ignoredResourceGroups);
    this.draClasses = dra?.classResolver ?? null;
    this.scorer = newScorer(args.scoringStrategy, draExtendedResources(dra));
    this.placementScorer = newScorer({ type: MostAllocated, resources: args.scoringStrategy.resources }, null);
    this.placementExact = mostResourceScorerExact(args.scoringStrategy.resources);
  }

  preFilter(state: CycleState, pod: PodInfo): PreFilterOutcome | null {
    state.write(preFilterStateKey, new PreFilterState(FitRequest.compile(pod.requests.resource, this.ignoredResources, this.ignoredResourceGroups, this.draClasses)));
    return null;
  }

  preFilterExtensions(): null {
    return null;
  }

  filter(state: CycleState, _pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    const s = state.read<PreFilterState>(preFilterStateKey);
    if (!(s instanceof PreFilterState)) return Status.error(`error reading "${preFilterStateKey}" from cycleState: not found`);
    const first = this.firstShortfall;
    const n = shortfalls(s.request, nodeInfo, first, null);
    if (n === 0) return null;
    if (n === 1) return this.statusOfOne(s.request, first);
    const insufficient: InsufficientResource[] = [];
    shortfalls(s.request, nodeInfo, first, insufficient);
    let code = Code.Unschedulable;
    const reasons: string[] = [];
    for (let i = 0; i < insufficient.length; i++) {
      reasons.push(insufficient[i]!.reason);
      if (insufficient[i]!.unresolvable) code = Code.UnschedulableAndUnresolvable;
    }
    return new Status(code, reasons);
  }

  /**
   * Filter's passes read from the nodes' rows: `shortfalls` over a stretch of rows (scalar
   * requests through the rows' name signatures and scalar columns; a row needing a name the table
   * keeps no column for goes to `filter`), and with `rejections` the shared status of a row short
   * of exactly one resource.
   */
  filterRows(state: CycleState, _pod: PodInfo, rows: NodeRows, first: number, count: number, passes: Uint8Array, rejections: (Status | null)[] | null): void {
    const s = state.read<PreFilterState>(preFilterStateKey);
    if (!(s instanceof PreFilterState)) {
      passes.fill(0, 0, count);
      if (rejections !== null) rejections.fill(null, 0, count);
      return;
    }
    const req = s.request;
    const short = this.firstShortfall;
    if (req.scalarNames.length === 0) {
      // Most nodes pass on the packed check; only a rejected one is looked at again for its status.
      const check = req.rowCheck;
      const passing = this.passingBlocks.of(rows, check);
      for (let k = 0; k < count; ) {
        // A whole block is skipped when all its rows passed this check and none changed since.
        const whole = ((first + k) & (Block.Size - 1)) === 0 && k + Block.Size <= count;
        const block = (first + k) >> Block.Shift;
        if (whole && passing.holds(block)) {
          k += Block.Size;
          continue;
        }
        let all = true;
        for (const end = whole ? k + Block.Size : k + 1; k < end; k++) {
          if (fitsRow(rows, first + k, check)) continue;
          all = false;
          passes[k] = 0;
          if (rejections !== null) rejections[k] = rowShortfalls(req, rows, first + k, short) === 1 ? this.statusOfOne(req, short) : null;
        }
        if (whole && all) passing.keep(block);
      }
      return;
    }
    // One scalar resource asked for (an extended resource most nodes lack): a row whose signature
    // says it has none is short of it for sure, and of it alone when the packed check passes,
    // rowShortfalls's verdict without its per-resource bookkeeping.
    const one = req.scalarNames.length === 1 && req.scalarValues[0]! > 0 && req.scalarBackedByDRA?.[0] !== true;
    const bit = one ? req.scalarBit(0) : 0;
    const hash = one ? req.scalarHash(0) : 0;
    const missing = one && rejections !== null ? this.missingOnly(req) : null;
    const check = req.rowCheck;
    // For one scalar resource, the packed check's verdicts are kept by block as for pods without
    // scalar requests: a block whose rows all passed it (and none changed since) needs it on none.
    const passing = one && rejections !== null ? this.passingBlocks.of(rows, check) : null;
    for (let k = 0; k < count; ) {
      const whole = passing !== null && ((first + k) & (Block.Size - 1)) === 0 && k + Block.Size <= count;
      const block = (first + k) >> Block.Shift;
      const packedHolds = whole && passing.holds(block);
      if (packedHolds && (this.signatureBlocks.of(rows).union(block) & bit) === 0) {
        // Every row fits the packed check and none has the resource: all short of it alone.
        // Plain stores: fill's builtin call costs more than 16 of them.
        for (const end = k + Block.Size; k < end; k++) {
          passes[k] = 0;
          rejections![k] = missing;
        }
        continue;
      }
      let allFit = true;
      for (const end = whole ? k + Block.Size : k + 1; k < end; k++) {
        const at = first + k;
        // Only a one-scalar rejection's status needs it (otherwise passing is null and nothing is kept).
        const fits = packedHolds || (passing !== null && fitsRow(rows, at, check));
        if (!fits) allFit = false;
        if (one) {
          const only = rows.scalarOnly(at);
          if ((rows.scalarNames(at) & bit) === 0 || (only !== ScalarOnly.Several && only !== hash)) {
            passes[k] = 0;
            if (rejections !== null) rejections[k] = fits ? missing : null;
            continue;
          }
        }
        const n = rowShortfalls(req, rows, at, short);
        if (n === 0) continue;
        passes[k] = 0;
        if (rejections !== null) rejections[k] = n === 1 ? this.statusOfOne(req, short) : null;
      }
      if (whole && allFit && !packedHolds) passing.keep(block);
    }
  }

  /** statusOfOne for a node short of the request's only scalar resource, which it does not have at all. */
  private missingOnly(req: FitRequest): Status {
    return (req.shortOfUnresolvable[0] ??= this.singleShortfall(req.scalarReasons[0]!, true));
  }

  /** Filter's status for a node short of one resource only, the one `first` noted. */
  private statusOfOne(req: FitRequest, first: FirstShortfall): Status {
    const i = first.scalar;
    if (i < 0) return this.singleShortfall(first.reason, first.unresolvable);
    const kept = first.unresolvable ? req.shortOfUnresolvable : req.shortOf;
    return (kept[i] ??= this.singleShortfall(first.reason, first.unresolvable));
  }

  /** filterRows's check as data (the row pass), or null for a pod with scalar requests. */
  rowCheck(state: CycleState, _pod: PodInfo): RowResourceCheck | null {
    const s = state.read<PreFilterState>(preFilterStateKey);
    if (!(s instanceof PreFilterState) || s.request.scalarNames.length > 0) return null;
    return s.request.rowCheck;
  }

  /** Filter's scratch for the first shortfall of a node (Filter runs one node at a time). */
  private readonly firstShortfall = new FirstShortfall();
  /** The blocks of rows whose every row passed filterRows' packed check, for the checks' requests. */
  private readonly passingBlocks = new PassingBlocks();
  /** The scalar-name signatures of whole blocks of rows. */
  private readonly signatureBlocks = new SignatureBlocks();

  /** One resource short, the common rejection: a status shared by every node short of it. */
  private singleShortfall(reason: string, unresolvable: boolean): Status {
    const cache = unresolvable ? this.shortOfUnresolvable : this.shortOf;
    let s = cache.get(reason);
    if (s === undefined) {
      s = Status.constant(unresolvable ? Code.UnschedulableAndUnresolvable : Code.Unschedulable, FitName, reason);
      cache.set(reason, s);
    }
    return s;
  }

  // Keyed by reason; as many entries as resource names pods request.
  private readonly shortOf = new Map<string, Status>();
  private readonly shortOfUnresolvable = new Map<string, Status>();

  preScore(state: CycleState, pod: PodInfo): Status | null {
    state.write(preScoreStateKey, this.preScoreState(pod));
    return null;
  }

  private preScoreState(pod: PodInfo): PreScoreState {
    return new PreScoreState(this.scorer.podRequests(pod), this.scorer.draPreScore());
  }

  score(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): number | Status {
    const s = state.read<PreScoreState>(preScoreStateKey);
    const ps = s instanceof PreScoreState ? s : this.preScoreState(pod);
    return this.scorer.score(nodeInfo, ps.podRequests, ps.dra);
  }

  scoreNodesInto(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], scores: Float64Array): Status | null {
    const s = state.read<PreScoreState>(preScoreStateKey);
    const ps = s instanceof PreScoreState ? s : this.preScoreState(pod);
    return this.scorer.scoreNodesInto(nodes, ps.podRequests, scores, ps.dra, state.scoredRows);
  }

  addScoresOnto(state: CycleState, _pod: PodInfo, nodes: readonly NodeInfo[], onto: ScoresOnto): boolean | number {
    const s = state.read<PreScoreState>(preScoreStateKey);
    // DRA-backed resources score through their devices: the column path.
    if (!(s instanceof PreScoreState) || s.dra !== null) return false;
    return this.scorer.addScoresOnto(nodes, s.podRequests, state.scoredRows, onto);
  }

  rowScoring(_state: CycleState, pod: PodInfo): RowScoring | null {
    return this.scorer.rowScoring(pod);
  }

  scoreExtensions(): null {
    return null;
  }

  /** Packing a group's placement: the fuller the placement's nodes end up, the higher. */
  scorePlacement(_state: CycleState, _podGroup: PodGroup, assignments: PodGroupAssignments): number {
    const members = assignments.proposedAssignments.map((a) => a.podInfo);
    return this.placementScorer.scorePlacement(members, assignments.placement.nodes, this.placementExact);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    let podActions: number = ActionType.Delete;
    // With in-place resize, a pod scaling down frees resources too.
    if (this.features.enableInPlacePodVerticalScaling) podActions |= ActionType.UpdatePodScaleDown;
    // Without queueing hints, label/taint updates stand in for Node/Add events the pre-check may drop.
    const nodeActions = this.features.enableSchedulingQueueHint
      ? ActionType.Add | ActionType.UpdateNodeAllocatable
      : ActionType.Add | ActionType.UpdateNodeAllocatable | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel;
    const events: ClusterEventWithHint[] = [
      { event: { resource: 'Pod', actionType: podActions }, queueingHintFn: (pod, o, n) => this.isSchedulableAfterPodEvent(pod, o, n) },
      { event: { resource: 'Node', actionType: nodeActions }, queueingHintFn: (pod, o, n) => this.isSchedulableAfterNodeChange(pod, o, n) },
    ];
    // A pod may wait for a class to back the extended resource it asks for.
    if (this.draClasses !== null) {
      events.push({
        event: { resource: 'DeviceClass', actionType: ActionType.Add | ActionTypeUpdate },
        queueingHintFn: (pod, o, n) => isSchedulableAfterDeviceClassEvent(pod, o, n),
      });
    }
    return events;
  }

  /** A pod was deleted or scaled down: may the rejected `pod` fit now? */
  isSchedulableAfterPodEvent(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const objects = eventObjectsAs('Pod', oldObj, newObj);
    if (objects === null) return QueueingHint.Queue;
    const { oldObj: original, newObj: modified } = objects;
    if (!modified) {
      if (!original) return QueueingHint.Queue;
      // Deleting a pod that neither ran nor held a nomination frees nothing.
      if (!original.spec.nodeName && !original.status?.nominatedNodeName) return QueueingHint.QueueSkip;
      return QueueingHint.Queue;
    }
    if (!this.features.enableInPlacePodVerticalScaling || !original) return QueueingHint.QueueSkip;
    try {
      return isSchedulableAfterPodScaleDown(pod, original, modified) ? QueueingHint.Queue : QueueingHint.QueueSkip;
    } catch {
      return QueueingHint.Queue;
    }
  }

  /** A node was added or its allocatable changed: may the rejected `pod` fit now? */
  isSchedulableAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const objects = eventObjectsAs('Node', oldObj, newObj);
    if (objects === null || objects.newObj === null) return QueueingHint.Queue;
    const { oldObj: original, newObj: modified } = objects;
    try {
      const podRequest = computePodResourceRequests(pod).resource;
      if (fitsRequest(podRequest, new NodeInfo(modified), undefined, undefined, this.draClasses).length > 0) return QueueingHint.QueueSkip;
      if (!original) return QueueingHint.Queue;
      return haveAnyRequestedResourcesIncreased(podRequest, original, modified, this.draClasses) ? QueueingHint.Queue : QueueingHint.QueueSkip;
    } catch {
      return QueueingHint.Queue;
    }
  }
}

/**
 * The target pod itself scaled down, or a scheduled pod lowered a request the target pod makes
 * (fit.go isSchedulableAfterPodScaleDown).
 */
function isSchedulableAfterPodScaleDown(target: Pod, original: Pod, modified: Pod): boolean {
  if ((modified.metadata.uid ?? '') === (target.metadata.uid ?? '')) return true;
  if (!modified.spec.nodeName) return false;
  const before = requestsWithStatus(original);
  const after = requestsWithStatus(modified);
  const wanted = requestsWithStatus(target);
  if (wanted.milliCPU !== 0 && before.milliCPU > after.milliCPU) return true;
  if (wanted.memory !== 0 && before.memory > after.memory) return true;
  if (wanted.ephemeralStorage !== 0 && before.ephemeralStorage > after.ephemeralStorage) return true;
  if (wanted.scalarResources) {
    for (const [name, q] of wanted.scalarResources) {
      if (q !== 0 && before.scalar(name) > after.scalar(name)) return true;
    }
  }
  return false;
}

/**
 * The pod's requests as the kubelet has admitted them: per container the larger of the spec and
 * the status resources (only the status when the resize is infeasible), as upstream's
 * PodRequests with UseStatusResources.
 */
function requestsWithStatus(pod: Pod): Resource {
  const statuses = new Map<string, { resources?: { requests?: ResourceList }; allocatedResources?: ResourceList }>();
  for (const cs of pod.status?.containerStatuses ?? []) statuses.set(cs.name, cs);
  for (const cs of pod.status?.initContainerStatuses ?? []) statuses.set(cs.name, cs);
  if (statuses.size === 0) return computePodResourceRequests(pod).resource;
  const infeasible = (pod.status?.conditions ?? []).some((c) => c.type === 'PodResizePending' && c.reason === 'Infeasible');
  const effective = (c: Container): Container => {
    const cs = statuses.get(c.name);
    if (!cs?.resources) return c;
    const requests: ResourceList = infeasible ? {} : { ...(c.resources?.requests ?? {}) };
    maxInto(requests, cs.resources.requests);
    maxInto(requests, cs.allocatedResources);
    return { ...c, resources: { ...c.resources, requests } };
  };
  const spec = {
    ...pod.spec,
    containers: pod.spec.containers.map(effective),
    ...(pod.spec.initContainers ? { initContainers: pod.spec.initContainers.map(effective) } : {}),
  };
  return computePodResourceRequests({ ...pod, spec }).resource;
}

function maxInto(dst: ResourceList, src: ResourceList | undefined): void {
  if (!src) return;
  for (const name of Object.keys(src)) {
    const value = name === ResourceCPU ? quantityMilliValue : quantityValue;
    const cur = dst[name];
    if (cur === undefined || value(src[name]!) > value(cur)) dst[name] = src[name]!;
  }
}

/**
 * A DeviceClass was added or changed: does it now back an extended resource the pod asks for?
 * (fit.go isSchedulableAfterDeviceClassEvent)
 */
function isSchedulableAfterDeviceClassEvent(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const objects = eventObjectsAs('DeviceClass', oldObj, newObj);
  if (objects === null || objects.newObj === null) return QueueingHint.Queue;
  const { oldObj: original, newObj: modified } = objects;
  const explicit = modified.spec.extendedResourceName;
  if (original !== null) {
    if ((original.spec.extendedResourceName ?? '') === (explicit ?? '')) return QueueingHint.QueueSkip;
  } else if (podRequestsResource(pod, ResourceDeviceClassPrefix + (modified.metadata.name ?? ''))) {
    // Only an added class brings a new implicit name: a class's name never changes.
    return QueueingHint.Queue;
  }
  return explicit !== undefined && podRequestsResource(pod, explicit) ? QueueingHint.Queue : QueueingHint.QueueSkip;
}

/** Whether the pod's requests (resourcehelper.PodRequests) name the resource, at any quantity. */
function podRequestsResource(pod: Pod, name: string): boolean {
  const has = (list: ResourceList | undefined): boolean => list !== undefined && Object.prototype.hasOwnProperty.call(list, name);
  if (has(pod.spec.overhead as ResourceList | undefined)) return true;
  for (const c of pod.spec.containers) if (has(c.resources?.requests)) return true;
  for (const c of pod.spec.initContainers ?? []) if (has(c.resources?.requests)) return true;
  return false;
}

/** Did the node gain pod slots, or more of something the pod requests, or stop advertising a resource devices back? (fit.go) */
function haveAnyRequestedResourcesIncreased(podRequest: Resource, originalNode: Node, modifiedNode: Node, draClasses: DeviceClassResolver | null): boolean {
  const before = new NodeInfo(originalNode).allocatable;
  const after = new NodeInfo(modifiedNode).allocatable;
  if (after.allowedPodNumber > before.allowedPodNumber) return true;
  if (podRequest.milliCPU > 0 && after.milliCPU > before.milliCPU) return true;
  if (podRequest.memory > 0 && after.memory > before.memory) return true;
  if (podRequest.ephemeralStorage > 0 && after.ephemeralStorage > before.ephemeralStorage) return true;
  if (podRequest.scalarResources) {
    for (const [name, q] of podRequest.scalarResources) {
      if (q === 0) continue;
      if (after.scalar(name) > before.scalar(name)) return true;
      if (draClasses !== null && after.scalar(name) === 0 && isDRAExtendedResourceName(name) && draClasses.getDeviceClass(name) !== undefined) return true;
    }
  }
  return false;
}
