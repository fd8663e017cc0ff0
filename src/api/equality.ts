// Semantic equality of the object fields the scheduler compares across updates
// (k8s.io/apimachinery/pkg/api/equality Semantic.DeepEqual): an absent list or map equals an empty
// one, quantities compare by value ("1" equals "1000m") and times by instant.
import { parseQuantity } from './quantity.js';
import type { ResourceList, QuantityValue, StorageClass, Taint, Toleration } from './types.js';

type StringMap = Readonly<Record<string, string>>;

/** Label (or annotation) maps with the same keys and values. */
export function labelsEqual(a: StringMap | null | undefined, b: StringMap | null | undefined): boolean {
  const ka = a ? Object.keys(a) : [];
  const kb = b ? Object.keys(b) : [];
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || b![k] !== a![k]) return false;
  return true;
}

/** Two lists with equal elements in the same order; absent lists are empty, as Go's nil slices. */
function listsEqual<T>(a: readonly T[] | null | undefined, b: readonly T[] | null | undefined, same: (x: T, y: T) => boolean): boolean {
  const la = a ?? [];
  const lb = b ?? [];
  if (la.length !== lb.length) return false;
  for (let i = 0; i < la.length; i++) if (!same(la[i]!, lb[i]!)) return false;
  return true;
}

const taintEqual = (x: Taint, y: Taint): boolean =>
  x.key === y.key && (x.value ?? '') === (y.value ?? '') && x.effect === y.effect && timesEqual(x.timeAdded, y.timeAdded);

/** Taint lists equal element by element, in order; times added compare as instants. */
export function taintsEqual(a: readonly Taint[] | null | undefined, b: readonly Taint[] | null | undefined): boolean {
  return listsEqual(a, b, taintEqual);
}

const tolerationEqual = (x: Toleration, y: Toleration): boolean =>
  (x.key ?? '') === (y.key ?? '') &&
  (x.operator ?? '') === (y.operator ?? '') &&
  (x.value ?? '') === (y.value ?? '') &&
  (x.effect ?? '') === (y.effect ?? '') &&
  (x.tolerationSeconds ?? null) === (y.tolerationSeconds ?? null);

/** Toleration lists equal element by element, in order (an absent string is Go's ""). */
export function tolerationsEqual(a: readonly Toleration[] | null | undefined, b: readonly Toleration[] | null | undefined): boolean {
  return listsEqual(a, b, tolerationEqual);
}

/** Resource lists with the same names and, per name, quantities of the same value. */
export function resourceListsEqual(a: ResourceList | null | undefined, b: ResourceList | null | undefined): boolean {
  const ka = a ? Object.keys(a) : [];
  const kb = b ? Object.keys(b) : [];
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    const y = b![k];
    if (y === undefined || !quantitiesEqual(a![k]!, y)) return false;
  }
  return true;
}

/** Quantities of the same value (Quantity.Cmp == 0); text that does not parse compares as text. */
export function quantitiesEqual(a: QuantityValue, b: QuantityValue): boolean {
  if (a === b) return true;
  let x: bigint;
  let y: bigint;
  try {
    // Every parsed quantity is a whole number of nano-units, so this compares exactly.
    x = parseQuantity(a).nanoValue();
    y = parseQuantity(b).nanoValue();
  } catch {
    return String(a) === String(b);
  }
  return x === y;
}

type TopologySelectorTerms = StorageClass['allowedTopologies'];

/** Topology selector terms (a StorageClass's allowedTopologies) equal term by term, in order. */
export function topologySelectorTermsEqual(a: TopologySelectorTerms | null, b: TopologySelectorTerms | null): boolean {
  const la = a ?? [];
  const lb = b ?? [];
  if (la.length !== lb.length) return false;
  for (let i = 0; i < la.length; i++) {
    const ra = la[i]!.matchLabelExpressions ?? [];
    const rb = lb[i]!.matchLabelExpressions ?? [];
    if (ra.length !== rb.length) return false;
    for (let j = 0; j < ra.length; j++) {
      if (ra[j]!.key !== rb[j]!.key || !stringListsEqual(ra[j]!.values, rb[j]!.values)) return false;
    }
  }
  return true;
}

export function stringListsEqual(a: readonly string[] | null | undefined, b: readonly string[] | null | undefined): boolean {
  const la = a ?? [];
  const lb = b ?? [];
  if (la.length !== lb.length) return false;
  for (let i = 0; i < la.length; i++) if (la[i] !== lb[i]) return false;
  return true;
}

/** metav1.Time fields: both absent, or the same instant however written. */
function timesEqual(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const x = Date.parse(a);
  const y = Date.parse(b);
  return Number.isNaN(x) || Number.isNaN(y) ? a === b : x === y;
}
