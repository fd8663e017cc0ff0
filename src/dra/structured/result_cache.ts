// A node's allocation answer for a set of claim specs, kept across scheduling cycles while
// nothing it was computed from changed (no upstream counterpart: upstream searches every node
// for every pod). Pods whose claims come from one template ask every node the same question;
// between two pods only the node that got the last pod changes, so the other nodes' answers
// (the devices chosen, or "does not fit") can be reused instead of searched again.
import type { Node } from '../../api/types.js';
import type { AllocationResult, DeviceClass, ResourceClaim, ResourceSlice } from '../../api/dra_types.js';
import type { Pool } from './pools.js';
import type { AllocatedState, Features } from './types.js';

interface Entry {
  readonly node: Node;
  readonly slices: readonly ResourceSlice[];
  readonly features: Features;
  readonly classes: readonly (DeviceClass | undefined)[];
  readonly stamps: readonly number[];
  /** Deeply frozen: handed out as is, so no caller can change it for the next one. */
  readonly results: readonly AllocationResult[] | null;
}

/** What an answer depends on besides the claims' specs: every input of the search. */
export interface AnswerInputs {
  readonly node: Node;
  readonly slices: readonly ResourceSlice[];
  readonly features: Features;
  readonly pools: readonly Pool[];
  readonly allocatedState: AllocatedState;
  readonly classes: readonly (DeviceClass | undefined)[];
}

/** Past this many nodes the cache starts over. */
const maxNodes = 200_000;

const specKeys = new WeakMap<ResourceClaim, string>();

function specKey(claim: ResourceClaim): string {
  let key = specKeys.get(claim);
  if (key === undefined) {
    key = JSON.stringify(claim.spec);
    specKeys.set(claim, key);
  }
  return key;
}

/** The claims' specs as one key (a claim's answer depends on its spec, not its name). */
export function claimsKey(claims: readonly ResourceClaim[]): string {
  return claims.length === 1 ? specKey(claims[0]!) : claims.map(specKey).join('\n');
}

/** The pools' allocation stamps, or null when one is in flight (or the state has none). */
function stampsOf(pools: readonly Pool[], state: AllocatedState): number[] | null {
  const stamp = state.poolStamp;
  if (stamp === undefined) return null;
  const out: number[] = [];
  for (const pool of pools) {
    const s = stamp(pool.id);
    if (s === null) return null;
    out.push(s);
  }
  return out;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Answers by node name and claims key. */
export class AllocationResultCache {
  private readonly byNode = new Map<string, Map<string, Entry>>();

  /** The kept answer (frozen), or undefined when there is none or its inputs changed. */
  get(key: string, inputs: AnswerInputs): AllocationResult[] | null | undefined {
    const entry = this.byNode.get(inputs.node.metadata.name ?? '')?.get(key);
    if (entry === undefined) return undefined;
    if (entry.node !== inputs.node || entry.slices !== inputs.slices || entry.features !== inputs.features || !sameItems(entry.classes, inputs.classes)) return undefined;
    const stamps = stampsOf(inputs.pools, inputs.allocatedState);
    if (stamps === null || !sameItems(entry.stamps, stamps)) return undefined;
    return entry.results as AllocationResult[] | null;
  }

  /** Keeps an answer, unless it holds a share ID (random per allocation) or a pool is in flight. */
  set(key: string, inputs: AnswerInputs, results: AllocationResult[] | null): void {
    const stamps = stampsOf(inputs.pools, inputs.allocatedState);
    if (stamps === null) return;
    if (results !== null && results.some((r) => r.devices?.results?.some((d) => d.shareID !== undefined))) return;
    const name = inputs.node.metadata.name ?? '';
    let perNode = this.byNode.get(name);
    if (perNode === undefined) {
      if (this.byNode.size >= maxNodes) this.byNode.clear();
      this.byNode.set(name, (perNode = new Map()));
    }
    // One answer per node and question: a handful of claim shapes per cluster at most.
    if (perNode.size >= 16 && !perNode.has(key)) perNode.clear();
    perNode.set(key, { node: inputs.node, slices: inputs.slices, features: inputs.features, classes: inputs.classes, stamps, results: results === null ? null : deepFreeze(results) });
  }
}
