// What a node has of an extended resource that devices back, for scoring it
// (framework/plugins/noderesources/resource_allocation.go getDRAPreScoredParams,
// calculateDRAResourceTotals, deviceMatchesClass).
import type { Node, NodeSelector } from '../../api/types.js';
import type { Device, DeviceClass, ResourceSlice } from '../../api/dra_types.js';
import { CelCache, DefaultCelFeatures, DeviceActivation } from '../../api/cel/index.js';
import { isDRAExtendedResourceName } from '../../dra/device_class_resolver.js';
import type { SharedDraManager } from '../dynamicresources/shared_dra_manager.js';
import { isDeviceAllocated, makeDeviceID, nodeMatches, type AllocatedState } from '../../dra/structured/index.js';

/** What PreScore gathers once per pod (draPreScoreState). */
export interface DraScoringState {
  readonly allocatedState: AllocatedState;
  readonly slices: readonly ResourceSlice[];
}

/** The node's devices of the class backing the resource, and how many of them are allocated. */
export interface DeviceTotals {
  readonly capacity: number;
  readonly allocated: number;
}

/** Past this many entries a match cache starts over (upstream's never shrink). */
const maxCachedMatches = 100_000;

/**
 * Counts devices per node for the resources that DeviceClasses back. Matches are cached by
 * expression and device, and by node and selector, as upstream's DRACaches.
 */
export class DraExtendedResources {
  private readonly celCache = new CelCache(10, DefaultCelFeatures);
  private readonly deviceMatchCache = new Map<string, boolean>();
  private readonly nodeMatchCache = new Map<string, boolean>();

  constructor(private readonly manager: SharedDraManager & { readonly classResolver: NonNullable<SharedDraManager['classResolver']> }) {}

  /** The claims' and slices' state when one of the scored resources is backed by devices, else null. */
  preScore(resourceNames: readonly string[]): DraScoringState | null {
    const classes = this.manager.classResolver;
    if (!resourceNames.some((name) => isDRAExtendedResourceName(name) && classes.getDeviceClass(name) !== undefined)) return null;
    return { allocatedState: this.manager.claims.gatherAllocatedState(), slices: this.manager.slices.list() };
  }

  /** The node's totals for the resource, or null when no class backs it or the slices cannot be read. */
  totals(node: Node, resourceName: string, state: DraScoringState): DeviceTotals | null {
    const deviceClass = this.manager.classResolver.getDeviceClass(resourceName);
    if (deviceClass === undefined) return null;
    try {
      return this.countDevices(node, deviceClass, state);
    } catch {
      // A broken selector or node selector: upstream logs it and leaves the resource out.
      return null;
    }
  }

  private countDevices(node: Node, deviceClass: DeviceClass, state: DraScoringState): DeviceTotals {
    const nodeName = node.metadata.name ?? '';
    let capacity = 0;
    let allocated = 0;
    for (const slice of state.slices) {
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
      for (const d of devices) {
        if (!this.deviceMatchesClass(d, deviceClass, driver, pool)) continue;
        capacity++;
        if (isDeviceAllocated(makeDeviceID(driver, pool, d.name), state.allocatedState)) allocated++;
      }
    }
    return { capacity, allocated };
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
  private deviceMatchesClass(device: Device, deviceClass: DeviceClass, driver: string, pool: string): boolean {
    let activation: DeviceActivation | null = null;
    for (const selector of deviceClass.spec.selectors ?? []) {
      const expression = selector.cel?.expression;
      if (expression === undefined) continue;
      const key = `${expression}|${driver}|${pool}|${device.name}`;
      const cached = this.deviceMatchCache.get(key);
      if (cached !== undefined) {
        if (!cached) return false;
        continue;
      }
      const compiled = this.celCache.getOrCompile(expression);
      if (compiled.error !== null) throw new Error(compiled.error.detail);
      activation ??= new DeviceActivation({ driver, attributes: device.attributes, capacity: device.capacity });
      // Only a match is remembered: upstream stores results after the early return for a mismatch.
      if (!compiled.deviceMatches(activation)) return false;
      remember(this.deviceMatchCache, key, true);
    }
    return true;
  }
}

/** The device counting for scoring, when the scheduler's DRA objects resolve extended resources (DRAExtendedResource on). */
export function draExtendedResources(dra: SharedDraManager | null): DraExtendedResources | null {
  const classResolver = dra?.classResolver ?? null;
  return dra !== null && classResolver !== null ? new DraExtendedResources({ ...dra, classResolver }) : null;
}

function remember(cache: Map<string, boolean>, key: string, value: boolean): void {
  if (cache.size >= maxCachedMatches) cache.clear();
  cache.set(key, value);
}
