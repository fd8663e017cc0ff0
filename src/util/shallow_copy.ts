// Shallow copies whose hidden class V8 shares between copies.
//
// Node 20's V8 gives an object spread (`{ ...obj }`) a hidden class that cannot take new keys:
// a key the source lacks, added by the spread itself (`{ ...obj, key }`) or assigned after, makes
// a new class for that one object. Making it costs about a microsecond, and every later read of
// the object misses the inline caches (each sees a class never seen before). A copy built on an
// empty object shares its classes with every copy of the same keys.

/** `{ ...obj }` for an object that may get keys it lacks (own enumerable string keys, in order). */
export function shallowCopy<T extends object>(obj: T): T {
  return Object.assign({}, obj);
}
