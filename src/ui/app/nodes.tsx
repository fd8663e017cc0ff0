// Nodes with what is requested on them (cpu, memory, pods, extended resources such as
// nvidia.com/gpu, and DRA devices allocated), counted as the scheduler counts them: cards for
// a small cluster, a heat map and a searchable list at scale, and device use per pool. Selecting
// a node opens it in the YAML editor.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { DevicePools } from '../shared/devices.js';
import { formatBytes, formatCpu, heatColor, percent, ratio } from '../shared/format.js';
import { HeatMap } from '../shared/heatmap.js';
import { milliCpu, quantityValue } from '../shared/quantity.js';
import { podRequests } from '../shared/pod_requests.js';
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
  /** Requested and allocatable of each extended resource the node offers, by name. */
  extended: Map<string, [number, number]>;
  unschedulable: boolean;
  taints: number;
  /** status.declaredFeatures, which NodeDeclaredFeatures matches pods against. */
  declaredFeatures: string[];
}

/** Above this many nodes the view is a heat map and a list instead of cards. */
const maxCards = 120;
/** Device use is not an API object: it is polled while the tab is open. */
const devicePollMs = 2000;
const builtinResources = ['cpu', 'memory', 'pods', 'devices'];

/** An extended resource (v1helper.IsExtendedResourceName): a domain-qualified name outside kubernetes.io/. */
const isExtended = (name: string): boolean => name.includes('/') && !name.startsWith('kubernetes.io/') && !name.startsWith('requests.');

/** The used and total of `resource` on a node, for the heat map. */
function usage(n: NodeLoad, resource: string): [number, number] {
  switch (resource) {
    case 'cpu': return n.cpu;
    case 'memory': return n.memory;
    case 'pods': return n.pods;
    case 'devices': return n.devices;
    default: return n.extended.get(resource) ?? [0, 0];
  }
}

function loads(nodes: KubeObject[], pods: KubeObject[], devices: DevicesAnswer): NodeLoad[] {
  const deviceUse = new Map(devices.nodes.map((d) => [d.node, d]));
  const requested = new Map<string, Map<string, number>>();
  const podCount = new Map<string, number>();
  for (const p of pods) {
    const node = (p.spec?.nodeName as string | undefined) ?? '';
    const reqs = node ? podRequests(p as Parameters<typeof podRequests>[0]) : null;
    if (reqs === null) continue;
    const r = requested.get(node) ?? new Map<string, number>();
    for (const [name, v] of reqs) r.set(name, (r.get(name) ?? 0) + v);
    requested.set(node, r);
    podCount.set(node, (podCount.get(node) ?? 0) + 1);
  }
  return nodes.map((n) => {
    const name = n.metadata.name ?? '';
    const alloc = ((n.status?.allocatable ?? n.status?.capacity) as Record<string, string> | undefined) ?? {};
    const req = requested.get(name) ?? new Map<string, number>();
    const r: [number, number, number] = [Math.round((req.get('cpu') ?? 0) * 1000), req.get('memory') ?? 0, podCount.get(name) ?? 0];
    const d = deviceUse.get(name);
    const extended = new Map<string, [number, number]>();
    for (const [res, q] of Object.entries(alloc)) if (isExtended(res) && quantityValue(q) > 0) extended.set(res, [req.get(res) ?? 0, quantityValue(q)]);
    return {
      name,
      zone: n.metadata.labels?.['topology.kubernetes.io/zone'] ?? '',
      cpu: [r[0], milliCpu(alloc.cpu)],
      memory: [r[1], quantityValue(alloc.memory)],
      pods: [r[2], quantityValue(alloc.pods)],
      devices: [d?.allocated ?? 0, d?.total ?? 0],
      extended,
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
      {[...n.extended].map(([res, [used, total]]) => <Bar key={res} label={res} used={used} total={total} text={`${used}/${total}`} />)}
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
  const [resource, setResource] = useState<string>('cpu');
  const shown = useMemo(() => all.filter((n) => n.name.includes(query.trim())), [all, query]);
  const names = useMemo(() => all.map((n) => n.name), [all]);
  const heat = useMemo(() => Float64Array.from(all, (n) => { const [used, total] = usage(n, resource); return ratio(used, total); }), [all, resource]);
  const hasDevices = devices.nodes.length > 0;
  const extendedNames = useMemo(() => [...new Set(all.flatMap((n) => [...n.extended.keys()]))].sort(), [all]);
  const resources = [...builtinResources.filter((r) => r !== 'devices' || hasDevices), ...extendedNames];
  return (
    <section>
      <div class="toolbar">
        <h2>Nodes ({nodes.length})</h2>
        <input type="search" placeholder="filter nodes" value={query} onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} />
        <button class="secondary" data-testid="new-node" onClick={() => onSelect('')}>New node</button>
      </div>
      {(all.length > maxCards || hasDevices || extendedNames.length > 0) && (
        <>
          <div class="toolbar" data-testid="heatmap-resource">
            {resources.map((r) => (
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
            {[...n.extended].map(([res, [used, total]]) => <span key={res}> · {res} {used}/{total}</span>)}
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
