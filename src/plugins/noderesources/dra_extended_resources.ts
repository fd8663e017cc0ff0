// What a node has of an extended resource that devices back, for scoring it
// (framework/plugins/noderesources/resource_allocation.go getDRAPreScoredParams,
// calculateDRAResourceTotals, deviceMatchesClass).
import type { Node, NodeSelector } from '../../api/types.js';
import type { Device, DeviceClass, ResourceSlice } from '../../api/dra_types.js';
import { CelCache, DefaultCelFeatures, DeviceActivation } from '../../api/cel/index.js';
import { isDRAExtendedResourceName } from '../../dra/device_class_resolver.js';
import type { SharedDRAManager } from '../../framework/shared_dra_manager.js';
import { activationOf, isDeviceAllocated, makeDeviceID, nodeMatches, type AllocatedState, type DeviceID, type PoolDependent } from '../../dra/structured/index.js';

/** What PreScore gathers once per pod (draPreScoreState). */
export interface DraScoringState {
  readonly allocatedState: AllocatedState;
  readonly slices: readonly ResourceSlice[];
  /** The slices grouped so that a node looks only at its own and the shared ones. */
  readonly index: SliceIndex;
  /** The last resource's class and kept totals: looked up once per pod, not once per node. */
  last: ClassLookup | null;
}

/** A scored resource's DeviceClass and the totals kept for it by node name. */
interface ClassLookup {
  readonly resourceName: string;
  readonly deviceClass: DeviceClass | undefined;
  byNode: Map<string, KeptTotals> | undefined;
}

/**
 * Slices naming one node and nothing else (the usual per-node slice) by that node; every other
 * slice (all nodes, a node selector, per-device selection, no node) in `shared`, which every node
 * looks at as before. A node's counts are sums, so the grouping does not change them.
 */
interface SliceIndex {
  readonly byNode: ReadonlyMap<string, readonly ResourceSlice[]>;
  readonly shared: readonly ResourceSlice[];
}

/** One index per slice list object (the lister hands out a new list when a slice changes). */
const indexes = new WeakMap<readonly ResourceSlice[], SliceIndex>();

function sliceIndex(slices: readonly ResourceSlice[]): SliceIndex {
  let index = indexes.get(slices);
  if (index !== undefined) return index;
  const byNode = new Map<string, ResourceSlice[]>();
  const shared: ResourceSlice[] = [];
  for (const slice of slices) {
    const spec = slice.spec;
    const nodeName = spec.nodeName ?? '';
    if (spec.perDeviceNodeSelection !== true && spec.allNodes !== true && spec.nodeSelector === undefined && nodeName !== '') {
      let own = byNode.get(nodeName);
      if (own === undefined) byNode.set(nodeName, (own = []));
      own.push(slice);
    } else {
      shared.push(slice);
    }
  }
  index = { byNode, shared };
  indexes.set(slices, index);
  return index;
}

const none: readonly ResourceSlice[] = [];

/** The node's devices of the class backing the resource, and how many of them are allocated. */
export interface DeviceTotals {
  readonly capacity: number;
  readonly allocated: number;
}

/** Past this many entries a match cache starts over (upstream's never shrink). */
const maxCachedMatches = 100_000;

/**
 * A node's devices of one class, kept while the node object and the slice list stay the same;
 * their allocated count is kept too while what is allocated in their pools stays the same (the
 * allocated state marks the entry stale when a pool changes, and a recount makes a new entry).
 * Between two pods only the node that got the last one changes, so the others' counts hold.
 */
class KeptTotals implements PoolDependent {
  stale = false;
  inFlightView = 0;

  constructor(
    readonly node: Node,
    readonly slices: readonly ResourceSlice[],
    /** The IDs of the node's devices of the class (capacity is their number). */
    readonly ids: readonly DeviceID[],
    readonly poolKeys: readonly string[],
    readonly totals: DeviceTotals,
  ) {}
}

/** Past this many nodes a class's kept totals start over. */
const maxKeptNodes = 100_000;

/**
 * Counts devices per node for the resources that DeviceClasses back. Matches are cached by
 * expression and device, and by node and selector, as upstream's DRACaches.
 */
export class DraExtendedResources {
  private readonly celCache = new CelCache(10, DefaultCelFeatures);
  /**
   * Matches per device object and expression: a device is in one slice of one driver and pool,
   * and the lister replaces a slice object when it changes, so the object stands for all three.
   */
  private readonly deviceMatchCache = new WeakMap<Device, Map<string, boolean>>();
  private readonly nodeMatchCache = new Map<string, boolean>();
  /** Kept totals per class object (a changed class is a new object) and node name. */
  private readonly kept = new WeakMap<DeviceClass, Map<string, KeptTotals>>();

  constructor(private readonly manager: SharedDRAManager & { readonly classResolver: NonNullable<SharedDRAManager['classResolver']> }) {}

  /** The claims' and slices' state when one of the scored resources is backed by devices, else null. */
  preScore(resourceNames: readonly string[]): DraScoringState | null {
    const classes = this.manager.classResolver;
    if (!resourceNames.some((name) => isDRAExtendedResourceName(name) && classes.getDeviceClass(name) !== undefined)) return null;
    const slices = this.manager.slices.list();
    return { allocatedState: this.manager.claims.gatherAllocatedState(), slices, index: sliceIndex(slices), last: null };
  }

  /** The node's totals for the resource, or null when no class backs it or the slices cannot be read. */
  totals(node: Node, resourceName: string, state: DraScoringState): DeviceTotals | null {
    let last = state.last;
    if (last === null || last.resourceName !== resourceName) {
      const found = this.manager.classResolver.getDeviceClass(resourceName);
      last = state.last = { resourceName, deviceClass: found, byNode: found === undefined ? undefined : this.kept.get(found) };
    }
    const deviceClass = last.deviceClass;
    if (deviceClass === undefined) return null;
    const nodeName = node.metadata.name ?? '';
    const allocatedState = state.allocatedState;
    let byNode = last.byNode;
    const kept = byNode?.get(nodeName);
    let entry: KeptTotals;
    if (kept !== undefined && kept.node === node && kept.slices === state.slices) {
      if (allocatedState.dependentHolds?.(kept) === true) return kept.totals;
      // Same devices, allocations changed: only the allocated count is redone.
      entry = new KeptTotals(node, state.slices, kept.ids, kept.poolKeys, { capacity: kept.ids.length, allocated: countAllocated(kept.ids, allocatedState) });
    } else {
      const ids: DeviceID[] = [];
      const poolKeys: string[] = [];
      try {
        this.classDevices(node, deviceClass, state, ids, poolKeys);
      } catch {
        // A broken selector or node selector: upstream logs it and leaves the resource out.
        return null;
      }
      entry = new KeptTotals(node, state.slices, ids, poolKeys, { capacity: ids.length, allocated: countAllocated(ids, allocatedState) });
    }
    // Registered for the next pod only when no pool is in flight and this is the newest view;
    // the device list is kept either way (it depends on neither).
    entry.stale = allocatedState.watchPools?.(entry) !== true;
    if (byNode === undefined) this.kept.set(deviceClass, (byNode = last.byNode = new Map()));
    else if (byNode.size >= maxKeptNodes) byNode.clear();
    if (kept !== undefined) kept.stale = true;
    byNode.set(nodeName, entry);
    return entry.totals;
  }

  /** The IDs of the node's devices of the class into ids, the pools they are in into poolKeys. */
  private classDevices(node: Node, deviceClass: DeviceClass, state: DraScoringState, ids: DeviceID[], poolKeys: string[]): void {
    const nodeName = node.metadata.name ?? '';
    const index = state.index;
    const own = index.byNode.get(nodeName) ?? none;
    for (let i = 0; i < own.length + index.shared.length; i++) {
      const slice = i < own.length ? own[i]! : index.shared[i - own.length]!;
      const spec = slice.spec;
      let devices: readonly Device[];
      if (spec.perDeviceNodeSelection === true) {
        const own: Device[] = [];
        for (const d of spec.devices ?? []) {
          const dNodeName = d.nodeName ?? '';
          if (d.allNodes === true || (dNodeName !== '' && dNodeName === nodeName)) own.push(d);
          else if (d.nodeSelector !== undefined && this.nodeMatches(node, dNodeName, false, d.nodeSelector)) own.push(d);
        }
        devices = own;
      } else {
        const sliceNodeName = spec.nodeName ?? '';
        const allNodes = spec.allNodes === true;
        // Upstream's order of checks: a slice naming no node and no selector counts for every node.
        if (!allNodes && sliceNodeName !== nodeName && spec.nodeSelector !== undefined) {
          if (!this.nodeMatches(node, sliceNodeName, allNodes, spec.nodeSelector)) continue;
        } else if (!allNodes && sliceNodeName !== '' && sliceNodeName !== nodeName) {
          continue;
        }
        devices = spec.devices ?? [];
      }
      const driver = spec.driver;
      const pool = spec.pool.name;
      if (devices.length > 0) {
        const key = `${driver}/${pool}`;
        if (!poolKeys.includes(key)) poolKeys.push(key);
      }
      for (const d of devices) {
        if (this.deviceMatchesClass(d, deviceClass, driver)) ids.push(makeDeviceID(driver, pool, d.name));
      }
    }
  }

  private nodeMatches(node: Node, nodeName: string, allNodes: boolean, selector: NodeSelector): boolean {
    const key = `${node.metadata.name ?? ''}|${nodeName}|${allNodes ? 1 : 0}|${JSON.stringify(selector)}`;
    const cached = this.nodeMatchCache.get(key);
    if (cached !== undefined) return cached;
    const matches = nodeMatches(node, nodeName, allNodes, selector);
    remember(this.nodeMatchCache, key, matches);
    return matches;
  }

  /** Every CEL selector of the class matches the device (a class without selectors takes any device). */
  private deviceMatchesClass(device: Device, deviceClass: DeviceClass, driver: string): boolean {
    let activation: DeviceActivation | null = null;
    for (const selector of deviceClass.spec.selectors ?? []) {
      const expression = selector.cel?.expression;
      if (expression === undefined) continue;
      let byExpression = this.deviceMatchCache.get(device);
      const cached = byExpression?.get(expression);
      if (cached !== undefined) {
        if (!cached) return false;
        continue;
      }
      const compiled = this.celCache.getOrCompile(expression);
      if (compiled.error !== null) throw new Error(compiled.error.detail);
      // Upstream's activation here has allowMultipleAllocations false: the allocator's (built
      // once per device object) is the same one unless the device sets it.
      activation ??= device.allowMultipleAllocations === true ? new DeviceActivation({ driver, attributes: device.attributes, capacity: device.capacity }) : activationOf(device, driver);
      // Only a match is remembered: upstream stores results after the early return for a mismatch.
      if (!compiled.deviceMatches(activation)) return false;
      if (byExpression === undefined) this.deviceMatchCache.set(device, (byExpression = new Map()));
      byExpression.set(expression, true);
    }
    return true;
  }
}

/** The device counting for scoring, when the scheduler's DRA objects resolve extended resources (DRAExtendedResource on). */
export function draExtendedResources(dra: SharedDRAManager | null): DraExtendedResources | null {
  const classResolver = dra?.classResolver ?? null;
  return dra !== null && classResolver !== null ? new DraExtendedResources({ ...dra, classResolver }) : null;
}

function countAllocated(ids: readonly DeviceID[], state: AllocatedState): number {
  let n = 0;
  for (const id of ids) if (isDeviceAllocated(id, state)) n++;
  return n;
}

function remember(cache: Map<string, boolean>, key: string, value: boolean): void {
  if (cache.size >= maxCachedMatches) cache.clear();
  cache.set(key, value);
}
