// Nodes with what is requested on them: cards for a small cluster, a heat map and a searchable
// list at scale. Selecting a node opens it in the YAML editor.
import { useMemo, useState } from 'preact/hooks';
import { formatBytes, formatCpu, heatColor, percent, ratio } from '../shared/format.js';
import { HeatMap } from '../shared/heatmap.js';
import { milliCpu, quantityValue } from '../shared/quantity.js';
import { VirtualList } from '../shared/virtual_list.js';
import type { KubeObject } from './api.js';

interface NodeLoad {
  name: string;
  zone: string;
  cpu: [number, number];
  memory: [number, number];
  pods: [number, number];
  unschedulable: boolean;
  taints: number;
}

/** Above this many nodes the view is a heat map and a list instead of cards. */
const maxCards = 120;

type Containers = { resources?: { requests?: Record<string, string> } }[];

function loads(nodes: KubeObject[], pods: KubeObject[]): NodeLoad[] {
  const requested = new Map<string, [number, number, number]>();
  for (const p of pods) {
    const node = (p.spec?.nodeName as string | undefined) ?? '';
    if (!node) continue;
    const r = requested.get(node) ?? [0, 0, 0];
    for (const c of (p.spec?.containers as Containers | undefined) ?? []) {
      r[0] += milliCpu(c.resources?.requests?.cpu);
      r[1] += quantityValue(c.resources?.requests?.memory);
    }
    r[2]++;
    requested.set(node, r);
  }
  return nodes.map((n) => {
    const name = n.metadata.name ?? '';
    const alloc = ((n.status?.allocatable ?? n.status?.capacity) as Record<string, string> | undefined) ?? {};
    const r = requested.get(name) ?? [0, 0, 0];
    return {
      name,
      zone: n.metadata.labels?.['topology.kubernetes.io/zone'] ?? '',
      cpu: [r[0], milliCpu(alloc.cpu)],
      memory: [r[1], quantityValue(alloc.memory)],
      pods: [r[2], quantityValue(alloc.pods)],
      unschedulable: n.spec?.unschedulable === true,
      taints: ((n.spec?.taints as unknown[] | undefined) ?? []).length,
    };
  });
}

function Bar({ label, used, total, text }: { label: string; used: number; total: number; text: string }) {
  const r = ratio(used, total);
  return (
    <div>
      <div class="muted">{label} {text} ({percent(used, total)})</div>
      <div class="bar"><i style={{ width: `${Math.min(100, 100 * r)}%`, background: heatColor(r) }} /></div>
    </div>
  );
}

function NodeCard({ n, onSelect }: { n: NodeLoad; onSelect: () => void }) {
  return (
    <div class="card node-card" data-testid={`node-${n.name}`} onClick={onSelect} style={{ cursor: 'pointer' }}>
      <b>{n.name}</b> {n.zone && <span class="muted">{n.zone}</span>}
      {n.unschedulable && <span class="badge outcome-Pending">cordoned</span>}
      {n.taints > 0 && <span class="badge">{n.taints} taint(s)</span>}
      <Bar label="cpu" used={n.cpu[0]} total={n.cpu[1]} text={`${formatCpu(n.cpu[0])}/${formatCpu(n.cpu[1])}`} />
      <Bar label="memory" used={n.memory[0]} total={n.memory[1]} text={`${formatBytes(n.memory[0])}/${formatBytes(n.memory[1])}`} />
      <Bar label="pods" used={n.pods[0]} total={n.pods[1]} text={`${n.pods[0]}/${n.pods[1]}`} />
    </div>
  );
}

export function NodesView({ nodes, pods, onSelect }: { nodes: KubeObject[]; pods: KubeObject[]; onSelect: (name: string) => void }) {
  const all = useMemo(() => loads(nodes, pods), [nodes, pods]);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => all.filter((n) => n.name.includes(query.trim())), [all, query]);
  const names = useMemo(() => all.map((n) => n.name), [all]);
  const cpu = useMemo(() => Float64Array.from(all, (n) => ratio(n.cpu[0], n.cpu[1])), [all]);
  return (
    <section>
      <div class="toolbar">
        <h2>Nodes ({nodes.length})</h2>
        <input type="search" placeholder="filter nodes" value={query} onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} />
        <button class="secondary" data-testid="new-node" onClick={() => onSelect('')}>New node</button>
      </div>
      {all.length > maxCards && <HeatMap names={names} values={cpu} onSelect={(i) => onSelect(names[i]!)} testId="node-heatmap" />}
      {shown.length <= maxCards ? (
        <div class="cards">{shown.map((n) => <NodeCard key={n.name} n={n} onSelect={() => onSelect(n.name)} />)}</div>
      ) : (
        <VirtualList items={shown} rowHeight={26} height={480} renderRow={(n) => (
          <div class="grow" onClick={() => onSelect(n.name)}>
            <b>{n.name}</b> <span class="muted">{n.zone}</span> cpu {percent(n.cpu[0], n.cpu[1])} · memory {percent(n.memory[0], n.memory[1])} · pods {n.pods[0]}/{n.pods[1]}
          </div>
        )} />
      )}
    </section>
  );
}
