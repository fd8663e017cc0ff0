// Any kind the API serves: pick a kind, pick an object (or start a new one), edit it in YAML.
import { useMemo, useState } from 'preact/hooks';
import { VirtualList } from '../shared/virtual_list.js';
import { collectionPath, type KindInfo } from './api.js';
import { keyOf, useCollection } from './live.js';
import { ObjectEditor, type EditTarget } from './object_editor.js';

export function ObjectsView({ kinds, target, onTarget }: { kinds: KindInfo[]; target: EditTarget; onTarget: (t: EditTarget) => void }) {
  const kind = kinds.find((k) => k.kind === target.kind) ?? kinds[0];
  const path = useMemo(() => (kind ? collectionPath(kind) : ''), [kind]);
  const items = useCollection(path);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => items.filter((o) => keyOf(o).includes(query.trim())), [items, query]);
  if (!kind) return <p class="muted">Loading kinds…</p>;
  return (
    <section class="split">
      <div>
        <div class="toolbar">
          <select data-testid="kind-select" value={kind.kind} onChange={(e) => onTarget({ kind: (e.currentTarget as HTMLSelectElement).value, name: '' })}>
            {kinds.map((k) => <option key={`${k.group}/${k.kind}`} value={k.kind}>{k.kind}</option>)}
          </select>
          <input type="search" placeholder="filter" value={query} onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} />
          <button class="secondary" onClick={() => onTarget({ kind: kind.kind, name: '' })}>New</button>
        </div>
        <VirtualList items={shown} rowHeight={26} height={520} renderRow={(o) => (
          <div class={`grow ${o.metadata.name === target.name && (o.metadata.namespace ?? '') === (target.namespace ?? '') ? 'selected' : ''}`}
            onClick={() => onTarget({ kind: kind.kind, namespace: o.metadata.namespace, name: o.metadata.name ?? '' })}>{keyOf(o)}</div>
        )} />
      </div>
      <ObjectEditor kinds={kinds} target={{ ...target, kind: kind.kind }} onClose={() => onTarget({ kind: kind.kind, name: '' })} />
    </section>
  );
}
