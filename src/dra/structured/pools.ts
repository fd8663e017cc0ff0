// Gathering the resource pools visible from one node: node matching, generations, slice counts,
// invalid and incomplete pools (structured/internal/incubating/pools_incubating.go at v0.37.2).
import type { Node, NodeSelector } from '../../api/types.js';
import type { CounterSet, ResourceSlice } from '../../api/dra_types.js';
import { NodeSelectorMatcher } from '../../api/nodeselector.js';
import { AllocationError, type Features } from './types.js';

interface PoolID {
  readonly driver: string;
  readonly pool: string;
}

/** One pool as the allocator sees it from a node. */
export interface Pool {
  readonly driver: string;
  readonly pool: string;
  /** `driver/pool`, as upstream prints a PoolID. */
  readonly id: string;
  readonly isIncomplete: boolean;
  readonly isInvalid: boolean;
  readonly invalidReason: string;
  /** The newest generation's slices with devices for the node, sorted by name. */
  readonly deviceSlicesTargetingNode: readonly ResourceSlice[];
  /** The pool's other slices of that generation (their devices consume shared counters too). */
  readonly deviceSlicesNotTargetingNode: readonly ResourceSlice[];
  readonly counterSets: ReadonlyMap<string, CounterSet>;
  /** Some device for the node has binding conditions: such pools are tried last. */
  readonly hasBindingConditions: boolean;
}

const matcherCache = new WeakMap<NodeSelector, NodeSelectorMatcher>();

function matcherFor(selector: NodeSelector): NodeSelectorMatcher {
  let m = matcherCache.get(selector);
  if (!m) matcherCache.set(selector, (m = new NodeSelectorMatcher(selector.nodeSelectorTerms ?? [])));
  return m;
}

/**
 * NodeMatches: whether a slice or device with these node fields is available on `node`
 * (nodeName, allNodes, nodeSelector, in that order). Throws AllocationError for a node
 * selector that cannot be parsed.
 */
export function nodeMatches(node: Node | undefined, nodeName: string | undefined, allNodes: boolean | undefined, nodeSelector: NodeSelector | undefined): boolean {
  if (nodeName) return node !== undefined && node.metadata.name === nodeName;
  if (allNodes) return true;
  if (nodeSelector) {
    const matcher = matcherFor(nodeSelector);
    if (matcher.error !== null) throw new AllocationError(`failed to parse node selector ${JSON.stringify(nodeSelector)}: ${matcher.error}`);
    return node !== undefined && matcher.matches(node);
  }
  return false;
}

function sliceUsesCompatibilityGroups(slice: ResourceSlice): boolean {
  for (const device of slice.spec.devices ?? []) {
    for (const consumption of device.consumesCounters ?? []) if ((consumption.compatibilityGroups?.length ?? 0) > 0) return true;
  }
  return false;
}

function poolKey(driver: string, pool: string): string {
  return `${driver}/${pool}`;
}

/**
 * GatherPools: the pools with devices for `node`, sorted by driver and pool name, pools with
 * binding conditions last. Only the newest generation of a pool counts; a pool whose slices
 * of that generation are not all published yet is incomplete.
 */
export function gatherPools(slicesForNode: readonly ResourceSlice[], node: Node, features: Features, allSlices: readonly ResourceSlice[]): Pool[] {
  const pools = new Map<string, ResourceSlice[]>();
  for (const slice of slicesForNode) {
    const spec = slice.spec;
    if (!features.partitionableDevices && (spec.perDeviceNodeSelection !== undefined || (spec.sharedCounters?.length ?? 0) > 0)) continue;
    if (!features.compatibilityGroups && sliceUsesCompatibilityGroups(slice)) continue;
    let relevant = false;
    if (spec.nodeName || spec.allNodes || spec.nodeSelector) {
      try {
        relevant = nodeMatches(node, spec.nodeName, spec.allNodes, spec.nodeSelector);
      } catch (err) {
        throw new AllocationError(`failed to perform node selection for slice ${slice.metadata.name}: ${(err as Error).message}`);
      }
    } else if (spec.perDeviceNodeSelection) {
      for (const device of spec.devices ?? []) {
        let match: boolean;
        try {
          match = nodeMatches(node, device.nodeName, device.allNodes, device.nodeSelector);
        } catch (err) {
          throw new AllocationError(`failed to perform node selection for device ${device.name} in slice ${slice.metadata.name}: ${(err as Error).message}`);
        }
        if (match) {
          relevant = true;
          break;
        }
      }
    } else {
      continue;
    }
    if (relevant) addSlice(pools, slice);
  }

  const result: Pool[] = [];
  const withBindingConditions: Pool[] = [];
  for (const slicesForPool of pools.values()) {
    const first = slicesForPool[0]!.spec;
    const id: PoolID = { driver: first.driver, pool: first.pool.name };
    let pool: Pool;
    if (slicesForPool.length === 1 && first.pool.resourceSliceCount === 1) {
      pool = singleSlicePool(slicesForPool[0]!, features);
    } else if (slicesForPool.length === first.pool.resourceSliceCount) {
      pool = buildPool(id, slicesForPool, features, []);
    } else {
      const all = slicesInPool(allSlices, id, first.pool.generation);
      if (all === null) continue; // A newer generation exists elsewhere: this one is obsolete.
      const counted = features.compatibilityGroups ? all : all.filter((s) => !sliceUsesCompatibilityGroups(s));
      if (counted.length !== first.pool.resourceSliceCount) {
        result.push(incompletePool(id));
        continue;
      }
      pool = buildPool(id, slicesForPool, features, counted);
    }
    (pool.hasBindingConditions ? withBindingConditions : result).push(pool);
  }
  sortPoolsByID(result);
  sortPoolsByID(withBindingConditions);
  for (const p of withBindingConditions) result.push(p);
  return result;
}

/**
 * Pools made of one complete slice, the common case, built once per slice object: informers keep
 * a slice object unchanged until the slice changes, so every node and cycle can share the pool.
 */
const singleSlicePools = new WeakMap<ResourceSlice, { features: Features; pool: Pool }>();

function singleSlicePool(slice: ResourceSlice, features: Features): Pool {
  const cached = singleSlicePools.get(slice);
  if (cached && cached.features === features) return cached.pool;
  const pool = buildPool({ driver: slice.spec.driver, pool: slice.spec.pool.name }, [slice], features, []);
  singleSlicePools.set(slice, { features, pool });
  return pool;
}

// Pools are literals with the ID's two keys written out, not `{ ...id, ... }`: a spread given new keys
// makes a hidden class per pool (util/shallow_copy.ts).
function incompletePool(id: PoolID): Pool {
  return { driver: id.driver, pool: id.pool, id: poolKey(id.driver, id.pool), isIncomplete: true, isInvalid: false, invalidReason: '', deviceSlicesTargetingNode: [], deviceSlicesNotTargetingNode: [], counterSets: new Map(), hasBindingConditions: false };
}

function invalidPool(id: PoolID, reason: string): Pool {
  return { driver: id.driver, pool: id.pool, id: poolKey(id.driver, id.pool), isIncomplete: false, isInvalid: true, invalidReason: reason, deviceSlicesTargetingNode: [], deviceSlicesNotTargetingNode: [], counterSets: new Map(), hasBindingConditions: false };
}

function sortPoolsByID(pools: Pool[]): void {
  pools.sort((a, b) => (a.driver < b.driver ? -1 : a.driver > b.driver ? 1 : a.pool < b.pool ? -1 : a.pool > b.pool ? 1 : 0));
}

/** addSlice: keeps only the newest generation seen so far. */
function addSlice(pools: Map<string, ResourceSlice[]>, slice: ResourceSlice): void {
  const key = poolKey(slice.spec.driver, slice.spec.pool.name);
  const existing = pools.get(key);
  if (!existing) {
    pools.set(key, [slice]);
    return;
  }
  const generation = existing[0]!.spec.pool.generation;
  if (slice.spec.pool.generation < generation) return;
  if (slice.spec.pool.generation > generation) {
    pools.set(key, [slice]);
    return;
  }
  existing.push(slice);
}

/** checkSlicesInPool: null when a newer generation exists, else the generation's slices. */
function slicesInPool(slices: readonly ResourceSlice[], id: PoolID, generation: number): ResourceSlice[] | null {
  const out: ResourceSlice[] = [];
  for (const slice of slices) {
    if (slice.spec.driver !== id.driver || slice.spec.pool.name !== id.pool) continue;
    if (slice.spec.pool.generation === generation) out.push(slice);
    else if (slice.spec.pool.generation > generation) return null;
  }
  return out;
}

function byName(a: ResourceSlice, b: ResourceSlice): number {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

function buildPool(id: PoolID, slices: ResourceSlice[], features: Features, allSlicesForPool: readonly ResourceSlice[]): Pool {
  if (slices.length > 1) slices.sort(byName);
  const deviceSlices: ResourceSlice[] = [];
  const counterSetSlices: ResourceSlice[] = [];
  const notTargetingNode: ResourceSlice[] = [];
  const hasCounters = (s: ResourceSlice): boolean => features.partitionableDevices && (s.spec.sharedCounters?.length ?? 0) > 0;
  for (const slice of slices) (hasCounters(slice) ? counterSetSlices : deviceSlices).push(slice);
  if (slices.length < allSlicesForPool.length) {
    const targeting = new Set(slices.map((s) => s.metadata.name));
    for (const slice of allSlicesForPool) {
      if (targeting.has(slice.metadata.name)) continue;
      (hasCounters(slice) ? counterSetSlices : notTargetingNode).push(slice);
    }
  }
  const duplicate = duplicateDeviceName(deviceSlices);
  if (duplicate !== null) return invalidPool(id, `duplicate device name ${duplicate}`);
  if (!features.partitionableDevices) {
    return { driver: id.driver, pool: id.pool, id: poolKey(id.driver, id.pool), isIncomplete: false, isInvalid: false, invalidReason: '', deviceSlicesTargetingNode: deviceSlices, deviceSlicesNotTargetingNode: [], counterSets: new Map(), hasBindingConditions: hasBindingConditions(deviceSlices) };
  }
  const counterSets = new Map<string, CounterSet>();
  for (const slice of counterSetSlices) {
    for (const set of slice.spec.sharedCounters ?? []) {
      if (counterSets.has(set.name)) return invalidPool(id, `duplicate counter set name ${set.name}`);
      counterSets.set(set.name, set);
    }
  }
  const consumptionError = counterConsumptionError(counterSets, deviceSlices) ?? counterConsumptionError(counterSets, notTargetingNode);
  if (consumptionError !== null) return invalidPool(id, consumptionError);
  return { driver: id.driver, pool: id.pool, id: poolKey(id.driver, id.pool), isIncomplete: false, isInvalid: false, invalidReason: '', deviceSlicesTargetingNode: deviceSlices, deviceSlicesNotTargetingNode: notTargetingNode, counterSets, hasBindingConditions: hasBindingConditions(deviceSlices) };
}

function duplicateDeviceName(slices: readonly ResourceSlice[]): string | null {
  const names = new Set<string>();
  for (const slice of slices) {
    for (const device of slice.spec.devices ?? []) {
      if (names.has(device.name)) return device.name;
      names.add(device.name);
    }
  }
  return null;
}

function counterConsumptionError(counterSets: ReadonlyMap<string, CounterSet>, slices: readonly ResourceSlice[]): string | null {
  for (const slice of slices) {
    for (const device of slice.spec.devices ?? []) {
      for (const consumption of device.consumesCounters ?? []) {
        const set = counterSets.get(consumption.counterSet);
        if (!set) return `counter set ${consumption.counterSet} not found`;
        for (const name of Object.keys(consumption.counters ?? {})) {
          if (!set.counters || !Object.hasOwn(set.counters, name)) return `counter ${name} not found in counter set ${set.name}`;
        }
      }
    }
  }
  return null;
}

function hasBindingConditions(deviceSlices: readonly ResourceSlice[]): boolean {
  for (const slice of deviceSlices) {
    for (const device of slice.spec.devices ?? []) if (device.bindingConditions !== undefined) return true;
  }
  return false;
}
