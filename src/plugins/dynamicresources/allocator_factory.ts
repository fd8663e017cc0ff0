// The structured allocator of src/dra/structured in the shape DynamicResources calls (allocator_interface.ts),
// with one compiled-selector cache per plugin, as upstream's plugin keeps one LRU cache, and
// one cache of nodes' answers (src/dra/structured/result_cache.ts).
import { CelCache } from '../../api/cel/index.js';
import type { NewAllocator } from './allocator_interface.js';
import { AllocationResultCache, Allocator as StructuredAllocator } from '../../dra/structured/index.js';

/** How many compiled expressions the cache keeps (upstream: the 10 most recent). */
const celCacheSize = 10;

/**
 * A factory of allocators sharing one CEL cache. `newShareID` names the shares of
 * multi-allocation devices (upstream: a random UUID; simulations pass a seeded one).
 */
export function structuredAllocator(newShareID?: ShareIDSource): NewAllocator {
  let cache: CelCache | null = null;
  // One per plugin instance: answers are kept across scheduling cycles.
  const resultCache = new AllocationResultCache();
  return (inputs) => {
    cache ??= new CelCache(celCacheSize, { consumableCapacity: inputs.features.consumableCapacity, listTypeAttributes: inputs.features.listTypeAttributes });
    return new StructuredAllocator({
      features: inputs.features,
      allocatedState: inputs.allocatedState,
      classLister: (name) => inputs.classLister.get(name),
      slices: inputs.slices,
      celCache: cache,
      resultCache,
      ...(newShareID ? { newShareID } : {}),
      ...(newShareID?.later ? { laterShareIDs: newShareID.later } : {}),
    });
  };
}

const hexDigits = '0123456789abcdef';
/** Draws per share ID: one per hex digit but the fixed version digit. */
const drawsPerShareID = 31;

/** Share IDs as newShareID, plus the next ones for later when the source can defer its draws. */
export interface ShareIDSource {
  (): string;
  later?(count: number): () => readonly string[];
}

/**
 * UUID-shaped share IDs from the scheduler's seeded random source, so simulations replay. Each ID
 * takes 31 draws in text order (one hex digit each, the variant digit 8-b), written by table
 * lookup: kept answers draw new IDs on every node they are handed out for. With `defer` (the
 * source moved past n draws, which it gives later) `later` writes them only when asked for.
 */
export function seededShareID(random: () => number, defer?: (draws: number) => () => number): ShareIDSource {
  const next: ShareIDSource = () => shareIDFrom(random);
  if (defer !== undefined) {
    next.later = (count) => {
      const draws = defer(count * drawsPerShareID);
      let ids: string[] | null = null;
      return () => {
        if (ids === null) {
          ids = [];
          for (let i = 0; i < count; i++) ids.push(shareIDFrom(draws));
        }
        return ids;
      };
    };
  }
  return next;
}

function shareIDFrom(random: () => number): string {
  let out = '';
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) out += '-';
    else if (i === 14) out += '4';
    else out += hexDigits[i === 19 ? 8 + Math.floor(random() * 4) : Math.floor(random() * 16)];
  }
  return out;
}
