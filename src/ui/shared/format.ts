// Numbers as people read them in the workbench: CPU in cores, memory in binary units, percentages.

export function formatCpu(milli: number): string {
  return milli % 1000 === 0 ? `${milli / 1000}` : `${milli}m`;
}

export function formatBytes(bytes: number): string {
  const units = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)}${units[u]}`;
}

/** `a / b` as a whole percentage, or '-' when there is nothing to divide by. */
export function percent(a: number, b: number): string {
  return b > 0 ? `${Math.round((100 * a) / b)}%` : '-';
}

export function ratio(a: number, b: number): number {
  return b > 0 ? a / b : 0;
}

/** Green through yellow to red as utilisation grows (0..1, clamped). */
export function heatColor(v: number): string {
  const t = Math.min(1, Math.max(0, v));
  const hue = 120 - 120 * t;
  return `hsl(${hue.toFixed(0)}, 70%, ${(88 - 38 * t).toFixed(0)}%)`;
}
