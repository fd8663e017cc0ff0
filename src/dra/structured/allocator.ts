// The structured allocator: an exhaustive, early-stopping search over the devices of the pools a
// node sees, claim by claim, request by request, device by device, with backtracking
// (structured/internal/incubating/allocator_incubating.go at v0.37.2, the implementation the
// pin's default features select).
import { randomUUID } from 'node:crypto';
import type { Node, NodeSelector, NodeSelectorRequirement } from '../../api/types.js';
import type {
  AllocationResult,
  Device,
  DeviceAllocationConfiguration,
  DeviceAllocationResult,
  DeviceClass,
  DeviceRequestAllocationResult,
  DeviceSelector,
  DeviceToleration,
  ResourceClaim,
  ResourceSlice,
} from '../../api/dra_types.js';
import { parseQuantity } from '../../api/quantity.js';
import { CelEvaluationError, DeviceActivation, enhanceRuntimeError, type CelCache, type CompilationResult } from '../../api/cel/index.js';
import { nodeMatches, type Pool } from './pools.js';
import { nodeSlicesOf, poolsForNode, type NodeSlices } from './node_slices.js';
import { CapacityError, consumedCapacityFromRequest, formatAmount, requestFitsCapacity, type Amount } from './capacity.js';
import { DistinctAttributeConstraint, MatchAttributeConstraint, type Constraint } from './constraints.js';
import { NO_MEMBERS, admits, allocatedBaseline, withDevice, type GroupIntersection } from './compatibility_groups.js';
import { exactRequestView, subRequestView, type RequestView } from './requests.js';
import { claimsKey, sameItems, shareDraws, shareIDsLater, shareIDsNow, type AllocationResultCache, type Answers, type LaterResults, type ShareHandOut } from './result_cache.js';
import { toleratesTaint } from '../../api/taints.js';
import {
  AllocationError,
  FailedAllocationOnNodeError,
  deviceHasShare,
  isDeviceAllocated,
  makeDeviceID,
  type AllocatedState,
  type ConsumedCapacity,
  type DeviceClassLister,
  type DeviceID,
  type Features,
} from './types.js';

/** resourceapi.AllocationResultsMaxSize: the most devices one claim can get. */
const AllocationResultsMaxSize = 32;

/**
 * The features we handle: the incubating implementation's, and listTypeAttributes and
 * compatibilityGroups, with which upstream selects its experimental implementation; others need
 * one we do not have.
 */
const SUPPORTED: ReadonlyArray<keyof Features> = [
  'listTypeAttributes',
  'compatibilityGroups',
  'adminAccess',
  'prioritizedList',
  'partitionableDevices',
  'deviceTaints',
  'deviceBindingAndStatus',
  'consumableCapacity',
  'fractionalCapacityRange',
];

export interface AllocatorOptions {
  readonly features: Features;
  readonly allocatedState: AllocatedState;
  readonly classLister: DeviceClassLister;
  /** Every slice; the list object must not change afterwards (its grouping by node is kept per list). */
  readonly slices: readonly ResourceSlice[];
  readonly celCache: CelCache;
  /** Makes the shareID of a multi-allocation device's share (upstream: a random UUID). */
  readonly newShareID?: () => string;
  /**
   * The next `count` share IDs newShareID would make, made later: the source moves past them now
   * (optional: kept answers handed out to nodes that are not chosen then write no IDs).
   */
  readonly laterShareIDs?: (count: number) => () => readonly string[];
  /** Answers kept across cycles (see result_cache.ts); used only when allocatedState can watch pools (watchPools, dependentHolds). */
  readonly resultCache?: AllocationResultCache;
}

/**
 * Each device's CEL activation, built on first use and kept while the device object lives:
 * informers hand out the same slice objects until a slice changes, so one activation serves
 * every selector, node and scheduling cycle.
 */
const activations = new WeakMap<Device, DeviceActivation>();

/** The IDs of a slice's devices, by device index, made once per slice object. */
const sliceDeviceIDs = new WeakMap<ResourceSlice, readonly DeviceID[]>();

function deviceIDsOf(slice: ResourceSlice): readonly DeviceID[] {
  let ids = sliceDeviceIDs.get(slice);
  if (!ids) {
    ids = (slice.spec.devices ?? []).map((d) => makeDeviceID(slice.spec.driver, slice.spec.pool.name, d.name));
    sliceDeviceIDs.set(slice, ids);
  }
  return ids;
}

/** The device's CEL activation, shared by every user while the device object lives (see activations). */
export function activationOf(device: Device, driver: string): DeviceActivation {
  let activation = activations.get(device);
  if (!activation) {
    activation = new DeviceActivation({ driver, allowMultipleAllocations: device.allowMultipleAllocations, attributes: device.attributes, capacity: device.capacity });
    activations.set(device, activation);
  }
  return activation;
}

/**
 * Each device's verdicts per compiled selector: a verdict depends only on the two, so it holds
 * for every node and pod while the slice object lives (a device is in one slice, of one driver).
 * Runtime errors are not kept: they are thrown each time, as upstream evaluates each time.
 */
const verdicts = new WeakMap<Device, Map<CompilationResult, boolean>>();

function deviceMatches(expr: CompilationResult, device: Device, driver: string): boolean {
  let byExpr = verdicts.get(device);
  if (!byExpr) verdicts.set(device, (byExpr = new Map()));
  let verdict = byExpr.get(expr);
  if (verdict === undefined) {
    verdict = expr.deviceMatches(activationOf(device, driver));
    byExpr.set(expr, verdict);
  }
  return verdict;
}

/**
 * Whether a request without capacity requirements fits a device nothing consumes yet, per
 * fractionalCapacityRange setting: it depends on the device alone, checked for every device
 * of every node and pod when consumable capacity is on.
 */
const unclaimedCapacityFits = [new WeakMap<Device, boolean>(), new WeakMap<Device, boolean>()] as const;

/** What a device nobody uses has consumed: nothing (read only). */
const noConsumption: ConsumedCapacity = new Map();

/** Claims asked about, their classes in request order, and the answers kept for their specs. */
interface Question {
  readonly claims: readonly ResourceClaim[];
  readonly classes: readonly (DeviceClass | undefined)[];
  readonly answers: Answers;
}

/** Counter values per counter set, in nano-units. */
type CounterSets = Map<string, Map<string, bigint>>;

function objectKey(claim: ResourceClaim): string {
  const ns = claim.metadata.namespace;
  return ns ? `${ns}/${claim.metadata.name}` : (claim.metadata.name ?? '');
}

/** Who a selector belongs to, as upstream names it in errors. */
function selectorOwner(claim: ResourceClaim, deviceClass: DeviceClass | null): string {
  return deviceClass ? `class ${deviceClass.metadata.name}` : `claim ${objectKey(claim)}`;
}

function featureSetText(features: Features): string {
  return `{${Object.entries(features).map(([k, v]) => `${k[0]!.toUpperCase()}${k.slice(1)}:${String(v)}`).join(' ')}}`;
}

/**
 * Allocates devices for claims on one node at a time; built once per scheduling cycle from the
 * cluster's state and reusable for every node.
 */
export class Allocator {
  readonly features: Features;
  readonly allocatedState: AllocatedState;
  readonly classLister: DeviceClassLister;
  readonly celCache: CelCache;
  readonly newShareID: () => string;
  private readonly sharesNow: ShareHandOut<AllocationResult[] | null>;
  private readonly sharesLater: ShareHandOut<AllocationResult[] | null | LaterResults> | null;
  private readonly slices: NodeSlices;
  private readonly sliceList: readonly ResourceSlice[];
  private readonly resultCache: AllocationResultCache | null;
  /** The share IDs the running search drew (kept with its answer), or null outside a search. */
  private drawn: string[] | null = null;
  /** Counters left per pool after the allocated devices, computed on first need. */
  private readonly availableCounters = new Map<string, CounterSets>();
  private readonly compatibilityBaselines = new Map<string, Map<string, GroupIntersection>>();
  /** How often the search stepped (numAllocateOneInvocations upstream). */
  numAllocateOneInvocations = 0;
  /** The last claims asked about, with what their answers depend on besides the node. */
  private question: Question | null = null;

  constructor(options: AllocatorOptions) {
    for (const [name, on] of Object.entries(options.features) as [keyof Features, boolean][]) {
      if (on && !SUPPORTED.includes(name)) {
        throw new AllocationError(`internal error: no allocator available for feature set ${featureSetText(options.features)}, enabled allocators: incubating`);
      }
    }
    this.features = options.features;
    this.allocatedState = options.allocatedState;
    this.classLister = options.classLister;
    this.celCache = options.celCache;
    const newShareID = options.newShareID ?? randomUUID;
    this.newShareID = () => {
      const id = newShareID();
      this.drawn?.push(id);
      return id;
    };
    this.sharesNow = shareIDsNow(this.newShareID);
    this.sharesLater = options.laterShareIDs !== undefined ? shareIDsLater(options.laterShareIDs) : null;
    this.slices = nodeSlicesOf(options.slices);
    this.sliceList = options.slices;
    this.resultCache = options.resultCache !== undefined && options.allocatedState.watchPools !== undefined && options.allocatedState.dependentHolds !== undefined ? options.resultCache : null;
  }

  /**
   * The allocation of every claim on `node`, in the claims' order, or null when the node
   * cannot satisfy them all. Throws AllocationError (upstream's message) for real errors, and
   * FailedAllocationOnNodeError when only this node is affected (invalid pools). `slot`: a small
   * number the caller gives this node every time (its place in the node list), which finds the
   * node's kept answer without hashing its name; -1 for none.
   */
  allocate(node: Node, claims: readonly ResourceClaim[], slot = -1, keptMissed = false): AllocationResult[] | null {
    const cache = this.resultCache;
    if (cache === null) return new AllocationRun(this, node, claims, this.poolsOf(node)).run();
    const q = this.questionFor(cache, claims);
    // The caller's `kept` just missed with the same question: no second lookup.
    if (keptMissed) return this.search(q, node, slot, claims);
    const kept = q.answers.get(node, slot, this.sliceList, this.features, q.classes, this.allocatedState, this.sharesNow);
    if (kept !== undefined) return kept;
    return this.search(q, node, slot, claims);
  }

  /**
   * The kept answer allocate would give without searching (frozen but for new share IDs, drawn
   * as allocate would draw them), or undefined when it would search.
   */
  kept(node: Node, claims: readonly ResourceClaim[], slot = -1): AllocationResult[] | null | undefined {
    const cache = this.resultCache;
    if (cache === null) return undefined;
    const q = this.questionFor(cache, claims);
    return q.answers.get(node, slot, this.sliceList, this.features, q.classes, this.allocatedState, this.sharesNow);
  }

  /**
   * `kept`, but an answer with shares moves the share-ID source on now and writes its new IDs
   * only when its results are asked for (without `laterShareIDs`, as kept).
   */
  keptLater(node: Node, claims: readonly ResourceClaim[], slot = -1): AllocationResult[] | null | LaterResults | undefined {
    const cache = this.resultCache;
    if (cache === null) return undefined;
    const q = this.questionFor(cache, claims);
    return q.answers.get(node, slot, this.sliceList, this.features, q.classes, this.allocatedState, this.sharesLater ?? this.sharesNow);
  }

  private search(q: Question, node: Node, slot: number, claims: readonly ResourceClaim[]): AllocationResult[] | null {
    const pools = this.poolsOf(node);
    const drawn: string[] = [];
    this.drawn = drawn;
    let results: AllocationResult[] | null;
    try {
      results = new AllocationRun(this, node, claims, pools).run();
    } finally {
      this.drawn = null;
    }
    const shares = drawn.length === 0 ? null : shareDraws(results, drawn);
    // Share IDs the search cannot account for: not kept.
    if (drawn.length === 0 || shares !== null) {
      q.answers.set({ node, slot, slices: this.sliceList, features: this.features, pools, allocatedState: this.allocatedState, classes: q.classes }, results, shares);
    }
    return results;
  }

  private poolsOf(node: Node): readonly Pool[] {
    try {
      return poolsForNode(this.slices, node, this.features);
    } catch (err) {
      if (err instanceof AllocationError) throw new AllocationError(`gather pool information: ${err.message}`);
      throw err;
    }
  }

  /** The question the claims ask, worked out once per allocator (one pod) while they are the same objects. */
  private questionFor(cache: AllocationResultCache, claims: readonly ResourceClaim[]): Question {
    const q = this.question;
    if (q !== null && sameItems(q.claims, claims)) return q;
    const answers = cache.answers(claimsKey(claims));
    this.question = { claims: [...claims], classes: answers.sameClasses(this.classesOf(claims)), answers };
    return this.question;
  }

  /** The classes the claims' requests name, in order (an answer holds only while they are the same objects). */
  private classesOf(claims: readonly ResourceClaim[]): (DeviceClass | undefined)[] {
    const out: (DeviceClass | undefined)[] = [];
    for (const claim of claims) {
      for (const request of claim.spec.devices?.requests ?? []) {
        if (request.exactly) out.push(this.classLister(request.exactly.deviceClassName));
        for (const sub of request.firstAvailable ?? []) out.push(this.classLister(sub.deviceClassName));
      }
    }
    return out;
  }

  /** The pool's counters minus what allocated devices consume (cached per pool). */
  countersAvailable(pool: Pool): CounterSets {
    let available = this.availableCounters.get(pool.id);
    if (available) return available;
    available = new Map();
    for (const [name, set] of pool.counterSets) {
      const counters = new Map<string, bigint>();
      for (const [counter, value] of Object.entries(set.counters ?? {})) counters.set(counter, parseQuantity(value.value).nanoValue());
      available.set(name, counters);
    }
    for (const slices of [pool.deviceSlicesTargetingNode, pool.deviceSlicesNotTargetingNode]) {
      for (const slice of slices) {
        for (const device of slice.spec.devices ?? []) {
          if (!isDeviceAllocated(makeDeviceID(slice.spec.driver, slice.spec.pool.name, device.name), this.allocatedState)) continue;
          for (const consumption of device.consumesCounters ?? []) {
            const counters = available.get(consumption.counterSet);
            if (!counters) continue;
            for (const [counter, value] of Object.entries(consumption.counters ?? {})) {
              const left = counters.get(counter);
              // Counters the set does not define were refused by validation; going negative is fine.
              if (left !== undefined) counters.set(counter, left - parseQuantity(value.value).nanoValue());
            }
          }
        }
      }
    }
    this.availableCounters.set(pool.id, available);
    return available;
  }

  /** Per counter set of the pool, the groups of its allocated devices (cached per pool, as the counters). */
  groupsBaseline(pool: Pool): ReadonlyMap<string, GroupIntersection> {
    let baseline = this.compatibilityBaselines.get(pool.id);
    if (!baseline) {
      baseline = allocatedBaseline([pool.deviceSlicesTargetingNode, pool.deviceSlicesNotTargetingNode], (slice, device) =>
        isDeviceAllocated(makeDeviceID(slice.spec.driver, slice.spec.pool.name, device.name), this.allocatedState));
      this.compatibilityBaselines.set(pool.id, baseline);
    }
    return baseline;
  }
}

/** Per request or subrequest: what to allocate and the devices already judged for it. */
interface RequestData {
  readonly request: RequestView;
  /** The request holding this subrequest, or null. */
  readonly parent: RequestView | null;
  readonly className: string;
  readonly deviceClass: DeviceClass;
  numDevices: number;
  /** For subrequests: the index that got picked, kept on subrequest 0. */
  selectedSubRequestIndex: number;
  /** The devices of an All request, fixed up front. */
  allDevices: DeviceCandidate[];
  /** Selector verdicts per device: they do not depend on what is allocated. */
  readonly matches: Map<Device, boolean>;
  /** The class's and the request's compiled selectors, filled in as the search reaches them. */
  readonly classPrograms: (CompilationResult | undefined)[];
  readonly requestPrograms: (CompilationResult | undefined)[];
}

interface DeviceCandidate {
  readonly device: Device;
  readonly id: DeviceID;
  readonly slice: ResourceSlice;
  readonly pool: Pool;
}

interface DeviceResult {
  readonly request: string;
  readonly parentRequest: string;
  readonly candidate: DeviceCandidate;
  readonly shareID: string | undefined;
  readonly consumedCapacity: Map<string, Amount> | undefined;
  readonly adminAccess: boolean | undefined;
  readonly tolerations: readonly DeviceToleration[] | undefined;
}

/** What allocateDevice changed, so a rejection or a backtrack can undo exactly that. */
interface Rollback {
  countersReserved: boolean;
  constraintsAdded: number;
  deviceMarked: boolean;
  capacityInserted: boolean;
  capacityEntryExisted: boolean;
  resultAdded: boolean;
  previousNumResults: number;
  consumedCapacity: Map<string, bigint> | undefined;
  /** Undoes the device's fold into its counter sets' compatibility groups. */
  groupsRestore: (() => void) | null;
}

/** A search step that must unwind (errAllocationResultMaxSizeExceeded upstream). */
const MAX_SIZE_EXCEEDED = Symbol('allocation max size exceeded');
type StepResult = boolean | typeof MAX_SIZE_EXCEEDED;

/** One Allocate call: the search state for one node and one set of claims. */
class AllocationRun {
  private readonly requestData: RequestData[][][] = [];
  private readonly constraints: Constraint[][] = [];
  private readonly results: DeviceResult[][] = [];
  /** Devices being allocated in this run, with the claims (by index) they go to. */
  private readonly allocatingDevices = new Map<DeviceID, Set<number>>();
  /** Capacity being consumed in this run per multi-allocation device. */
  private readonly allocatingCapacity = new Map<DeviceID, ConsumedCapacity>();
  /** Counters consumed in this run, per pool. */
  private readonly consumedCounters = new Map<string, CounterSets>();
  /** Per pool and counter set, the groups of the devices placed so far (allocated ones, then this run's). */
  private readonly consumedGroups = new Map<string, Map<string, GroupIntersection>>();

  /**
   * The allocated devices as plain sets, read at the first device judged (not before: a stale
   * view builds its sets then) and kept for the run, which changes nothing while it searches.
   */
  private allocated: ReadonlySet<DeviceID> | null = null;
  private allocatedInFlight: ReadonlySet<DeviceID> | null = null;

  constructor(
    private readonly alloc: Allocator,
    private readonly node: Node,
    private readonly claims: readonly ResourceClaim[],
    private readonly pools: readonly Pool[],
  ) {}

  run(): AllocationResult[] | null {
    const features = this.alloc.features;
    for (let claimIndex = 0; claimIndex < this.claims.length; claimIndex++) {
      const claim = this.claims[claimIndex]!;
      const requests = claim.spec.devices?.requests ?? [];
      let minDevicesPerClaim = 0;
      const perRequest: RequestData[][] = [];
      for (let requestIndex = 0; requestIndex < requests.length; requestIndex++) {
        const request = requests[requestIndex]!;
        const subRequests = request.firstAvailable ?? [];
        const hasSubRequests = subRequests.length > 0;
        if (!features.prioritizedList && hasSubRequests) {
          throw new AllocationError(`claim ${objectKey(claim)}, request ${request.name}: has subrequests, but the DRAPrioritizedList feature is disabled`);
        }
        if (!features.consumableCapacity) {
          if (request.exactly?.capacity) {
            throw new AllocationError(`claim ${objectKey(claim)}, request ${request.name}: has capacity requests, but the DRAConsumableCapacity feature is disabled`);
          }
          for (const sub of subRequests) {
            if (sub.capacity) throw new AllocationError(`claim ${objectKey(claim)}, subrequest ${sub.name}: has capacity requests, but the DRAConsumableCapacity feature is disabled`);
          }
        }
        const entries: RequestData[] = [];
        let minDevicesPerRequest: number;
        if (hasSubRequests) {
          minDevicesPerRequest = Number.MAX_SAFE_INTEGER;
          const parent = exactRequestView(request);
          for (const sub of subRequests) {
            const data = this.validateDeviceRequest(claim, subRequestView(sub), parent);
            entries.push(data);
            minDevicesPerRequest = Math.min(minDevicesPerRequest, data.numDevices);
          }
        } else {
          const data = this.validateDeviceRequest(claim, exactRequestView(request), null);
          entries.push(data);
          minDevicesPerRequest = data.numDevices;
        }
        if (minDevicesPerRequest > AllocationResultsMaxSize - minDevicesPerClaim) {
          throw new AllocationError(
            `claim ${objectKey(claim)}, request ${request.name}: adding ${minDevicesPerRequest} devices exceeds the claim limit of ${AllocationResultsMaxSize}, with ${minDevicesPerClaim} already accounted for`,
          );
        }
        minDevicesPerClaim += minDevicesPerRequest;
        perRequest.push(entries);
      }
      this.requestData.push(perRequest);
      this.results.push([]);
      const constraints: Constraint[] = [];
      const specConstraints = claim.spec.devices?.constraints ?? [];
      for (let i = 0; i < specConstraints.length; i++) {
        const c = specConstraints[i]!;
        if (c.matchAttribute) constraints.push(new MatchAttributeConstraint(c, c.matchAttribute, features.listTypeAttributes));
        else if (c.distinctAttribute) constraints.push(new DistinctAttributeConstraint(c, c.distinctAttribute, features.listTypeAttributes));
        else throw new AllocationError(`claim ${objectKey(claim)}, constraint #${i}: empty constraint (unsupported constraint type?)`);
      }
      this.constraints.push(constraints);
    }

    const done = this.allocateOne(0, 0, 0, 0, false, 0, 0, 0);
    if (done !== true) {
      for (const pool of this.pools) {
        // Only this node is affected: other nodes may still see valid pools.
        if (pool.isInvalid) throw new FailedAllocationOnNodeError('invalid resource pools were encountered');
      }
      return null;
    }
    return this.claims.map((claim, claimIndex) => this.allocationResult(claim, claimIndex));
  }

  private validateDeviceRequest(claim: ResourceClaim, request: RequestView, parent: RequestView | null): RequestData {
    const features = this.alloc.features;
    const where = `claim ${objectKey(claim)}, request ${request.name}`;
    if (request.derivedAttributes.length > 0) {
      throw new AllocationError(`${where}: cannot handle request with derived attributes, the feature is disabled`);
    }
    request.selectors.forEach((selector, i) => {
      if (!selector.cel) throw new AllocationError(`${where}, selector #${i}: CEL expression empty (unsupported selector type?)`);
    });
    if (!features.adminAccess && request.hasAdminAccess) {
      throw new AllocationError(`${where}: admin access is requested, but the feature is disabled`);
    }
    if (request.deviceClassName === '') throw new AllocationError(`${where}: missing device class name (unsupported request type?)`);
    const deviceClass = this.alloc.classLister(request.deviceClassName);
    if (!deviceClass) {
      throw new AllocationError(
        `${where}: could not retrieve device class ${request.deviceClassName}: deviceclass.resource.k8s.io "${request.deviceClassName}" not found`,
      );
    }
    const data: RequestData = {
      request,
      parent,
      className: request.deviceClassName,
      deviceClass,
      numDevices: 0,
      selectedSubRequestIndex: 0,
      allDevices: [],
      matches: new Map(),
      classPrograms: [],
      requestPrograms: [],
    };
    if (request.allocationMode === 'ExactCount') {
      data.numDevices = request.count;
      return data;
    }
    if (request.allocationMode !== 'All') throw new AllocationError(`${where}: unsupported count mode ${request.allocationMode}`);
    for (const pool of this.pools) {
      if (pool.isIncomplete) throw new AllocationError(`${where}: asks for all devices, but resource pool ${pool.id} is currently being updated`);
      if (pool.isInvalid) throw new AllocationError(`${where}: asks for all devices, but resource pool ${pool.id} is currently invalid`);
      for (const slice of pool.deviceSlicesTargetingNode) {
        const devices = slice.spec.devices ?? [];
        const ids = deviceIDsOf(slice);
        for (let i = 0; i < devices.length; i++) {
          const device = devices[i]!;
          if (!this.isSelectable(claim, data, slice, device, ids[i]!)) continue;
          const candidate: DeviceCandidate = { device, id: ids[i]!, slice, pool };
          // Only the static capacity here: what is left is checked when allocating, so a
          // device blocked by other shares stays in the set and All fails.
          if (features.consumableCapacity && !this.fitsCapacity(claim, request, candidate, new Map(), undefined, `checking capacity for device ${device.name}`)) continue;
          data.allDevices.push(candidate);
        }
      }
    }
    data.numDevices = data.allDevices.length;
    return data;
  }

  /**
   * allocateOne: finds a device for device `deviceIndex` of the (sub)request and recurses to
   * the next; true when every claim is done. The start location (pool, slice, device) keeps
   * the devices of one request in pool order, so each combination is tried once.
   */
  private allocateOne(
    claimIndex: number,
    requestIndex: number,
    subRequestIndex: number,
    deviceIndex: number,
    allocateSubRequest: boolean,
    startPool: number,
    startSlice: number,
    startDevice: number,
  ): StepResult {
    this.alloc.numAllocateOneInvocations++;
    if (claimIndex >= this.claims.length) return true;
    const claim = this.claims[claimIndex]!;
    const perRequest = this.requestData[claimIndex]!;
    if (requestIndex >= perRequest.length) {
      const next = this.allocateOne(claimIndex + 1, 0, 0, 0, false, 0, 0, 0);
      // Not propagated: a different allocation of this claim's subrequests may use fewer devices.
      return next === MAX_SIZE_EXCEEDED ? false : next;
    }
    const entries = perRequest[requestIndex]!;
    const data = entries[subRequestIndex]!;

    if (!allocateSubRequest && data.parent !== null) {
      let allExceeded = true;
      for (let sub = 0; sub < entries.length; sub++) {
        const result = this.allocateOne(claimIndex, requestIndex, sub, deviceIndex, true, 0, 0, 0);
        if (result === MAX_SIZE_EXCEEDED) continue;
        allExceeded = false;
        if (result) {
          entries[0]!.selectedSubRequestIndex = sub;
          return true;
        }
      }
      return allExceeded ? MAX_SIZE_EXCEEDED : false;
    }

    const request = data.request;
    const doAllDevices = request.allocationMode === 'All';
    if (doAllDevices && data.allDevices.length === 0) return false;

    if (deviceIndex >= data.numDevices) {
      return this.allocateOne(claimIndex, requestIndex + 1, 0, 0, false, 0, 0, 0);
    }
    const remaining = data.numDevices - deviceIndex;
    const available = AllocationResultsMaxSize - this.results[claimIndex]!.length;
    if (remaining > available) return MAX_SIZE_EXCEEDED;

    if (doAllDevices) {
      const candidate = data.allDevices[deviceIndex]!;
      const rollback = this.allocateDevice(claimIndex, data, candidate, true);
      // All devices or none: the order does not matter, so no other candidate is tried.
      if (rollback === null) return false;
      const done = this.allocateOne(claimIndex, requestIndex, subRequestIndex, deviceIndex + 1, allocateSubRequest, 0, 0, 0);
      if (done !== true) this.rollbackDevice(claimIndex, data, candidate, rollback);
      return done;
    }

    for (let poolIndex = startPool; poolIndex < this.pools.length; poolIndex++) {
      const pool = this.pools[poolIndex]!;
      // Devices of invalid or incomplete pools are never used; other pools may still do.
      if (pool.isIncomplete || pool.isInvalid) continue;
      const slices = pool.deviceSlicesTargetingNode;
      for (let sliceIndex = poolIndex === startPool ? startSlice : 0; sliceIndex < slices.length; sliceIndex++) {
        const slice = slices[sliceIndex]!;
        const devices = slice.spec.devices ?? [];
        const ids = deviceIDsOf(slice);
        const firstDevice = poolIndex === startPool && sliceIndex === startSlice ? startDevice : 0;
        for (let i = firstDevice; i < devices.length; i++) {
          const device = devices[i]!;
          const id = ids[i]!;
          // Checking "in use" is cheap, so it comes first.
          if (request.adminAccess ? this.allocatingDeviceForClaim(id, claimIndex) : this.deviceInUse(id)) continue;
          if (!this.isSelectable(claim, data, slice, device, id)) continue;
          const candidate: DeviceCandidate = { device, id, slice, pool };
          if (this.alloc.features.consumableCapacity && !this.fitsRemainingCapacity(claim, request, candidate, `checking capacity for device ${id}`)) continue;
          const rollback = this.allocateDevice(claimIndex, data, candidate, false);
          if (rollback === null) continue;
          const done = this.allocateOne(claimIndex, requestIndex, subRequestIndex, deviceIndex + 1, allocateSubRequest, poolIndex, sliceIndex, i + 1);
          if (done === true) return true;
          this.rollbackDevice(claimIndex, data, candidate, rollback);
          if (done === MAX_SIZE_EXCEEDED) return done;
        }
      }
    }
    return false;
  }

  /** isSelectable: the class's and the request's selectors, and per-device node selection. */
  private isSelectable(claim: ResourceClaim, data: RequestData, slice: ResourceSlice, device: Device, id: DeviceID): boolean {
    if (!this.alloc.features.deviceBindingAndStatus && (device.bindingConditions?.length ?? 0) > 0) return false;
    const cached = data.matches.get(device);
    if (cached !== undefined) return cached;
    const matches =
      this.selectorsMatch(claim, slice, device, id, data.deviceClass, data.deviceClass.spec.selectors ?? [], data.classPrograms) &&
      this.selectorsMatch(claim, slice, device, id, null, data.request.selectors, data.requestPrograms) &&
      (!slice.spec.perDeviceNodeSelection || nodeMatches(this.node, device.nodeName, device.allNodes, device.nodeSelector));
    data.matches.set(device, matches);
    return matches;
  }

  /**
   * selectorsMatch: every selector in order, compiled when first reached (so a bad selector
   * behind one that already refuses every device is never reported, as upstream).
   */
  private selectorsMatch(
    claim: ResourceClaim,
    slice: ResourceSlice,
    device: Device,
    id: DeviceID,
    deviceClass: DeviceClass | null,
    selectors: readonly DeviceSelector[],
    programs: (CompilationResult | undefined)[],
  ): boolean {
    for (let i = 0; i < selectors.length; i++) {
      let expr = programs[i];
      if (expr === undefined) {
        expr = this.alloc.celCache.getOrCompile(selectors[i]!.cel!.expression);
        if (expr.error) throw new AllocationError(`${selectorOwner(claim, deviceClass)}: selector #${i}: CEL compile error: ${expr.error.detail}`);
        programs[i] = expr;
      }
      let matches: boolean;
      try {
        matches = deviceMatches(expr, device, slice.spec.driver);
      } catch (err) {
        if (!(err instanceof CelEvaluationError)) throw err;
        throw new AllocationError(`${selectorOwner(claim, deviceClass)}: selector #${i} on device ${id}: CEL runtime error: ${enhanceRuntimeError(err.message)}`);
      }
      if (!matches) return false;
    }
    return true;
  }

  /** CmpRequestOverCapacity against what is allocated and being allocated. */
  private fitsRemainingCapacity(claim: ResourceClaim, request: RequestView, candidate: DeviceCandidate, what: string): boolean {
    const allocated = this.alloc.allocatedState.aggregatedCapacity.get(candidate.id);
    const allocating = this.allocatingCapacity.get(candidate.id);
    if (allocated === undefined && allocating === undefined && request.capacity === undefined) {
      const cache = unclaimedCapacityFits[this.alloc.features.fractionalCapacityRange ? 1 : 0];
      let fits = cache.get(candidate.device);
      if (fits === undefined) {
        fits = this.fitsCapacity(claim, request, candidate, noConsumption, undefined, what);
        cache.set(candidate.device, fits);
      }
      return fits;
    }
    return this.fitsCapacity(claim, request, candidate, allocated ?? noConsumption, allocating, what);
  }

  /** `what` names the check in an error, in upstream's words. */
  private fitsCapacity(claim: ResourceClaim, request: RequestView, candidate: DeviceCandidate, allocated: ConsumedCapacity, allocating: ConsumedCapacity | undefined, what: string): boolean {
    try {
      return requestFitsCapacity(allocated, request.capacity, candidate.device.capacity, allocating, this.alloc.features.fractionalCapacityRange);
    } catch (err) {
      if (!(err instanceof CapacityError)) throw err;
      throw new AllocationError(`claim ${objectKey(claim)}, request ${request.name}: ${what}: ${err.message}`);
    }
  }

  /**
   * allocateDevice: takes the candidate if it is free, tolerated, fits the constraints and the
   * counters; returns what to undo, or null (nothing changed) when it cannot be taken.
   */
  private allocateDevice(claimIndex: number, data: RequestData, candidate: DeviceCandidate, must: boolean): Rollback | null {
    const features = this.alloc.features;
    const claim = this.claims[claimIndex]!;
    const request = data.request;
    const device = candidate.device;
    const allowMultiple = features.consumableCapacity && device.allowMultipleAllocations === true;
    if (!allowMultiple && request.adminAccess && this.allocatingDeviceForClaim(candidate.id, claimIndex)) return null;
    if (!request.adminAccess && this.deviceInUse(candidate.id)) return null;
    // Upstream's experimental implementation (the one DRAListTypeAttributes selects) refuses
    // devices that skip node operations unless DRAOptionalNodeOperations is on, which we lack.
    if ((features.listTypeAttributes || features.compatibilityGroups) && (candidate.slice.spec.skipNodeOperations?.length ?? 0) > 0) return null;
    const consumesCounters = (device.consumesCounters?.length ?? 0) > 0;
    if (!features.partitionableDevices && consumesCounters) return null;

    // A further share of a multi-allocation device in use does not charge its counters again.
    const skipCounterCheck = allowMultiple && this.deviceCapacityInUse(candidate.id);
    const state: Rollback = {
      countersReserved: false,
      constraintsAdded: 0,
      deviceMarked: false,
      capacityInserted: false,
      capacityEntryExisted: false,
      resultAdded: false,
      previousNumResults: this.results[claimIndex]!.length,
      consumedCapacity: undefined,
      groupsRestore: null,
    };
    // Checked before the counters, as upstream, and like them not again for a further share.
    if (features.compatibilityGroups && !skipCounterCheck && consumesCounters) {
      state.groupsRestore = this.consumeGroups(candidate);
      if (state.groupsRestore === null) return null;
    }
    if (!skipCounterCheck && consumesCounters) {
      if (!this.reserveCounters(candidate)) {
        state.groupsRestore?.();
        return null;
      }
      state.countersReserved = true;
    }
    const baseRequestName = data.parent ? data.parent.name : request.name;
    const subRequestName = data.parent ? request.name : '';

    if (features.deviceTaints && taintPreventsAllocation(device, request.tolerations)) {
      this.rollbackDevice(claimIndex, data, candidate, state);
      return null;
    }
    for (const constraint of this.constraints[claimIndex]!) {
      if (!constraint.add(baseRequestName, subRequestName, device, candidate.slice.spec.driver)) {
        this.rollbackDevice(claimIndex, data, candidate, state);
        // A claim whose constraint keeps it from getting all of its devices is an error.
        if (must) throw new AllocationError(`claim ${objectKey(claim)}, request ${request.name}: cannot add device ${candidate.id} because a claim constraint would not be satisfied`);
        return null;
      }
      state.constraintsAdded++;
    }
    if (!allowMultiple) {
      let claimsOfDevice = this.allocatingDevices.get(candidate.id);
      if (!claimsOfDevice) this.allocatingDevices.set(candidate.id, (claimsOfDevice = new Set()));
      claimsOfDevice.add(claimIndex);
      state.deviceMarked = true;
    }
    let shareID: string | undefined;
    let consumed: Map<string, Amount> | undefined;
    if (features.consumableCapacity) {
      let fits: boolean;
      try {
        fits = this.fitsRemainingCapacity(claim, request, candidate, `rechecking capacity for device ${candidate.id}`);
      } catch (err) {
        this.rollbackDevice(claimIndex, data, candidate, state);
        throw err;
      }
      if (!fits) {
        this.rollbackDevice(claimIndex, data, candidate, state);
        return null;
      }
      if (allowMultiple) {
        try {
          consumed = consumedCapacityFromRequest(request.capacity, device.capacity, features.fractionalCapacityRange);
        } catch (err) {
          this.rollbackDevice(claimIndex, data, candidate, state);
          if (!(err instanceof CapacityError)) throw err;
          throw new AllocationError(`claim ${objectKey(claim)}, request ${request.name}: computing consumed capacity for device ${candidate.id}: ${err.message}`);
        }
        shareID = this.alloc.newShareID();
        const nanos = new Map<string, bigint>();
        for (const [name, amount] of consumed) nanos.set(name, amount.nanos);
        state.capacityEntryExisted = this.allocatingCapacity.has(candidate.id);
        const entry = this.allocatingCapacity.get(candidate.id);
        if (entry) for (const [name, v] of nanos) entry.set(name, (entry.get(name) ?? 0n) + v);
        else this.allocatingCapacity.set(candidate.id, new Map(nanos));
        state.capacityInserted = true;
        state.consumedCapacity = nanos;
      }
    }
    this.results[claimIndex]!.push({
      request: request.name,
      parentRequest: data.parent ? data.parent.name : '',
      candidate,
      shareID,
      consumedCapacity: consumed && consumed.size > 0 ? consumed : undefined,
      adminAccess: request.adminAccess ? true : undefined,
      tolerations: request.tolerations,
    });
    state.resultAdded = true;
    return state;
  }

  /** rollbackDevice: undoes allocateDevice's changes in reverse order. */
  private rollbackDevice(claimIndex: number, data: RequestData, candidate: DeviceCandidate, state: Rollback): void {
    if (state.resultAdded) this.results[claimIndex]!.length = state.previousNumResults;
    if (state.capacityInserted) {
      const entry = this.allocatingCapacity.get(candidate.id);
      if (entry) {
        for (const [name, v] of state.consumedCapacity!) {
          const cur = entry.get(name);
          if (cur !== undefined) entry.set(name, cur - v);
        }
        let empty = true;
        for (const v of entry.values()) if (v !== 0n) empty = false;
        // An emptied entry goes, unless an earlier share still marks the device as shared.
        if (empty) {
          if (state.capacityEntryExisted) this.allocatingCapacity.set(candidate.id, new Map());
          else this.allocatingCapacity.delete(candidate.id);
        }
      }
    }
    if (state.deviceMarked) this.allocatingDevices.get(candidate.id)?.delete(claimIndex);
    const constraints = this.constraints[claimIndex]!;
    const baseRequestName = data.parent ? data.parent.name : data.request.name;
    const subRequestName = data.parent ? data.request.name : '';
    for (let i = state.constraintsAdded - 1; i >= 0; i--) constraints[i]!.remove(baseRequestName, subRequestName);
    if (state.countersReserved) this.releaseCounters(candidate);
    state.groupsRestore?.();
  }

  /**
   * Folds the device's groups into each counter set it draws from, when every one admits them;
   * returns the undo, or null (nothing changed) when one does not.
   */
  private consumeGroups(candidate: DeviceCandidate): (() => void) | null {
    const pool = candidate.pool;
    let running = this.consumedGroups.get(pool.id);
    if (!running) this.consumedGroups.set(pool.id, (running = new Map()));
    const baseline = this.alloc.groupsBaseline(pool);
    const saved: { counterSet: string; prev: GroupIntersection | undefined }[] = [];
    const set = running;
    const restore = (): void => {
      for (let i = saved.length - 1; i >= 0; i--) {
        const { counterSet, prev } = saved[i]!;
        if (prev === undefined) set.delete(counterSet);
        else set.set(counterSet, prev);
      }
    };
    for (const c of candidate.device.consumesCounters ?? []) {
      const prev = set.get(c.counterSet);
      const current = prev ?? baseline.get(c.counterSet) ?? NO_MEMBERS;
      if (!admits(current, c.compatibilityGroups)) {
        restore();
        return null;
      }
      saved.push({ counterSet: c.counterSet, prev });
      set.set(c.counterSet, withDevice(current, c.compatibilityGroups));
    }
    return restore;
  }

  /** checkAvailableCounters: adds the device's consumption and keeps it if every counter holds. */
  private reserveCounters(candidate: DeviceCandidate): boolean {
    const pool = candidate.pool;
    const available = this.alloc.countersAvailable(pool);
    let consumed = this.consumedCounters.get(pool.id);
    if (!consumed) this.consumedCounters.set(pool.id, (consumed = new Map()));
    for (const consumption of candidate.device.consumesCounters ?? []) {
      let set = consumed.get(consumption.counterSet);
      if (!set) consumed.set(consumption.counterSet, (set = new Map()));
      for (const [name, value] of Object.entries(consumption.counters ?? {})) set.set(name, (set.get(name) ?? 0n) + parseQuantity(value.value).nanoValue());
    }
    for (const [setName, counters] of available) {
      const used = consumed.get(setName);
      for (const [name, left] of counters) {
        if (left < (used?.get(name) ?? 0n)) {
          this.releaseCounters(candidate);
          return false;
        }
      }
    }
    return true;
  }

  private releaseCounters(candidate: DeviceCandidate): void {
    const consumed = this.consumedCounters.get(candidate.pool.id);
    if (!consumed) return;
    for (const consumption of candidate.device.consumesCounters ?? []) {
      const set = consumed.get(consumption.counterSet);
      if (!set) continue;
      for (const [name, value] of Object.entries(consumption.counters ?? {})) set.set(name, (set.get(name) ?? 0n) - parseQuantity(value.value).nanoValue());
    }
  }

  private deviceInUse(id: DeviceID): boolean {
    let allocated = this.allocated;
    if (allocated === null) {
      const state = this.alloc.allocatedState;
      const sets = state.allocatedDeviceSets?.();
      allocated = this.allocated = sets?.[0] ?? state.allocatedDevices;
      this.allocatedInFlight = sets !== undefined && sets[1].size > 0 ? sets[1] : null;
    }
    if (allocated.has(id) || (this.allocatedInFlight !== null && this.allocatedInFlight.has(id))) return true;
    // Most runs allocate nothing before a device is judged: skip the lookup then.
    return this.allocatingDevices.size > 0 && (this.allocatingDevices.get(id)?.size ?? 0) > 0;
  }

  private allocatingDeviceForClaim(id: DeviceID, claimIndex: number): boolean {
    return this.allocatingDevices.get(id)?.has(claimIndex) ?? false;
  }

  /** deviceCapacityInUse: some share of the device is allocated or being allocated. */
  private deviceCapacityInUse(id: DeviceID): boolean {
    const state = this.alloc.allocatedState;
    if (state.aggregatedCapacity.has(id)) return true;
    if (deviceHasShare(state, id)) return true;
    return this.allocatingCapacity.has(id);
  }

  /** The AllocationResult of one claim: devices, config in upstream's order, node selector. */
  private allocationResult(claim: ResourceClaim, claimIndex: number): AllocationResult {
    const features = this.alloc.features;
    const results: DeviceRequestAllocationResult[] = this.results[claimIndex]!.map((r) => {
      const out: DeviceRequestAllocationResult = {
        request: r.parentRequest ? `${r.parentRequest}/${r.request}` : r.request,
        driver: r.candidate.slice.spec.driver,
        pool: r.candidate.pool.pool,
        device: r.candidate.device.name,
      };
      if (r.adminAccess !== undefined) out.adminAccess = r.adminAccess;
      if (r.tolerations && r.tolerations.length > 0) out.tolerations = r.tolerations.map((t) => ({ ...t }));
      if (features.deviceBindingAndStatus) {
        if (r.candidate.device.bindingConditions?.length) out.bindingConditions = [...r.candidate.device.bindingConditions];
        if (r.candidate.device.bindingFailureConditions?.length) out.bindingFailureConditions = [...r.candidate.device.bindingFailureConditions];
      }
      if (r.shareID !== undefined) out.shareID = r.shareID;
      if (r.consumedCapacity) {
        const consumed: Record<string, string> = {};
        for (const [name, amount] of r.consumedCapacity) consumed[name] = formatAmount(amount);
        out.consumedCapacity = consumed;
      }
      return out;
    });
    const config = this.configFor(claim, claimIndex);
    // Empty lists are left out, as Go's omitempty does.
    const devices: DeviceAllocationResult = {};
    if (results.length > 0) devices.results = results;
    if (config.length > 0) devices.config = config;
    const allocation: AllocationResult = { devices };
    const nodeSelector = this.nodeSelectorFor(claim, claimIndex);
    if (nodeSelector) allocation.nodeSelector = nodeSelector;
    return allocation;
  }

  /** The name a (sub)request is known by in configs and results. */
  private chosenRequest(claimIndex: number, requestIndex: number): RequestData {
    const entries = this.requestData[claimIndex]![requestIndex]!;
    return entries[0]!.parent ? entries[entries[0]!.selectedSubRequestIndex]! : entries[0]!;
  }

  private configFor(claim: ResourceClaim, claimIndex: number): DeviceAllocationConfiguration[] {
    const config: DeviceAllocationConfiguration[] = [];
    const requests = claim.spec.devices?.requests ?? [];
    const nameOf = (data: RequestData): string => (data.parent ? `${data.parent.name}/${data.request.name}` : data.request.name);
    // Each class's config once, naming every request that used the class.
    const classRanges = new Map<string, [number, number]>();
    for (let requestIndex = 0; requestIndex < requests.length; requestIndex++) {
      const data = this.chosenRequest(claimIndex, requestIndex);
      const range = classRanges.get(data.className);
      if (range) {
        for (let i = range[0]; i < range[1]; i++) config[i]!.requests!.push(nameOf(data));
        continue;
      }
      const start = config.length;
      for (const c of data.deviceClass.spec.config ?? []) config.push({ ...c, source: 'FromClass', requests: [nameOf(data)] });
      classRanges.set(data.className, [start, config.length]);
    }
    for (const c of claim.spec.devices?.config ?? []) {
      const { requests: named, ...deviceConfig } = c;
      if (!named || named.length === 0) {
        config.push({ ...deviceConfig, source: 'FromClaim' });
        continue;
      }
      for (let requestIndex = 0; requestIndex < requests.length; requestIndex++) {
        const request = requests[requestIndex]!;
        if (named.includes(request.name)) {
          config.push({ ...deviceConfig, source: 'FromClaim', requests: named });
          break;
        }
        const data = this.chosenRequest(claimIndex, requestIndex);
        if (data.parent && named.includes(nameOf(data))) {
          config.push({ ...deviceConfig, source: 'FromClaim', requests: named });
          break;
        }
      }
    }
    // A config that names every request applies to all: upstream then leaves the list empty.
    for (const c of config) {
      if (!c.requests || c.requests.length === 0) continue;
      let appliesToAll = true;
      for (let requestIndex = 0; requestIndex < requests.length; requestIndex++) {
        if (c.requests.includes(requests[requestIndex]!.name)) continue;
        const data = this.chosenRequest(claimIndex, requestIndex);
        if (data.parent && c.requests.includes(nameOf(data))) continue;
        appliesToAll = false;
        break;
      }
      if (appliesToAll) delete c.requests;
    }
    return config;
  }

  /** createNodeSelector: the node for node-local devices, else the slices' selectors combined. */
  private nodeSelectorFor(claim: ResourceClaim, claimIndex: number): NodeSelector | undefined {
    const matchFields: NodeSelectorRequirement[] = [];
    const matchExpressions: NodeSelectorRequirement[] = [];
    for (const r of this.results[claimIndex]!) {
      const slice = r.candidate.slice;
      const device = r.candidate.device;
      const perDevice = slice.spec.perDeviceNodeSelection === true;
      const nodeName = perDevice ? device.nodeName : slice.spec.nodeName;
      const selector = perDevice ? device.nodeSelector : slice.spec.nodeSelector;
      if (nodeName || device.bindsToNode) {
        return { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [this.node.metadata.name ?? ''] }] }] };
      }
      if (!selector) continue;
      const terms = selector.nodeSelectorTerms ?? [];
      if (terms.length > 1) {
        throw new AllocationError(`create NodeSelector for claim ${claim.metadata.name}: unsupported ResourceSlice.NodeSelector with ${terms.length} terms`);
      }
      if (terms.length === 1) {
        addNewRequirements(terms[0]?.matchFields ?? [], matchFields);
        addNewRequirements(terms[0]?.matchExpressions ?? [], matchExpressions);
      }
    }
    if (matchFields.length === 0 && matchExpressions.length === 0) return undefined;
    const term: { matchFields?: NodeSelectorRequirement[]; matchExpressions?: NodeSelectorRequirement[] } = {};
    if (matchExpressions.length > 0) term.matchExpressions = matchExpressions;
    if (matchFields.length > 0) term.matchFields = matchFields;
    return { nodeSelectorTerms: [term] };
  }
}

function addNewRequirements(from: readonly NodeSelectorRequirement[], to: NodeSelectorRequirement[]): void {
  for (const requirement of from) {
    const values = new Set(requirement.values ?? []);
    const present = to.some(
      (r) => r.key === requirement.key && r.operator === requirement.operator && (r.values ?? []).length === values.size && (r.values ?? []).every((v) => values.has(v)),
    );
    if (!present) to.push(requirement);
  }
}

/** A NoSchedule or NoExecute taint the request does not tolerate keeps the device from it. */
function taintPreventsAllocation(device: Device, tolerations: readonly DeviceToleration[] | undefined): boolean {
  for (const taint of device.taints ?? []) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (!(tolerations ?? []).some((t) => toleratesTaint(t, taint))) return true;
  }
  return false;
}

