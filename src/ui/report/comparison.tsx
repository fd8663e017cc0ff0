// The page of `compare --report`: configurations side by side (outcomes, spread, fragmentation),
// per configuration the load across nodes, the busiest nodes and the pods left out with why, and
// the pod-by-pod differences. Built from the simulation report's blocks (charts, lists, formats).
import { useMemo, useState } from 'preact/hooks';
import type { ComparisonReportData } from '../../sim/report/compare_report.js';
import { Chart, histogram } from '../shared/chart.js';
import { formatBytes, formatCpu, ratio } from '../shared/format.js';
import { VirtualList } from '../shared/virtual_list.js';

/** One colour per configuration, in order (charts and headings). */
const palette = ['#5b8def', '#e8a33d', '#3aa876', '#c2185b', '#7e57c2', '#00838f'];
const colourOf = (i: number) => palette[i % palette.length]!;
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const buckets = 20;

function SideBySide({ data }: { data: ComparisonReportData }) {
  const v = data.comparison.variants;
  const rows: [string, (i: number) => string][] = [
    ['scheduled', (i) => String(v[i]!.scheduled)],
    ['unschedulable', (i) => String(v[i]!.unschedulable)],
    ['pending (gated)', (i) => String(v[i]!.pending)],
    ['preempted', (i) => String(v[i]!.preempted)],
    ['nodes used', (i) => String(v[i]!.nodesUsed)],
    ['cpu requested: mean', (i) => pct(v[i]!.cpu.mean)],
    ['cpu requested: stddev', (i) => pct(v[i]!.cpu.stddev)],
    ['memory requested: mean', (i) => pct(v[i]!.memory.mean)],
    ['memory requested: stddev', (i) => pct(v[i]!.memory.stddev)],
    ['free cpu (largest on one node)', (i) => `${formatCpu(v[i]!.freeCpu.total)} (${formatCpu(v[i]!.freeCpu.largest)})`],
    ['free cpu fragmentation', (i) => pct(v[i]!.freeCpu.fragmentation)],
  ];
  return (
    <section id="side-by-side">
      <h2>Side by side</h2>
      <table class="grid" data-testid="comparison-summary">
        <thead><tr><th></th>{v.map((x, i) => <th class="num" key={i} style={{ color: colourOf(i) }}>{x.name}</th>)}</tr></thead>
        <tbody>{rows.map(([label, cell]) => (
          <tr key={label}><td>{label}</td>{v.map((_x, i) => <td class="num" key={i}>{cell(i)}</td>)}</tr>
        ))}</tbody>
      </table>
    </section>
  );
}

function Configuration({ data, index }: { data: ComparisonReportData; index: number }) {
  const summary = data.comparison.variants[index]!;
  const load = data.load[index]!;
  const cpu = useMemo(() => Float64Array.from(load, (n) => ratio(n[0], n[1])), [load]);
  const hist = useMemo(() => histogram(cpu, buckets), [cpu]);
  const bucketX = useMemo(() => hist.map((_c, i) => i), [hist]);
  const bucketTicks = useMemo(() => hist.map((_c, i) => `${(100 * i) / buckets}%`), [hist]);
  const busiest = useMemo(() => [...load.keys()].sort((a, b) => load[b]![4] - load[a]![4] || cpu[b]! - cpu[a]!).slice(0, 10), [load, cpu]);
  return (
    <section class="configuration" data-testid={`configuration-${index}`}>
      <h2 style={{ color: colourOf(index) }}>{summary.name}</h2>
      <div class="row">
        <Chart testId={`chart-spread-${index}`} title={`Nodes by cpu requested / allocatable (${summary.name})`} kind="bars" x={bucketX} xTicks={bucketTicks}
          series={[{ label: 'nodes', color: colourOf(index), values: hist }]} xLabel="utilisation" yLabel="nodes" width={460} />
        <div>
          <h4>Placements: the busiest nodes</h4>
          <table class="grid" data-testid={`placements-${index}`}>
            <thead><tr><th>node</th><th class="num">pods</th><th class="num">cpu</th><th class="num">memory</th></tr></thead>
            <tbody>{busiest.map((i) => {
              const n = load[i]!;
              return <tr key={data.nodes[i]}><td>{data.nodes[i]}</td><td class="num">{n[4]}/{n[5]}</td><td class="num">{formatCpu(n[0])}/{formatCpu(n[1])}</td><td class="num">{formatBytes(n[2])}/{formatBytes(n[3])}</td></tr>;
            })}</tbody>
          </table>
        </div>
      </div>
      <h4>Not scheduled ({summary.unschedulable})</h4>
      {summary.reasons.length === 0 ? <p class="muted">Every pod found a node.</p> : (
        <table class="grid" data-testid={`reasons-${index}`}>
          <thead><tr><th class="num">pods</th><th>why (upstream's message)</th></tr></thead>
          <tbody>{summary.reasons.map((r) => <tr key={r.message}><td class="num">{r.pods}</td><td>{r.message}</td></tr>)}</tbody>
        </table>
      )}
    </section>
  );
}

function Differences({ data }: { data: ComparisonReportData }) {
  const [query, setQuery] = useState('');
  const names = data.comparison.variants.map((v) => v.name);
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q === '' ? data.comparison.differences : data.comparison.differences.filter((d) => d.pod.toLowerCase().includes(q));
  }, [data, query]);
  const columns = `minmax(14em, 2fr) ${names.map(() => 'minmax(8em, 1fr)').join(' ')}`;
  return (
    <section id="differences">
      <h2>Pods that differ ({data.comparison.differences.length} of {data.comparison.pods})</h2>
      <div class="toolbar">
        <input data-testid="difference-search" placeholder="pod name" value={query} onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} />
        <span class="muted">{shown.length} pod(s)</span>
      </div>
      <div class="grow" style={{ display: 'grid', gridTemplateColumns: columns, fontWeight: 600 }}>
        <span>pod</span>{names.map((n, i) => <span key={i} style={{ color: colourOf(i) }}>{n}</span>)}
      </div>
      <VirtualList testId="differences" items={shown} rowHeight={24} height={480} renderRow={(d) => (
        <div class="grow" style={{ display: 'grid', gridTemplateColumns: columns }}>
          <span>{d.pod}</span>{d.fates.map((f, i) => <span key={i}>{f}</span>)}
        </div>
      )} />
    </section>
  );
}

export function ComparisonReport({ data }: { data: ComparisonReportData }) {
  return (
    <>
      <header class="top"><h1>{data.title}</h1><span class="muted">kube-scheduler-ts comparison of {data.comparison.variants.length} configurations</span></header>
      <main>
        <SideBySide data={data} />
        {data.comparison.variants.map((_v, i) => <Configuration key={i} data={data} index={i} />)}
        <Differences data={data} />
      </main>
    </>
  );
}
