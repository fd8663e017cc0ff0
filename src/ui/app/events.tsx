// Events (events.k8s.io/v1) as the scheduler records them, newest first.
import { useMemo, useState } from 'preact/hooks';
import { VirtualList } from '../shared/virtual_list.js';
import type { KubeObject } from './api.js';

interface EventFields {
  reason?: string;
  note?: string;
  type?: string;
  eventTime?: string;
  regarding?: { kind?: string; namespace?: string; name?: string };
  series?: { count?: number; lastObservedTime?: string };
}

const when = (e: EventFields) => e.series?.lastObservedTime ?? e.eventTime ?? '';

export function EventsView({ events, onPod }: { events: KubeObject[]; onPod: (key: string) => void }) {
  const [query, setQuery] = useState('');
  const shown = useMemo(() => (events as unknown as EventFields[])
    .filter((e) => `${e.reason} ${e.note} ${e.regarding?.name}`.includes(query.trim()))
    .sort((a, b) => (when(a) < when(b) ? 1 : when(a) > when(b) ? -1 : 0)), [events, query]);
  return (
    <section>
      <div class="toolbar">
        <h2>Events ({events.length})</h2>
        <input type="search" placeholder="filter events" value={query} onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} />
      </div>
      <VirtualList testId="event-list" items={shown} rowHeight={26} height={560} renderRow={(e) => (
        <div class="grow" title={e.note} onClick={() => e.regarding?.kind === 'Pod' && onPod(`${e.regarding.namespace}/${e.regarding.name}`)}>
          <span class="muted">{when(e).slice(11, 19)}</span> <span class={`badge ${e.type === 'Warning' ? 'outcome-Unschedulable' : 'outcome-Scheduled'}`}>{e.reason}</span>{' '}
          <b>{e.regarding?.namespace ? `${e.regarding.namespace}/` : ''}{e.regarding?.name}</b>
          {(e.series?.count ?? 1) > 1 && <span class="muted"> ×{e.series?.count}</span>} {e.note}
        </div>
      )} />
    </section>
  );
}
