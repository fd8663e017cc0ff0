// uPlot charts as Preact components: lines over time, and bars (histograms, one bar per zone).
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

interface Series {
  label: string;
  color: string;
  values: ArrayLike<number>;
}

export interface ChartProps {
  title: string;
  /** x values (numbers), shared by every series. */
  x: ArrayLike<number>;
  series: Series[];
  kind: 'line' | 'bars';
  xLabel?: string;
  yLabel?: string;
  /** Tick labels for categorical x values (bars per zone, histogram buckets). */
  xTicks?: string[];
  width?: number;
  height?: number;
  testId?: string;
}

export function Chart({ title, x, series, kind, xLabel, yLabel, xTicks, width = 560, height = 240, testId }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const bars = uPlot.paths.bars?.({ size: [0.8, 64], align: 0 });
    const opts: uPlot.Options = {
      title,
      width,
      height,
      scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, max > 0 ? max : 1] } },
      axes: [
        {
          label: xLabel,
          ...(xTicks ? { values: (_u: uPlot, ticks: number[]) => ticks.map((t) => (Number.isInteger(t) && t % labelEvery(xTicks.length) === 0 ? (xTicks[t] ?? '') : '')) } : {}),
          ...(xTicks ? { splits: () => xTicks.map((_t, i) => i) } : {}),
        },
        { label: yLabel },
      ],
      series: [
        { label: xLabel ?? 'x' },
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color,
          fill: kind === 'bars' ? s.color : undefined,
          width: kind === 'bars' ? 0 : 2,
          paths: kind === 'bars' ? bars : undefined,
          points: { show: false },
        })),
      ],
      legend: { show: true },
      cursor: { drag: { x: kind === 'line', y: false } },
    };
    const data = [Array.from(x), ...series.map((s) => Array.from(s.values))] as uPlot.AlignedData;
    const plot = new uPlot(opts, data, box.current);
    return () => plot.destroy();
  }, [title, x, series, kind, xLabel, yLabel, xTicks, width, height]);
  return <div class="chart" data-testid={testId} ref={box} />;
}

/** Label every n-th category so that at most about ten labels share the axis. */
function labelEvery(count: number): number {
  return Math.max(1, Math.ceil(count / 10));
}

/** Counts of `values` (0..1) in `buckets` equal-width buckets. */
export function histogram(values: ArrayLike<number>, buckets: number): number[] {
  const counts = new Array<number>(buckets).fill(0);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const b = Math.min(buckets - 1, Math.max(0, Math.floor(v * buckets)));
    counts[b]!++;
  }
  return counts;
}
