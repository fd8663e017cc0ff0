// The structured allocator of ./structured, in the shape DynamicResources calls (allocator.ts).
import type { NewAllocator } from './allocator.js';

/** Until ./structured lands on main every allocation fails with an error naming the cause. */
export function structuredAllocator(_newShareID?: () => string): NewAllocator {
  return () => {
    throw new Error('the structured allocator (plugins/dynamicresources/structured) is not built yet');
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
