// Kubernetes quantities as numbers for display (CPU in millicores, memory in bytes). The API
// server has validated them; this only reads the forms it accepts.

const suffixes: Record<string, number> = {
  '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

/** The quantity's value (`"100m"` is 0.1, `"1Gi"` is 1073741824); 0 when it cannot be read. */
export function quantityValue(q: string | number | undefined): number {
  if (q === undefined) return 0;
  if (typeof q === 'number') return q;
  const m = /^([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)([a-zA-Z]*)$/.exec(q.trim());
  if (!m) return 0;
  const factor = suffixes[m[2]!];
  return factor === undefined ? 0 : Number(m[1]) * factor;
}

export function milliCpu(q: string | number | undefined): number {
  return Math.round(quantityValue(q) * 1000);
}
