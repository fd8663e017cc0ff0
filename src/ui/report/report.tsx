// The report: summary, utilisation (histogram, per zone, heat map, most loaded nodes), the queue
// over the run, unschedulable pods grouped by reason, preemptions, and every pod's decision.
import { useMemo, useState } from 'preact/hooks';
import { decisionFromReport, reportOutcomes, type ReportData } from '../../sim/report/report_model.js';
import { Chart, histogram } from '../shared/chart.js';
import { DecisionPanel } from '../shared/decision.js';
import { DevicePools } from '../shared/devices.js';
import { formatBytes, formatCpu, percent, ratio } from '../shared/format.js';
import { HeatMap } from '../shared/heatmap.js';
import { VirtualList } from '../shared/virtual_list.js';

/** cpu, memory, pods, devices (DRA), or an extended resource's name (nvidia.com/gpu). */
type Resource = string;
/** Where each resource's requested and allocatable values sit in a ReportNode row. */
type NumericColumn = 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
const columns: Record<string, [NumericColumn, NumericColumn]> = { cpu: [2, 3], memory: [4, 5], pods: [6, 7], devices: [8, 9] };
const buckets = 20;

/** Per node (by index), the resource's requested and allocatable amounts: a ReportNode column pair, or an extended resource's columns. */
function amounts(data: ReportData, resource: Resource): { requested: (i: number) => number; allocatable: (i: number) => number } {
  const cols = columns[resource];
  if (cols !== undefined) return { requested: (i) => data.nodes[i]![cols[0]], allocatable: (i) => data.nodes[i]![cols[1]] };
  const ext = data.extended?.find((e) => e.name === resource);
  return { requested: (i) => ext?.requested[i] ?? 0, allocatable: (i) => ext?.allocatable[i] ?? 0 };
}

function formatAmount(r: Resource, v: number): string {
  if (r === 'cpu') return formatCpu(v);
  if (r === 'memory') return formatBytes(v);
  return String(v);
}

function Summary({ data }: { data: ReportData }) {
  const s = data.summary;
  const stats: [string, string | number][] = [
    ['nodes', data.nodes.length], ['pods', data.pods.length], ['scheduled', s.scheduled], ['unschedulable', s.unschedulable],
    ['pending', s.pending], ['preempted', s.preempted], ['simulated', `${s.simulatedSeconds}s`], ['wall', `${s.wallSeconds.toFixed(1)}s`],
  ];
  // Gangs: placed means at least minCount members scheduled.
  if (data.groups) stats.splice(4, 0, ['pod groups placed', `${data.groups.placed} of ${data.groups.total}`]);
  return (
    <div class="cards" data-testid="summary">
      {stats.map(([k, v]) => <div class="card" key={k}><div class="muted">{k}</div><div class="stat">{v}</div></div>)}
    </div>
  );
}

function Utilisation({ data, onNode }: { data: ReportData; onNode: (name: string) => void }) {
  const hasDevices = data.nodes.some((n) => n[9] > 0);
  const [resource, setResource] = useState<Resource>('cpu');
  const { requested, allocatable } = useMemo(() => amounts(data, resource), [data, resource]);
  const values = useMemo(() => Float64Array.from(data.nodes, (_n, i) => ratio(requested(i), allocatable(i))), [data, requested, allocatable]);
  const names = useMemo(() => data.nodes.map((n) => n[0]), [data]);
  const hist = useMemo(() => histogram(values, buckets), [values]);
  const bucketX = useMemo(() => hist.map((_c, i) => i), [hist]);
  const bucketTicks = useMemo(() => hist.map((_c, i) => `${(100 * i) / buckets}%`), [hist]);
  const perZone = useMemo(() => {
    const zoneRequested = data.zones.map(() => 0);
    const zoneAllocatable = data.zones.map(() => 0);
    data.nodes.forEach((n, i) => {
      zoneRequested[n[1]] = (zoneRequested[n[1]] ?? 0) + requested(i);
      zoneAllocatable[n[1]] = (zoneAllocatable[n[1]] ?? 0) + allocatable(i);
    });
    return zoneRequested.map((r, i) => 100 * ratio(r, zoneAllocatable[i]!));
  }, [data, requested, allocatable]);
  const zoneX = useMemo(() => data.zones.map((_z, i) => i), [data]);
  const zoneTicks = useMemo(() => data.zones.map((z) => z || '(no zone)'), [data]);
  const top = useMemo(() => [...data.nodes.keys()].sort((a, b) => values[b]! - values[a]!).slice(0, 10), [data, values]);
  const resources: Resource[] = [...(hasDevices ? ['cpu', 'memory', 'pods', 'devices'] : ['cpu', 'memory', 'pods']), ...(data.extended ?? []).map((e) => e.name)];
  return (
    <section id="utilisation">
      <h2>Utilisation</h2>
      <div class="toolbar">
        {resources.map((r) => (
          <label key={r}><input type="radio" name="resource" checked={resource === r} onChange={() => setResource(r)} /> {r}</label>
        ))}
      </div>
      <div class="row">
        <Chart testId="chart-histogram" title={`Nodes by ${resource} requested / allocatable`} kind="bars" x={bucketX} xTicks={bucketTicks}
          series={[{ label: 'nodes', color: '#5b8def', values: hist }]} xLabel="utilisation" yLabel="nodes" />
        <Chart testId="chart-zones" title={`${resource} requested per zone (%)`} kind="bars" x={zoneX} xTicks={zoneTicks}
          series={[{ label: '% requested', color: '#e8a33d', values: perZone }]} xLabel="zone" yLabel="%" width={360} />
      </div>
      <HeatMap testId="node-heatmap" names={names} values={values} onSelect={(i) => onNode(names[i]!)} />
      <h4>Most loaded nodes ({resource})</h4>
      <table class="grid" data-testid="top-nodes">
        <thead><tr><th>node</th><th>zone</th><th class="num">requested</th><th class="num">allocatable</th><th class="num">%</th></tr></thead>
        <tbody>{top.map((i) => {
          const n = data.nodes[i]!;
          return (
            <tr key={n[0]}><td>{n[0]}</td><td>{data.zones[n[1]] || '-'}</td><td class="num">{formatAmount(resource, requested(i))}</td>
              <td class="num">{formatAmount(resource, allocatable(i))}</td><td class="num">{percent(requested(i), allocatable(i))}</td></tr>
          );
        })}</tbody>
      </table>
      {data.devicePools && data.devicePools.length > 0 && (
        <>
          <h4>Device pools (DRA)</h4>
          <DevicePools pools={data.devicePools} />
        </>
      )}
    </section>
  );
}

function Queue({ data }: { data: ReportData }) {
  const q = data.queue;
  const series = useMemo(() => [
    { label: 'active', color: '#2f6fde', values: q.active },
    { label: 'backoff', color: '#e8a33d', values: q.backoff },
    { label: 'unschedulable', color: '#d9534f', values: q.unschedulable },
    { label: 'gated', color: '#8a6fd1', values: q.gated },
  ], [q]);
  const [overTime, setOverTime] = useState(false);
  if (q.attempt.length === 0) return null;
  const last = q.time.length - 1;
  return (
    <section id="queue">
      <h2>Scheduling queue over the run</h2>
      <p class="muted">Pods waiting after each scheduling attempt ({q.attempt[last]} attempts sampled {q.attempt.length} times, simulated time 0–{q.time[last]}s).</p>
      <div class="toolbar">
        <label><input type="radio" name="queue-x" checked={!overTime} onChange={() => setOverTime(false)} /> by attempt</label>
        <label><input type="radio" name="queue-x" checked={overTime} onChange={() => setOverTime(true)} /> by simulated time</label>
      </div>
      <Chart testId="chart-queue" title="Pending pods by queue" kind="line" x={overTime ? q.time : q.attempt} series={series}
        xLabel={overTime ? 'simulated seconds' : 'scheduling attempts'} yLabel="pods" width={900} />
    </section>
  );
}

function Unschedulable({ data, onPod }: { data: ReportData; onPod: (i: number) => void }) {
  const groups = useMemo(() => {
    const byMessage = new Map<string, number[]>();
    data.pods.forEach((p, i) => {
      const outcome = reportOutcomes[p[1]];
      if (outcome !== 'Unschedulable' && outcome !== 'Gated' && outcome !== 'Pending') return;
      const d = p[4] >= 0 ? data.decisions[p[4]]! : null;
      const msg = outcome === 'Gated' ? 'waiting for scheduling gates' : d ? (data.messages[d.message] ?? '') : 'never attempted';
      let g = byMessage.get(msg);
      if (!g) byMessage.set(msg, (g = []));
      g.push(i);
    });
    return [...byMessage.entries()].sort((a, b) => b[1].length - a[1].length);
  }, [data]);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section id="unschedulable">
      <h2>Pods not scheduled, by reason ({groups.reduce((n, g) => n + g[1].length, 0)})</h2>
      {groups.length === 0 ? <p class="muted">Every pod was scheduled.</p> : (
        <table class="grid" data-testid="unschedulable-groups">
          <thead><tr><th class="num">pods</th><th>reason</th></tr></thead>
          <tbody>{groups.map(([msg, pods]) => (
            <>
              <tr key={msg}>
                <td class="num"><button class="link" onClick={() => setOpen(open === msg ? null : msg)}>{pods.length} {open === msg ? '▾' : '▸'}</button></td>
                <td><code>{msg}</code></td>
              </tr>
              {open === msg && (
                <tr><td colSpan={2}>
                  <VirtualList items={pods} rowHeight={22} height={200} renderRow={(i) => <span onClick={() => onPod(i)}>{data.pods[i]![0]}</span>} />
                </td></tr>
              )}
            </>
          ))}</tbody>
        </table>
      )}
    </section>
  );
}

function Preemptions({ data, onPod }: { data: ReportData; onPod: (pod: string) => void }) {
  if (data.preemptions.length === 0) return null;
  return (
    <section id="preemptions">
      <h2>Preemptions ({data.preemptions.length})</h2>
      <VirtualList testId="preemptions" items={data.preemptions} rowHeight={24} height={240} renderRow={(p) => (
        <span class="grow" onClick={() => onPod(p.preemptor)}><b>{p.preemptor}</b> on {p.node || '-'} at {p.time}s evicts {p.victims.join(', ')}</span>
      )} />
    </section>
  );
}

function Pods({ data, columns, selected, onPod }: { data: ReportData; columns: DataView; selected: number; onPod: (i: number) => void }) {
  const [query, setQuery] = useState('');
  const [outcome, setOutcome] = useState(-1);
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    const out: number[] = [];
    data.pods.forEach((p, i) => {
      if (outcome >= 0 && p[1] !== outcome) return;
      if (q && !p[0].toLowerCase().includes(q)) return;
      out.push(i);
    });
    return out;
  }, [data, query, outcome]);
  const view = useMemo(() => (selected >= 0 ? decisionFromReport(data, selected, columns) : null), [data, columns, selected]);
  const selectedPod = selected >= 0 ? data.pods[selected] : undefined;
  return (
    <section id="pods">
      <h2>Pods and their decisions</h2>
      <div class="split">
        <div>
          <div class="toolbar">
            <input type="search" placeholder="search pods" value={query} data-testid="pod-search" onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} />
            <select value={outcome} onChange={(e) => setOutcome(Number((e.currentTarget as HTMLSelectElement).value))}>
              <option value={-1}>all outcomes</option>
              {reportOutcomes.map((o, i) => <option key={o} value={i}>{o}</option>)}
            </select>
            <span class="muted">{shown.length} pod(s)</span>
          </div>
          <VirtualList testId="pod-list" items={shown} rowHeight={26} height={520} renderRow={(i) => {
            const p = data.pods[i]!;
            const o = reportOutcomes[p[1]]!;
            return (
              <div class={`grow ${i === selected ? 'selected' : ''}`} onClick={() => onPod(i)}>
                <span class={`badge outcome-${o}`}>{o}</span> {p[0]} {p[2] >= 0 && <span class="muted">→ {data.nodes[p[2]]?.[0]}</span>}
              </div>
            );
          }} />
        </div>
        <div>
          {view ? <DecisionPanel view={view} /> : selectedPod ? (
            <p class="muted">{selectedPod[0]}: {reportOutcomes[selectedPod[1]]}, no scheduling attempt was recorded (existing load or never attempted).</p>
          ) : <p class="muted">Select a pod to see its decision.</p>}
          {data.omittedFields.length > 0 && <p class="muted">Left out at this scale: {data.omittedFields.join(', ')} (see explain --output json).</p>}
        </div>
      </div>
    </section>
  );
}

export function Report({ data, columns }: { data: ReportData; columns: DataView }) {
  const [selected, setSelected] = useState(-1);
  const podIndex = useMemo(() => new Map(data.pods.map((p, i) => [p[0], i])), [data]);
  const select = (i: number) => {
    setSelected(i);
    document.getElementById('pods')?.scrollIntoView({ behavior: 'smooth' });
  };
  const nodeToPods = (name: string) => {
    const i = data.pods.findIndex((p) => data.nodes[p[2]]?.[0] === name);
    if (i >= 0) select(i);
  };
  return (
    <>
      <header class="top"><h1>{data.title}</h1><span class="muted">kube-scheduler-ts simulation report</span></header>
      <main>
        <Summary data={data} />
        <Utilisation data={data} onNode={nodeToPods} />
        <Queue data={data} />
        <Unschedulable data={data} onPod={select} />
        <Preemptions data={data} onPod={(pod) => { const i = podIndex.get(pod); if (i !== undefined) select(i); }} />
        <Pods data={data} columns={columns} selected={selected} onPod={select} />
      </main>
    </>
  );
}
