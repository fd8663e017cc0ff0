// A list that renders only the rows in view (fixed row height), so 100,000 pods scroll smoothly.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export interface VirtualListProps<T> {
  items: readonly T[];
  rowHeight: number;
  /** Height of the scrolling box in pixels. */
  height: number;
  renderRow: (item: T, index: number) => ComponentChildren;
  testId?: string;
}

/** Rows drawn beyond the visible ones, above and below, so fast scrolling shows no gaps. */
const overscan = 8;

export function VirtualList<T>({ items, rowHeight, height, renderRow, testId }: VirtualListProps<T>) {
  const [scrollTop, setScrollTop] = useState(0);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  const rows: ComponentChildren[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div class="vrow" key={i} style={{ top: `${i * rowHeight}px`, height: `${rowHeight}px` }}>
        {renderRow(items[i]!, i)}
      </div>,
    );
  }
  return (
    <div class="vlist" data-testid={testId} style={{ height: `${Math.min(height, Math.max(rowHeight, items.length * rowHeight))}px` }}
      onScroll={(e) => setScrollTop((e.currentTarget as HTMLDivElement).scrollTop)}>
      <div style={{ height: `${items.length * rowHeight}px`, position: 'relative' }}>{rows}</div>
    </div>
  );
}
