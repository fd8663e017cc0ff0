// Whether two lists of numbers are equal, element for element: a pod's requests against the
// requests a memo or a precomputed column was made for.
export function sameNumbers(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
