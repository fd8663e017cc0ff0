// DRA devices in the workbench: a pod's devices per claim, why rejected nodes had none for it,
// and device use per pool (the report and the live UI show the same tables).
import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import type { ExplainDevice } from '../../sim/report/dra_report.js';
import type { DeviceGroup } from '../../sim/report/report_model.js';
import { Chart, histogram } from './chart.js';
import { percent, ratio } from './format.js';
import { VirtualList } from './virtual_list.js';

interface PoolUse {
  driver: string;
  pool: string;
  allocated: number;
  total: number;
}

/** The devices allocated to a pod's claims, one row per device. */
export function PodDevicesTable({ devices }: { devices: readonly ExplainDevice[] }) {
  return (
    <table class="grid" data-testid="pod-devices">
      <thead><tr><th>claim</th><th>request</th><th>driver</th><th>pool</th><th>device</th></tr></thead>
      <tbody>{devices.map((d) => (
        <tr key={`${d.claim}/${d.request}/${d.pool}/${d.device}`}>
          <td>{d.claim}</td><td>{d.request}</td><td>{d.driver}</td><td>{d.pool}</td><td>{d.device}{d.adminAccess ? ' (admin access)' : ''}</td>
        </tr>
      ))}</tbody>
    </table>
  );
}

const wantedText = (w: number | 'All') => (w === 'All' ? 'all' : String(w));

/** Per group of nodes judged alike: each request they fell short on and why. */
export function DeviceShortfallTable({ groups, nodesCell }: { groups: readonly DeviceGroup[]; nodesCell: (nodes: string[]) => ComponentChildren }) {
  return (
    <table class="grid" data-testid="device-shortfalls">
      <thead><tr><th>nodes</th><th>claim</th><th>request</th><th class="num">wanted</th><th class="num">available</th><th>why</th></tr></thead>
      <tbody>{groups.flatMap((g, i) => g.shortfalls.map((s, j) => (
        <tr key={`${i}/${j}`}>
          {j === 0 && <td class="num" rowSpan={g.shortfalls.length}>{nodesCell(g.nodes)}</td>}
          <td>{s.claim}</td><td>{s.request || '(all requests)'}</td><td class="num">{wantedText(s.wanted)}</td><td class="num">{s.available}</td>
          <td>{s.selector ? <>without <code>{s.selector}</code> it would fit</> : (s.reason ?? 'not enough matching devices')}</td>
        </tr>
      )))}</tbody>
    </table>
  );
}

/** Above this many pools the chart is a histogram of pools by use instead of a bar per pool. */
const maxPoolBars = 24;

/** Device use per pool: a chart (a bar per pool, or pools by use at scale) and a table. */
export function DevicePools({ pools }: { pools: readonly PoolUse[] }) {
  // The chart redraws when its arrays change: build them once per list of pools.
  const chart = useMemo(() => {
    const use = Float64Array.from(pools, (p) => ratio(p.allocated, p.total));
    if (pools.length <= maxPoolBars) {
      return { title: 'Devices allocated per pool (%)', x: pools.map((_p, i) => i), ticks: pools.map((p) => p.pool), xLabel: 'pool', yLabel: '%',
        series: [{ label: '% allocated', color: '#8a6fd1', values: use.map((u) => 100 * u) }] };
    }
    const hist = histogram(use, 10);
    return { title: 'Pools by devices allocated', x: hist.map((_c, i) => i), ticks: hist.map((_c, i) => `${10 * i}%`), xLabel: 'allocated', yLabel: 'pools',
      series: [{ label: 'pools', color: '#8a6fd1', values: hist }] };
  }, [pools]);
  return (
    <div data-testid="device-pools">
      <Chart testId="chart-device-pools" title={chart.title} kind="bars" x={chart.x} xTicks={chart.ticks} series={chart.series} xLabel={chart.xLabel} yLabel={chart.yLabel} width={560} />
      <VirtualList testId="device-pool-list" items={pools} rowHeight={24} height={240} renderRow={(p) => (
        <span class="grow">{p.driver} / <b>{p.pool}</b>: {p.allocated} of {p.total} device(s) allocated ({percent(p.allocated, p.total)})</span>
      )} />
    </div>
  );
}
