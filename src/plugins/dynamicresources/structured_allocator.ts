// The structured allocator of ./structured, in the shape DynamicResources calls (allocator.ts).
import type { NewAllocator } from './allocator.js';

/** Until ./structured lands on main every allocation fails with an error naming the cause. */
export const newStructuredAllocator: NewAllocator = () => {
  throw new Error('the structured allocator (plugins/dynamicresources/structured) is not built yet');
};
