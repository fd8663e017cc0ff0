// The structured allocator of src/dra/structured in the shape DynamicResources calls (allocator_interface.ts),
// with one compiled-selector cache per plugin, as upstream's plugin keeps one LRU cache.
import { CelCache } from '../../api/cel/index.js';
import type { NewAllocator } from './allocator_interface.js';
import { Allocator as StructuredAllocator } from '../../dra/structured/index.js';

/** How many compiled expressions the cache keeps (upstream: the 10 most recent). */
const celCacheSize = 10;

/**
 * A factory of allocators sharing one CEL cache. `newShareID` names the shares of
 * multi-allocation devices (upstream: a random UUID; simulations pass a seeded one).
 */
export function structuredAllocator(newShareID?: () => string): NewAllocator {
  let cache: CelCache | null = null;
  return (inputs) => {
    cache ??= new CelCache(celCacheSize, { consumableCapacity: inputs.features.consumableCapacity, listTypeAttributes: inputs.features.listTypeAttributes });
    return new StructuredAllocator({
      features: inputs.features,
      allocatedState: inputs.allocatedState,
      classLister: (name) => inputs.classLister.get(name),
      slices: inputs.slices,
      celCache: cache,
      ...(newShareID ? { newShareID } : {}),
    });
  };
}

/** UUID-shaped share IDs from the scheduler's seeded random source, so simulations replay. */
export function seededShareID(random: () => number): () => string {
  const hex = (n: number): string => {
    let out = '';
    for (let i = 0; i < n; i++) out += Math.floor(random() * 16).toString(16);
    return out;
  };
  return () => `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + Math.floor(random() * 4)).toString(16)}${hex(3)}-${hex(12)}`;
}
