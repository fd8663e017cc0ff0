// Text rendering of simulation reports.
import type { SimReport } from '../sim/simulate/simulate.js';

function fmtCPU(milli: number): string {
  return milli % 1000 === 0 ? `${milli / 1000}` : `${milli}m`;
}

function fmtBytes(b: number): string {
  const gi = b / 2 ** 30;
  if (gi >= 1) return `${Number.isInteger(gi) ? gi : gi.toFixed(1)}Gi`;
  const mi = b / 2 ** 20;
  return `${Number.isInteger(mi) ? mi : mi.toFixed(1)}Mi`;
}

function pct(a: number, b: number): string {
  return b > 0 ? `${Math.round((100 * a) / b)}%` : '-';
}

export function renderSimulationText(r: SimReport): string {
  const lines: string[] = [];
  const s = r.summary;
  // The header counts what this run scheduled, the list below; pods bound before it are load.
  const scheduled = r.pods.filter((p) => p.outcome === 'Scheduled' && p.scheduledAt !== null);
  const bound = s.scheduled - scheduled.length;
  lines.push(`Scheduled ${scheduled.length} pod(s)${bound > 0 ? ` (${bound} already bound)` : ''}, ${s.unschedulable} unschedulable, ${s.pending} pending, ${s.preempted} preempted` +
    ` (simulated ${s.simulatedSeconds}s; ${s.podsPerSecond.toFixed(0)} pods/s over ${(s.wallSeconds * 1000).toFixed(1)} ms wall).`);
  if (r.unavailablePlugins.length > 0) lines.push(`Not yet available (skipped): ${r.unavailablePlugins.join(', ')}.`);
  if (scheduled.length > 0) {
    lines.push('', 'Scheduled:');
    for (const p of scheduled) lines.push(`  ${p.pod} -> ${p.node}${p.attempts > 1 ? ` (after ${p.attempts} attempts, at ${p.scheduledAt}s)` : ''}`);
  }
  const groups = new Map<string, string[]>();
  for (const p of r.pods) {
    if (p.outcome !== 'Unschedulable' && p.outcome !== 'Gated') continue;
    const msg = p.outcome === 'Gated' ? (p.message || 'waiting for scheduling gates') : p.message;
    groups.set(msg, [...(groups.get(msg) ?? []), p.pod]);
  }
  if (groups.size > 0) {
    lines.push('', 'Not scheduled:');
    for (const [msg, pods] of groups) {
      lines.push(`  ${pods.length} pod(s): ${msg}`);
      lines.push(`    ${pods.join(', ')}`);
    }
  }
  const preempted = r.pods.filter((p) => p.outcome === 'Preempted');
  if (preempted.length > 0) {
    lines.push('', 'Preempted:');
    for (const p of preempted) lines.push(`  ${p.pod} by ${p.preemptedBy}`);
  }
  lines.push('', 'Node allocation (requested / allocatable):');
  const w = Math.max(4, ...r.nodes.map((n) => n.node.length));
  // A column per extended resource any node offers (nvidia.com/gpu), after the pods.
  const extended = [...new Set(r.nodes.flatMap((n) => (n.extended ?? []).map((e) => e.name)))].sort();
  const extCell = (n: SimReport['nodes'][number], name: string): string => {
    const e = n.extended?.find((x) => x.name === name);
    return e ? `${e.requested}/${e.allocatable} ${pct(e.requested, e.allocatable)}` : '-';
  };
  const extWidth = extended.map((name) => Math.max(name.length, ...r.nodes.map((n) => extCell(n, name).length)));
  const podsWidth = Math.max(4, ...r.nodes.map((n) => `${n.pods.count}/${n.pods.allocatable}`.length));
  const tail = (cells: string[]) => (extended.length === 0 ? cells[0]! : [cells[0]!.padEnd(podsWidth), ...cells.slice(1).map((c, i) => (i < extended.length - 1 ? c.padEnd(extWidth[i]!) : c))].join('  '));
  lines.push(`  ${'NODE'.padEnd(w)}  ${'CPU'.padEnd(18)}  ${'MEMORY'.padEnd(22)}  ${tail(['PODS', ...extended])}`);
  for (const n of r.nodes) {
    const cpu = `${fmtCPU(n.cpu.requested)}/${fmtCPU(n.cpu.allocatable)} ${pct(n.cpu.requested, n.cpu.allocatable)}`;
    const mem = `${fmtBytes(n.memory.requested)}/${fmtBytes(n.memory.allocatable)} ${pct(n.memory.requested, n.memory.allocatable)}`;
    lines.push(`  ${n.node.padEnd(w)}  ${cpu.padEnd(18)}  ${mem.padEnd(22)}  ${tail([`${n.pods.count}/${n.pods.allocatable}`, ...extended.map((e) => extCell(n, e))])}`);
  }
  if (r.devices) {
    const use = (u: { allocated: number; total: number }) => `${u.allocated}/${u.total}`;
    lines.push('', 'Devices (allocated / total):');
    if (r.devices.nodes.length > 0) lines.push(`  nodes: ${r.devices.nodes.map((n) => `${n.node} ${use(n)}`).join(', ')}`);
    lines.push(`  pools: ${r.devices.pools.map((p) => `${p.driver}/${p.pool} ${use(p)}`).join(', ')}`);
  }
  return lines.join('\n') + '\n';
}
