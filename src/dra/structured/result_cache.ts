// A node's allocation answer for a set of claim specs, kept across scheduling cycles while
// nothing it was computed from changed (no upstream counterpart: upstream searches every node
// for every pod). Pods whose claims come from one template ask every node the same question;
// between two pods only the node that got the last pod changes, so the other nodes' answers
// (the devices chosen, or "does not fit") can be reused instead of searched again.
import type { Node } from '../../api/types.js';
import type { AllocationResult, DeviceClass, ResourceClaim, ResourceSlice } from '../../api/dra_types.js';
import type { Pool } from './pools.js';
import type { AllocatedState, Features, PoolDependent } from './types.js';

/** One node's answer to one question, with everything it was computed from. */
class Entry implements PoolDependent {
  private isStale = false;
  private inFlight = 0;

  constructor(
    readonly node: Node,
    readonly slices: readonly ResourceSlice[],
    readonly features: Features,
    readonly classes: readonly (DeviceClass | undefined)[],
    /** The node's pools' IDs: the allocated state marks the entry stale when one of them changes. */
    readonly poolKeys: readonly string[],
    /** Deeply frozen: handed out as is, so no caller can change it for the next one. */
    readonly results: readonly AllocationResult[] | null,
    /** The share IDs the search drew, when it drew any: each use draws them anew. */
    readonly shares: ShareDraws | null,
    /** Where the marks are mirrored while the entry holds its slot (see Answers.marks). */
    private readonly answers: Answers,
    readonly slot: number,
  ) {}

  get stale(): boolean {
    return this.isStale;
  }

  set stale(value: boolean) {
    this.isStale = value;
    if (value) this.answers.mirror(this, staleMark);
  }

  get inFlightView(): number {
    return this.inFlight;
  }

  set inFlightView(serial: number) {
    this.inFlight = serial;
    if (!this.isStale) this.answers.mirror(this, serial);
  }
}

/**
 * How a search drew share IDs (for shares of multi-allocation devices, from the allocator's
 * source): `draws` IDs in all, and per share in its results (claims in order, then their device
 * results in order) which draw it took. An answer handed out again draws as many IDs, so the
 * source moves on as the search would have moved it, and carries the new ones in those places.
 */
export interface ShareDraws {
  readonly draws: number;
  readonly places: readonly number[];
}

/** Where each share ID of the results came from among the `drawn` IDs; null if one came from elsewhere. */
export function shareDraws(results: readonly AllocationResult[] | null, drawn: readonly string[]): ShareDraws | null {
  const places: number[] = [];
  for (const r of results ?? []) {
    for (const d of r.devices?.results ?? []) {
      if (d.shareID === undefined) continue;
      const place = drawn.indexOf(d.shareID);
      if (place < 0) return null;
      places.push(place);
    }
  }
  return { draws: drawn.length, places };
}

/** The kept results with `ids` (new draws) in place of the search's share IDs (see ShareDraws). */
function placeShares(results: readonly AllocationResult[], shares: ShareDraws, ids: readonly string[]): AllocationResult[] {
  let k = 0;
  return results.map((r) => {
    const devices = r.devices?.results;
    if (devices === undefined || !devices.some((d) => d.shareID !== undefined)) return r;
    return { ...r, devices: { ...r.devices, results: devices.map((d) => (d.shareID === undefined ? d : { ...d, shareID: ids[shares.places[k++]!]! })) } };
  });
}

/** What a kept answer with shares becomes when handed out (see shareIDsNow, shareIDsLater). */
export type ShareHandOut<R> = (results: readonly AllocationResult[] | null, shares: ShareDraws) => R;

/** Kept results whose new share IDs are written only when asked for (the answer of the node chosen). */
export type LaterResults = () => AllocationResult[];

/** New share IDs drawn now and placed in the results. */
export function shareIDsNow(newShareID: () => string): ShareHandOut<AllocationResult[] | null> {
  return (results, shares) => {
    const ids: string[] = [];
    for (let i = 0; i < shares.draws; i++) ids.push(newShareID());
    return results === null ? null : placeShares(results, shares, ids);
  };
}

/**
 * The source moves past the new IDs' draws now (as drawing them would), the IDs are written and
 * placed when the results are first asked for: most nodes' answers of a pod never are.
 */
export function shareIDsLater(later: (count: number) => () => readonly string[]): ShareHandOut<AllocationResult[] | null | LaterResults> {
  return (results, shares) => {
    const ids = later(shares.draws);
    if (results === null) return null;
    let made: AllocationResult[] | null = null;
    return () => (made ??= placeShares(results, shares, ids()));
  };
}

/** A slot's mark for a stale entry (serials are positive). */
const staleMark = -1;

/** What an answer depends on besides the claims' specs: every input of the search. */
export interface AnswerInputs {
  readonly node: Node;
  /** The node's slot (see Answers.get), or -1. */
  readonly slot: number;
  readonly slices: readonly ResourceSlice[];
  readonly features: Features;
  readonly pools: readonly Pool[];
  readonly allocatedState: AllocatedState;
  readonly classes: readonly (DeviceClass | undefined)[];
}

/** Past this many nodes for one question, its answers start over. */
const maxNodes = 200_000;
/** Past this many questions (claim shapes) the cache starts over: a handful per cluster at most. */
const maxQuestions = 64;

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

// Every kept answer is frozen: arrays walked by index and objects by key, with no array of
// values made per object (Object.values), a third less time per answer.
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
    } else {
      const obj = value as Record<string, unknown>;
      for (const k in obj) deepFreeze(obj[k]);
    }
    Object.freeze(value);
  }
  return value;
}

/** Whether two lists hold the same objects in the same order. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The answers to one question (one claims key), by node name: looked up once per pod, then
 * once per node with no allocation on a hit.
 */
export class Answers {
  private readonly byNode = new Map<string, Entry>();
  /**
   * The same entries by the slot their caller gave the node (its place in the node list), found
   * without hashing the name; a slot may hold another node's entry after the list changed.
   */
  private readonly bySlot: (Entry | undefined)[] = [];
  /**
   * Per slot, what a hit needs without reading the entry (scattered over the heap: a cache miss
   * or two per node, for hundreds of nodes per pod), in arrays read in node-list order: the
   * entry's node and results, and its marks (staleMark, or the in-flight serial, or 0). Only
   * entries made from `slices`, `features` and `classes` are there.
   */
  private readonly slotNodes: (Node | undefined)[] = [];
  private readonly slotResults: (readonly AllocationResult[] | null)[] = [];
  private readonly slotShares: (ShareDraws | null)[] = [];
  private readonly marks: number[] = [];
  /** Whether an answer with shares was ever kept here: until then a hit reads no share slot. */
  private sharing = false;
  private slices: readonly ResourceSlice[] | null = null;
  private features: Features | null = null;
  /** The classes of the last question asked: questions with the same ones share this array. */
  private classes: readonly (DeviceClass | undefined)[] | null = null;

  /**
   * The classes as this cache's array when it holds the same objects, so an answer's classes are
   * compared once per pod here and not item by item per node.
   */
  sameClasses(classes: readonly (DeviceClass | undefined)[]): readonly (DeviceClass | undefined)[] {
    if (this.classes !== null && sameItems(this.classes, classes)) return this.classes;
    this.classes = classes;
    this.clearSlots();
    return classes;
  }

  /**
   * The kept answer (frozen), or undefined when there is none or its inputs changed. An answer
   * with shares takes as many new share IDs as its search drew, handed out by `handOut`.
   */
  get<R>(
    node: Node,
    slot: number,
    slices: readonly ResourceSlice[],
    features: Features,
    classes: readonly (DeviceClass | undefined)[],
    state: AllocatedState,
    handOut: ShareHandOut<R>,
  ): AllocationResult[] | null | R | undefined {
    if (slot >= 0 && slot < this.slotNodes.length && this.slotNodes[slot] === node && slices === this.slices && features === this.features && classes === this.classes) {
      const serial = state.marksSerial?.() ?? 0;
      if (serial > 0) {
        const mark = this.marks[slot]!;
        if (mark !== staleMark && mark !== serial) {
          const results = this.slotResults[slot] as AllocationResult[] | null;
          const shares = this.sharing ? (this.slotShares[slot] ?? null) : null;
          return shares === null ? results : handOut(results, shares);
        }
      }
    }
    let entry = slot >= 0 ? this.bySlot[slot] : undefined;
    if (entry === undefined || entry.node !== node || entry.stale) {
      entry = this.byNode.get(node.metadata.name ?? '');
      if (entry === undefined) return undefined;
    }
    if (entry.node !== node || entry.slices !== slices || entry.features !== features || entry.classes !== classes) return undefined;
    if (!state.dependentHolds!(entry)) return undefined;
    return entry.shares === null ? (entry.results as AllocationResult[] | null) : handOut(entry.results, entry.shares);
  }

  /**
   * Keeps an answer, unless a pool is in flight, or it holds share IDs without `shares` saying
   * how they were drawn.
   */
  set(inputs: AnswerInputs, results: AllocationResult[] | null, shares: ShareDraws | null = null): void {
    if (shares === null && results !== null && results.some((r) => r.devices?.results?.some((d) => d.shareID !== undefined))) return;
    const slot = inputs.slot >= 0 && inputs.slot < maxNodes ? inputs.slot : -1;
    const entry = new Entry(inputs.node, inputs.slices, inputs.features, inputs.classes, inputs.pools.map((p) => p.id), results, shares, this, slot);
    if (!inputs.allocatedState.watchPools!(entry)) return;
    if (results !== null) deepFreeze(results);
    const name = inputs.node.metadata.name ?? '';
    if (this.byNode.size >= maxNodes && !this.byNode.has(name)) this.clear();
    const old = this.byNode.get(name);
    // Dropped: the pools' lists let go of it at their next clean-up.
    if (old !== undefined) old.stale = true;
    this.byNode.set(name, entry);
    if (slot < 0) return;
    while (this.bySlot.length <= slot) this.bySlot.push(undefined);
    this.bySlot[slot] = entry;
    if (inputs.slices !== this.slices || inputs.features !== this.features || inputs.classes !== this.classes) {
      // Other inputs than the slots' (a newer slice list): the slots start over with these.
      this.clearSlots();
      this.slices = inputs.slices;
      this.features = inputs.features;
      this.classes = inputs.classes;
    }
    while (this.slotNodes.length <= slot) {
      this.slotNodes.push(undefined);
      this.slotResults.push(null);
      this.slotShares.push(null);
      this.marks.push(staleMark);
    }
    if (shares !== null) this.sharing = true;
    this.slotNodes[slot] = entry.node;
    this.slotResults[slot] = results;
    this.slotShares[slot] = shares;
    this.marks[slot] = entry.stale ? staleMark : entry.inFlightView;
  }

  /** Mirrors an entry's new mark in its slot, while it holds the slot. */
  mirror(entry: Entry, mark: number): void {
    const slot = entry.slot;
    if (slot >= 0 && this.bySlot[slot] === entry && slot < this.marks.length && this.slotNodes[slot] === entry.node) this.marks[slot] = mark;
  }

  private clearSlots(): void {
    this.slotNodes.length = 0;
    this.slotResults.length = 0;
    this.slotShares.length = 0;
    this.marks.length = 0;
  }

  /** Drops every answer. */
  clear(): void {
    for (const entry of this.byNode.values()) entry.stale = true;
    this.byNode.clear();
    this.bySlot.length = 0;
    this.clearSlots();
  }
}

/** Answers by claims key (the question), then node name. */
export class AllocationResultCache {
  private readonly byKey = new Map<string, Answers>();

  /** The answers kept for the question, made empty when new. */
  answers(key: string): Answers {
    let answers = this.byKey.get(key);
    if (answers === undefined) {
      if (this.byKey.size >= maxQuestions) {
        for (const a of this.byKey.values()) a.clear();
        this.byKey.clear();
      }
      this.byKey.set(key, (answers = new Answers()));
    }
    return answers;
  }
}
