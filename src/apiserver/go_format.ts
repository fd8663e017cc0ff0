// Go's fmt "%+v" of a value JSON decoding produced (map[string]interface{}, []interface{}, string,
// int64, float64, bool, nil): how kube-apiserver prints a strategic merge patch in its errors
// (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go applyPatchToObject).

/** Go's %v of a float64: the shortest form, with an exponent below 1e-4 and from 1e21 on. */
function goFloat(n: number): string {
  const abs = Math.abs(n);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e21)) {
    return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  }
  return String(n);
}

export function goFormat(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goFormat).join(' ')}]`;
  switch (typeof v) {
    case 'object': {
      const obj = v as Record<string, unknown>;
      const keys = Object.keys(obj).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return `map[${keys.map((k) => `${k}:${goFormat(obj[k])}`).join(' ')}]`;
    }
    case 'number':
      // Integers decode as int64 (sigs.k8s.io/json keeps them), others as float64.
      return Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER ? String(v) : goFloat(v);
    default:
      return String(v);
  }
}
