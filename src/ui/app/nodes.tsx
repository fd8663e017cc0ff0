// Nodes with what is requested on them (cpu, memory, pods, and DRA devices allocated): cards for
// a small cluster, a heat map and a searchable list at scale, and device use per pool. Selecting
// a node opens it in the YAML editor.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { DevicePools } from '../shared/devices.js';
import { formatBytes, formatCpu, heatColor, percent, ratio } from '../shared/format.js';
import { HeatMap } from '../shared/heatmap.js';
import { milliCpu, quantityValue } from '../shared/quantity.js';
import { VirtualList } from '../shared/virtual_list.js';
import { getJson, type DevicesAnswer, type KubeObject } from './api.js';

interface NodeLoad {
  name: string;
  zone: string;
  cpu: [number, number];
  memory: [number, number];
  pods: [number, number];
  /** Devices allocated and devices local to the node (ResourceSlices). */
  devices: [number, number];
  unschedulable: boolean;
  taints: number;
  /** status.declaredFeatures, which NodeDeclaredFeatures matches pods against. */
  declaredFeatures: string[];
}

/** Above this many nodes the view is a heat map and a list instead of cards. */
const maxCards = 120;
/** Device use is not an API object: it is polled while the tab is open. */
const devicePollMs = 2000;
const resources = ['cpu', 'memory', 'pods', 'devices'] as const;
type Resource = (typeof resources)[number];

type Containers = { resources?: { requests?: Record<string, string> } }[];

function loads(nodes: KubeObject[], pods: KubeObject[], devices: DevicesAnswer): NodeLoad[] {
  const deviceUse = new Map(devices.nodes.map((d) => [d.node, d]));
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
    const d = deviceUse.get(name);
    return {
      name,
      zone: n.metadata.labels?.['topology.kubernetes.io/zone'] ?? '',
      cpu: [r[0], milliCpu(alloc.cpu)],
      memory: [r[1], quantityValue(alloc.memory)],
      pods: [r[2], quantityValue(alloc.pods)],
      devices: [d?.allocated ?? 0, d?.total ?? 0],
      unschedulable: n.spec?.unschedulable === true,
      taints: ((n.spec?.taints as unknown[] | undefined) ?? []).length,
      declaredFeatures: (n.status?.declaredFeatures as string[] | undefined) ?? [],
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
      {n.declaredFeatures.length > 0 && <span class="badge" title={n.declaredFeatures.join('\n')}>{n.declaredFeatures.length} declared feature(s)</span>}
      <Bar label="cpu" used={n.cpu[0]} total={n.cpu[1]} text={`${formatCpu(n.cpu[0])}/${formatCpu(n.cpu[1])}`} />
      <Bar label="memory" used={n.memory[0]} total={n.memory[1]} text={`${formatBytes(n.memory[0])}/${formatBytes(n.memory[1])}`} />
      <Bar label="pods" used={n.pods[0]} total={n.pods[1]} text={`${n.pods[0]}/${n.pods[1]}`} />
      {n.devices[1] > 0 && <Bar label="devices" used={n.devices[0]} total={n.devices[1]} text={`${n.devices[0]}/${n.devices[1]}`} />}
    </div>
  );
}

function useDevices(): DevicesAnswer {
  const [devices, setDevices] = useState<DevicesAnswer>({ nodes: [], pools: [] });
  useEffect(() => {
    let live = true;
    const load = () => getJson<DevicesAnswer>('/ui/api/devices').then((d) => { if (live) setDevices(d); }, () => undefined);
    void load();
    const timer = setInterval(() => void load(), devicePollMs);
    return () => { live = false; clearInterval(timer); };
  }, []);
  return devices;
}

export function NodesView({ nodes, pods, onSelect }: { nodes: KubeObject[]; pods: KubeObject[]; onSelect: (name: string) => void }) {
  const devices = useDevices();
  const all = useMemo(() => loads(nodes, pods, devices), [nodes, pods, devices]);
  const [query, setQuery] = useState('');
  const [resource, setResource] = useState<Resource>('cpu');
  const shown = useMemo(() => all.filter((n) => n.name.includes(query.trim())), [all, query]);
  const names = useMemo(() => all.map((n) => n.name), [all]);
  const heat = useMemo(() => Float64Array.from(all, (n) => ratio(n[resource][0], n[resource][1])), [all, resource]);
  const hasDevices = devices.nodes.length > 0;
  return (
    <section>
      <div class="toolbar">
        <h2>Nodes ({nodes.length})</h2>
        <input type="search" placeholder="filter nodes" value={query} onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} />
        <button class="secondary" data-testid="new-node" onClick={() => onSelect('')}>New node</button>
      </div>
      {(all.length > maxCards || hasDevices) && (
        <>
          <div class="toolbar" data-testid="heatmap-resource">
            {resources.filter((r) => r !== 'devices' || hasDevices).map((r) => (
              <label key={r}><input type="radio" name="node-resource" checked={resource === r} onChange={() => setResource(r)} /> {r}</label>
            ))}
          </div>
          <HeatMap names={names} values={heat} onSelect={(i) => onSelect(names[i]!)} testId="node-heatmap" />
        </>
      )}
      {shown.length <= maxCards ? (
        <div class="cards">{shown.map((n) => <NodeCard key={n.name} n={n} onSelect={() => onSelect(n.name)} />)}</div>
      ) : (
        <VirtualList items={shown} rowHeight={26} height={480} renderRow={(n) => (
          <div class="grow" onClick={() => onSelect(n.name)}>
            <b>{n.name}</b> <span class="muted">{n.zone}</span> cpu {percent(n.cpu[0], n.cpu[1])} · memory {percent(n.memory[0], n.memory[1])} · pods {n.pods[0]}/{n.pods[1]}
            {n.devices[1] > 0 && <> · devices {n.devices[0]}/{n.devices[1]}</>}
          </div>
        )} />
      )}
      {devices.pools.length > 0 && (
        <>
          <h4>Device pools (DRA)</h4>
          <DevicePools pools={devices.pools} />
        </>
      )}
    </section>
  );
}
