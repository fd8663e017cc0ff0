// The tables of `npm run bench:upstream`: ours beside upstream's own scheduler_perf, as text for the
// terminal and as the Markdown block the README's performance section keeps (`--docs`).

/** One side's run of one workload. */
export interface Side {
  pods: number;
  average: number;
  /** The 1-minute load average when the run started. */
  load?: number;
  error?: string;
  /** Said under the table beside a figure that stands (upstream failing its own threshold). */
  note?: string;
}

/** One workload on both sides, on all cores or pinned to the first `cpus` of them. */
export interface Row {
  name: string;
  ours: Side | null;
  upstream: Side | null;
  /** Cores the run was pinned to (`taskset`); absent: every core of the machine, unpinned. */
  cpus?: number;
}

/** What `--json` writes: the rows and where they were measured (older files hold only `workloads`). */
export interface SideBySideRun {
  measuredAt?: string;
  node?: string;
  machine?: string;
  workloads: Row[];
}

/** A side's figure for a table: not run, failed, or pods/s. */
function figure(side: Side | null): string {
  if (side === null) return '-';
  return side.error ? 'failed' : side.average.toFixed(1);
}

function usable(side: Side | null): side is Side {
  return side !== null && side.error === undefined && side.average > 0;
}

function ratio(r: Row): string {
  return usable(r.ours) && usable(r.upstream) ? `${(r.ours.average / r.upstream.average).toFixed(1)}x` : '';
}

function loads(r: Row): string {
  return [r.ours?.load, r.upstream?.load].map((l) => (l === undefined ? '-' : l.toFixed(1))).join(', ');
}

function cores(r: Row): string {
  return r.cpus === undefined ? 'all' : String(r.cpus);
}

function notes(rows: readonly Row[]): string[] {
  return rows.flatMap((r) => {
    const at = r.cpus === undefined ? r.name : `${r.name} (${r.cpus} core${r.cpus === 1 ? '' : 's'})`;
    return [
      r.ours?.error ? `* ${at}: ours: ${r.ours.error}` : '',
      r.upstream?.error ? `* ${at}: upstream: ${r.upstream.error}` : '',
      r.upstream?.note ? `* ${at}: ${r.upstream.note}` : '',
    ].filter(Boolean);
  });
}

/** The terminal's table. */
export function renderText(rows: readonly Row[]): string {
  const pinned = rows.some((r) => r.cpus !== undefined);
  const header = ['workload', ...(pinned ? ['cores'] : []), 'ours pods/s', 'upstream pods/s', 'ours/upstream', 'load (ours, upstream)'];
  const cells = rows.map((r) => [r.name, ...(pinned ? [cores(r)] : []), figure(r.ours), figure(r.upstream), ratio(r), loads(r)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line), '',
    '* pods/s: SchedulingThroughput average of the measured op (upstream: its data item; ours: bench --json), one run each on this machine;',
    '  load: the 1-minute load average when each run started',
    ...notes(rows)].join('\n') + '\n';
}

/**
 * How a side scales with cores: its pods/s over its own figure on the fewest cores measured for
 * the same workload ('' when the workload ran at one core count, or that figure is missing).
 */
function scaling(rows: readonly Row[], r: Row, side: 'ours' | 'upstream'): string {
  const same = rows.filter((o) => o.name === r.name && o.cpus !== undefined && usable(o[side]));
  if (r.cpus === undefined || same.length < 2 || !usable(r[side])) return '';
  const fewest = same.reduce((a, b) => (b.cpus! < a.cpus! ? b : a));
  return `${(r[side].average / fewest[side]!.average).toFixed(2)}x`;
}

/** The Markdown block of the README's performance section, from one or more `--json` runs. */
export function renderMarkdown(runs: readonly SideBySideRun[]): string {
  const rows = runs.flatMap((r) => r.workloads);
  const pinned = rows.some((r) => r.cpus !== undefined);
  const where = [...new Set(runs.map((r) => [r.measuredAt?.slice(0, 10), r.node && `Node ${r.node}`, r.machine].filter(Boolean).join(', ')).filter(Boolean))];
  const head = pinned
    ? ['workload', 'cores', 'ours pods/s', 'upstream pods/s', 'ours / upstream', 'ours vs fewest cores', 'upstream vs fewest cores', 'load (ours, upstream)']
    : ['workload', 'ours pods/s', 'upstream pods/s', 'ours / upstream', 'load (ours, upstream)'];
  const body = rows.map((r) => (pinned
    ? [r.name, cores(r), figure(r.ours), figure(r.upstream), ratio(r), scaling(rows, r, 'ours'), scaling(rows, r, 'upstream'), loads(r)]
    : [r.name, figure(r.ours), figure(r.upstream), ratio(r), loads(r)]));
  const md = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [
    `Measured with \`npm run bench:upstream\`${where.length > 0 ? ` (${where.join('; ')})` : ''}: upstream's own scheduler_perf (v1.37.2, its`,
    'API server and etcd in the loop) beside our embedded `bench`, one run each, SchedulingThroughput average in pods/s;',
    `${pinned ? '"cores": the runs were pinned to that many cores (`taskset`), "all" unpinned; ' : ''}load: the 1-minute load average at each run's start.`,
    '',
    md(head),
    md(head.map(() => '---')),
    ...body.map(md),
    ...(notes(rows).length > 0 ? ['', ...notes(rows)] : []),
  ].join('\n') + '\n';
}
