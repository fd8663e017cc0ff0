// A deep copy for JSON-shaped values (API objects): several times faster than structuredClone,
// which the embedded API server would otherwise pay on every pod it stores.

/** Copies plain objects and arrays recursively; other values (strings, numbers, ...) are shared. */
export function cloneJSON<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJSON(value[i] as unknown);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  const src = value as Record<string, unknown>;
  for (const k in src) {
    if (!Object.prototype.hasOwnProperty.call(src, k)) continue;
    const v = src[k];
    // Undefined members are left out, as a JSON round trip would.
    if (v !== undefined) out[k] = cloneJSON(v);
  }
  return out as T;
}
