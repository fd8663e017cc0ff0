// Nodes as a heat map: one cell per node coloured by utilisation, drawn on a canvas so 5,000
// nodes cost one paint; hovering names the node, clicking selects it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { heatColor } from './format.js';

export interface HeatMapProps {
  names: readonly string[];
  /** Utilisation per node, 0..1 (above 1 is drawn as full). */
  values: ArrayLike<number>;
  onSelect?: (index: number) => void;
  width?: number;
  testId?: string;
}

function cellSize(count: number): number {
  if (count <= 200) return 22;
  if (count <= 1000) return 12;
  return 7;
}

export function HeatMap({ names, values, onSelect, width = 720, testId }: HeatMapProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [hover, setHover] = useState<number>(-1);
  const size = cellSize(names.length);
  const columns = Math.max(1, Math.floor(width / size));
  const rows = Math.ceil(names.length / columns);
  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, columns * size, rows * size);
    for (let i = 0; i < names.length; i++) {
      ctx.fillStyle = heatColor(values[i] ?? 0);
      ctx.fillRect((i % columns) * size, Math.floor(i / columns) * size, size - 1, size - 1);
    }
  }, [names, values, columns, rows, size]);
  const at = (e: MouseEvent): number => {
    const r = (e.currentTarget as HTMLCanvasElement).getBoundingClientRect();
    const i = Math.floor((e.clientY - r.top) / size) * columns + Math.floor((e.clientX - r.left) / size);
    return i >= 0 && i < names.length ? i : -1;
  };
  return (
    <div class="heatmap" data-testid={testId}>
      <canvas ref={canvas} width={columns * size} height={rows * size}
        onMouseMove={(e) => setHover(at(e))} onMouseLeave={() => setHover(-1)}
        onClick={(e) => { const i = at(e); if (i >= 0) onSelect?.(i); }} />
      <div class="heatmap-caption">
        {hover >= 0 ? `${names[hover]}: ${Math.round(100 * (values[hover] ?? 0))}%` : `${names.length} nodes, coloured by utilisation`}
        <span class="legend"><i style={{ background: heatColor(0) }} />0% <i style={{ background: heatColor(0.5) }} />50% <i style={{ background: heatColor(1) }} />100%</span>
      </div>
    </div>
  );
}
