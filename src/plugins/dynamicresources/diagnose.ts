// Why a node cannot give a pod its devices, for `explain`: upstream's Filter only says "cannot
// allocate all claims", so this asks the allocator again, one request at a time, how many
// devices the node has for it and which selector cuts them down. Runs only when asked for.
import type { Node } from '../../api/types.js';
import type { DeviceClass, DeviceRequest, DeviceSelector, ExactDeviceRequest, ResourceClaim } from '../../api/dra_types.js';
import type { AllocatorInputs, NewAllocator } from './allocator_interface.js';
import { newAllocatedState } from '../../dra/structured/index.js';

export interface RequestShortfall {
  /** namespace/name of the claim. */
  readonly claim: string;
  /** The request (request/subrequest for a firstAvailable alternative); '' for the claims as a whole. */
  readonly request: string;
  /** Devices the request asks for ('All' for allocationMode All). */
  readonly wanted: number | 'All';
  /** Devices the node can give it, every selector applied (up to wanted - 1). */
  readonly available: number;
  /** The selector without which the node would have enough ("class NAME: EXPR" for a class's). */
  readonly selector?: string;
  /** What else went wrong: an allocator error, devices held by other claims, requests that only fail together. */
  readonly reason?: string;
}

/** Counts above this are not searched exactly (upstream caps a claim at 32 results anyway). */
const maxCountProbe = 32;

const claimRef = (c: ResourceClaim): string => `${c.metadata.namespace ?? ''}/${c.metadata.name ?? ''}`;

/** The claim reduced to one exact request, without constraints. */
function withOnlyRequest(claim: ResourceClaim, name: string, exactly: ExactDeviceRequest): ResourceClaim {
  return { ...claim, spec: { devices: { requests: [{ name, exactly }], config: claim.spec.devices?.config } } };
}

class Prober {
  constructor(
    private readonly newAllocator: NewAllocator,
    private readonly inputs: AllocatorInputs,
    private readonly node: Node,
  ) {}

  /** Whether the node can satisfy these claims; an allocator error counts as no. */
  fits(claims: readonly ResourceClaim[], classes = this.inputs.classLister, allocatedState = this.inputs.allocatedState): boolean {
    try {
      return this.newAllocator({ ...this.inputs, classLister: classes, allocatedState }).allocate(this.node, claims) !== null;
    } catch {
      return false;
    }
  }

  /** The allocator's error for these claims, if it throws one. */
  error(claims: readonly ResourceClaim[]): string | null {
    try {
      this.newAllocator(this.inputs).allocate(this.node, claims);
      return null;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }

  /** One request (or alternative) on its own: its shortfall, or null when it fits alone. */
  request(claim: ResourceClaim, name: string, exactly: ExactDeviceRequest): RequestShortfall | null {
    const all = exactly.allocationMode === 'All';
    const wanted = exactly.count ?? 1;
    const one = (e: ExactDeviceRequest, classes = this.inputs.classLister) => this.fits([withOnlyRequest(claim, name, e)], classes);
    if (one(exactly)) return null;
    const base = { claim: claimRef(claim), request: name, wanted: all ? ('All' as const) : wanted };
    const err = this.error([withOnlyRequest(claim, name, exactly)]);
    if (err !== null) return { ...base, available: 0, reason: err };
    let available = 0;
    if (!all) {
      for (let k = Math.min(wanted, maxCountProbe + 1) - 1; k >= 1; k--) {
        if (one({ ...exactly, count: k })) {
          available = k;
          break;
        }
      }
    }
    const selectors = exactly.selectors ?? [];
    for (let i = 0; i < selectors.length; i++) {
      const rest = selectors.filter((_, j) => j !== i);
      if (one({ ...exactly, selectors: rest })) return { ...base, available, selector: selectorText(selectors[i]!) };
    }
    const cls = this.inputs.classLister.get(exactly.deviceClassName);
    const classSelectors = cls?.spec.selectors ?? [];
    for (let i = 0; i < classSelectors.length; i++) {
      const trimmed: DeviceClass = { ...cls!, spec: { ...cls!.spec, selectors: classSelectors.filter((_, j) => j !== i) } };
      const lister = { get: (n: string) => (n === exactly.deviceClassName ? trimmed : this.inputs.classLister.get(n)) };
      if (one(exactly, lister)) return { ...base, available, selector: `class ${exactly.deviceClassName}: ${selectorText(classSelectors[i]!)}` };
    }
    if (this.fits([withOnlyRequest(claim, name, exactly)], this.inputs.classLister, noneAllocated)) return { ...base, available, reason: inUse };
    return { ...base, available };
  }
}

const selectorText = (s: DeviceSelector): string => s.cel?.expression ?? '';

const noneAllocated = newAllocatedState();

/** The reason when the node has enough matching devices but other claims hold them. */
const inUse = 'enough matching devices, but other claims hold them';

/** A firstAvailable request fails only when no alternative fits: report each alternative. */
function requestShortfalls(p: Prober, claim: ResourceClaim, req: DeviceRequest): RequestShortfall[] {
  if (req.exactly) {
    const s = p.request(claim, req.name, req.exactly);
    return s === null ? [] : [s];
  }
  const out: RequestShortfall[] = [];
  for (const { name, ...exactly } of req.firstAvailable ?? []) {
    const s = p.request(claim, `${req.name}/${name}`, exactly);
    if (s === null) return [];
    out.push(s);
  }
  return out;
}

/**
 * Why `node` cannot allocate `claims` (the pod's unallocated ones): each request that cannot be
 * met on its own, or, when each can, one entry saying the claims fail together (constraints, or
 * requests competing for the same devices).
 */
export function diagnoseNode(newAllocator: NewAllocator, inputs: AllocatorInputs, node: Node, claims: readonly ResourceClaim[]): RequestShortfall[] {
  const p = new Prober(newAllocator, inputs, node);
  const err = p.error(claims);
  const out: RequestShortfall[] = [];
  for (const claim of claims) for (const req of claim.spec.devices?.requests ?? []) out.push(...requestShortfalls(p, claim, req));
  if (out.length > 0) return out;
  if (err !== null) return [{ claim: claims.map(claimRef).join(', '), request: '', wanted: 0, available: 0, reason: err }];
  if (p.fits(claims)) return [];
  return [{ claim: claims.map(claimRef).join(', '), request: '', wanted: 0, available: 0, reason: 'each request fits alone, but not all together (constraints, or requests competing for the same devices)' }];
}
