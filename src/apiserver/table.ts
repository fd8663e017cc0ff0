// Server-side printing: meta.k8s.io/v1 Table responses for `kubectl get`, with the columns of
// upstream's printers (pkg/printers/internalversion/printers.go) and its default table convertor
// (staging/src/k8s.io/apiserver/pkg/registry/rest/table.go) for the other kinds.
import type { KubeObject, Node, Pod } from '../api/types.js';
import type { ResourceClaim, ResourceSlice } from '../api/dra_types.js';
import { convertEvent } from './events.js';
import type { Resource } from './resources.js';
import { age, ageColumn, humanDuration, nameColumn, type Cell, type Printer } from './table_columns.js';
import { workloadPrinters } from './workload_table.js';
import { schedulingPrinters } from './scheduling_table.js';

const orNone = (s: string | undefined) => (s ? s : '<none>');

function podCells(o: KubeObject, now: number): Cell[] {
  const pod = o as Pod;
  const status = pod.status ?? {};
  let reason: string = status.reason || status.phase || '';
  for (const c of status.conditions ?? []) if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  let ready = 0;
  let restarts = 0;
  const statuses = status.containerStatuses ?? [];
  for (let i = statuses.length - 1; i >= 0; i--) {
    const cs = statuses[i]!;
    restarts += cs.restartCount ?? 0;
    if (cs.state?.waiting?.reason) reason = cs.state.waiting.reason;
    else if (cs.state?.terminated?.reason) reason = cs.state.terminated.reason;
    else if (cs.ready && cs.state?.running) ready++;
  }
  if (pod.metadata.deletionTimestamp && status.phase !== 'Succeeded' && status.phase !== 'Failed') reason = 'Terminating';
  const gates = pod.spec.readinessGates ?? [];
  let gatesCell = '<none>';
  if (gates.length > 0) {
    let trueCount = 0;
    for (const g of gates) if ((status.conditions ?? []).some((c) => c.type === g.conditionType && c.status === 'True')) trueCount++;
    gatesCell = `${trueCount}/${gates.length}`;
  }
  return [
    pod.metadata.name ?? '',
    `${ready}/${pod.spec.containers.length}`,
    reason,
    String(restarts),
    age(o, now),
    orNone(status.podIPs?.[0]?.ip ?? status.podIP),
    orNone(pod.spec.nodeName),
    orNone(status.nominatedNodeName),
    gatesCell,
  ];
}

function nodeCells(o: KubeObject, now: number): Cell[] {
  const node = o as Node;
  const conditions = node.status?.conditions ?? [];
  const status: string[] = [];
  const readyCond = conditions.find((c) => c.type === 'Ready');
  if (readyCond) status.push(readyCond.status === 'True' ? 'Ready' : 'NotReady');
  if (status.length === 0) status.push('Unknown');
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  const roles: string[] = [];
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/') && k.length > 'node-role.kubernetes.io/'.length) roles.push(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && v) roles.push(v);
  }
  const info = node.status?.nodeInfo;
  const address = (type: string) => node.status?.addresses?.find((a) => a.type === type)?.address;
  return [
    node.metadata.name ?? '',
    status.join(','),
    roles.length > 0 ? [...new Set(roles)].sort().join(',') : '<none>',
    age(o, now),
    info?.kubeletVersion ?? '',
    orNone(address('InternalIP')),
    orNone(address('ExternalIP')),
    info?.osImage || '<unknown>',
    info?.kernelVersion || '<unknown>',
    info?.containerRuntimeVersion || '<unknown>',
  ];
}

interface EventLike extends KubeObject {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string;
  series?: { count?: number; lastObservedTime?: string };
  involvedObject?: { kind?: string; name?: string; fieldPath?: string };
  source?: { component?: string; host?: string };
  reportingComponent?: string;
  reportingInstance?: string;
}

function since(t: string | undefined, now: number): string {
  return t ? humanDuration(now - Date.parse(t)) : '<unknown>';
}

/** Core v1 events (events.k8s.io objects are converted to that shape before printing). */
function eventCells(o: KubeObject, now: number): Cell[] {
  const e = o as EventLike;
  const first = e.firstTimestamp ? since(e.firstTimestamp, now) : since(e.eventTime, now);
  let last = e.lastTimestamp ? since(e.lastTimestamp, now) : first;
  let count = e.count ?? 0;
  if (e.series) {
    last = since(e.series.lastObservedTime, now);
    count = e.series.count ?? 0;
  } else if (count === 0) {
    count = 1;
  }
  const target = e.involvedObject?.name ? `${(e.involvedObject.kind ?? '').toLowerCase()}/${e.involvedObject.name}` : (e.involvedObject?.kind ?? '').toLowerCase();
  const source = e.source?.component ? (e.source.host ? `${e.source.component}, ${e.source.host}` : e.source.component)
    : (e.reportingComponent ? (e.reportingInstance ? `${e.reportingComponent}, ${e.reportingInstance}` : e.reportingComponent) : '');
  return [last, e.type ?? '', e.reason ?? '', target, e.involvedObject?.fieldPath ?? '', source, (e.message ?? '').trim(), first, count, e.metadata?.name ?? ''];
}

/** A claim's state: deleted, pending, allocated, reserved (printers.go resourceClaimState). */
function resourceClaimState(c: ResourceClaim): string {
  const states: string[] = [];
  if (c.metadata.deletionTimestamp) states.push('deleted');
  if (!c.status?.allocation) {
    if (!c.metadata.deletionTimestamp) states.push('pending');
  } else {
    states.push('allocated');
    if ((c.status.reservedFor?.length ?? 0) > 0) states.push('reserved');
  }
  return states.join(',');
}

const nameAndAge: Printer = { columns: [nameColumn, ageColumn], cells: (o, now) => [o.metadata?.name ?? '', age(o, now)] };

const printers: Record<string, Printer> = {
  ...workloadPrinters,
  ...schedulingPrinters,
  DeviceClass: nameAndAge,
  ResourceClaimTemplate: nameAndAge,
  ResourceClaim: {
    columns: [nameColumn, { name: 'State', type: 'string', description: 'A summary of the current state (allocated, pending, reserved, etc.).' }, ageColumn],
    cells: (o, now) => [o.metadata?.name ?? '', resourceClaimState(o as ResourceClaim), age(o, now)],
  },
  ResourceSlice: {
    columns: [
      nameColumn,
      { name: 'Node', type: 'string', description: 'NodeName identifies the node which provides the resources in this pool. A field selector can be used to list only ResourceSlice objects belonging to a certain node.\n\nThis field can be used to limit access from nodes to ResourceSlices with the same node name. It also indicates to autoscalers that adding new nodes of the same type as some old node might also make new resources available.\n\nExactly one of NodeName, NodeSelector, AllNodes, and PerDeviceNodeSelection must be set. This field is immutable.' },
      { name: 'Driver', type: 'string', description: 'Driver identifies the DRA driver providing the capacity information. A field selector can be used to list only ResourceSlice objects with a certain driver name.\n\nMust be a DNS subdomain and should end with a DNS domain owned by the vendor of the driver. It should use only lower case characters. This field is immutable.' },
      { name: 'Pool', type: 'string', description: 'Name is used to identify the pool. For node-local devices, this is often the node name, but this is not required. A field selector can be used to list only ResourceSlice objects belonging to a certain pool.\n\nIt must not be longer than 253 characters and must consist of one or more DNS sub-domains separated by slashes. This field is immutable.' },
      ageColumn,
    ],
    cells: (o, now) => {
      const s = (o as ResourceSlice).spec;
      return [o.metadata?.name ?? '', s?.nodeName ?? '', s?.driver ?? '', s?.pool?.name ?? '', age(o, now)];
    },
  },
  Pod: {
    columns: [
      nameColumn,
      { name: 'Ready', type: 'string', description: 'The aggregate readiness state of this pod for accepting traffic.' },
      { name: 'Status', type: 'string', description: 'The aggregate status of the containers in this pod.' },
      { name: 'Restarts', type: 'string', description: 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.' },
      ageColumn,
      { name: 'IP', type: 'string', priority: 1, description: 'podIP address allocated to the pod.' },
      { name: 'Node', type: 'string', priority: 1, description: 'NodeName indicates in which node this pod is scheduled.' },
      { name: 'Nominated Node', type: 'string', priority: 1, description: 'nominatedNodeName is set only when this pod preempts other pods on the node.' },
      { name: 'Readiness Gates', type: 'string', priority: 1, description: 'If specified, all readiness gates will be evaluated for pod readiness.' },
    ],
    cells: podCells,
  },
  Node: {
    columns: [
      nameColumn,
      { name: 'Status', type: 'string', description: 'The status of the node' },
      { name: 'Roles', type: 'string', description: 'The roles of the node' },
      ageColumn,
      { name: 'Version', type: 'string', description: 'Kubelet Version reported by the node.' },
      { name: 'Internal-IP', type: 'string', priority: 1, description: 'List of addresses reachable to the node.' },
      { name: 'External-IP', type: 'string', priority: 1, description: 'List of addresses reachable to the node.' },
      { name: 'OS-Image', type: 'string', priority: 1, description: 'OS Image reported by the node from /etc/os-release.' },
      { name: 'Kernel-Version', type: 'string', priority: 1, description: "Kernel Version reported by the node from 'uname -r'." },
      { name: 'Container-Runtime', type: 'string', priority: 1, description: 'ContainerRuntime Version reported by the node through runtime remote API.' },
    ],
    cells: nodeCells,
  },
  Namespace: {
    columns: [nameColumn, { name: 'Status', type: 'string', description: 'The status of the namespace' }, ageColumn],
    cells: (o, now) => [o.metadata?.name ?? '', String((o as { status?: { phase?: string } }).status?.phase ?? ''), age(o, now)],
  },
  Event: {
    columns: [
      { name: 'Last Seen', type: 'string', description: 'The time at which the most recent occurrence of this event was recorded.' },
      { name: 'Type', type: 'string', description: 'Type of this event (Normal, Warning), new types could be added in the future' },
      { name: 'Reason', type: 'string', description: 'This should be a short, machine understandable string that gives the reason for the transition into the object\'s current status.' },
      { name: 'Object', type: 'string', description: 'The object that this event is about.' },
      { name: 'Subobject', type: 'string', priority: 1, description: 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement.' },
      { name: 'Source', type: 'string', priority: 1, description: 'The component reporting this event.' },
      { name: 'Message', type: 'string', description: 'A human-readable description of the status of this operation.' },
      { name: 'First Seen', type: 'string', priority: 1, description: 'The time at which the event was first recorded.' },
      { name: 'Count', type: 'string', priority: 1, description: 'The number of times this event has occurred.' },
      { name: 'Name', type: 'string', priority: 1, format: 'name', description: 'Name must be unique within a namespace.' },
    ],
    cells: (o, now) => eventCells(convertEvent(o, 'v1'), now),
  },
  Lease: {
    columns: [nameColumn, { name: 'Holder', type: 'string', description: 'holderIdentity contains the identity of the holder of a current lease.' }, ageColumn],
    cells: (o, now) => [o.metadata?.name ?? '', (o as { spec?: { holderIdentity?: string } }).spec?.holderIdentity ?? '', age(o, now)],
  },
  PriorityClass: {
    columns: [
      nameColumn,
      { name: 'Value', type: 'integer', description: 'value represents the integer value of this priority class.' },
      { name: 'Global-Default', type: 'boolean', description: 'globalDefault specifies whether this PriorityClass should be considered as the default priority.' },
      ageColumn,
      { name: 'PreemptionPolicy', type: 'string', description: 'preemptionPolicy is the Policy for preempting pods with lower priority.' },
    ],
    cells: (o, now) => {
      const pc = o as { value?: number; globalDefault?: boolean; preemptionPolicy?: string };
      return [o.metadata?.name ?? '', pc.value ?? 0, pc.globalDefault ?? false, age(o, now), pc.preemptionPolicy ?? 'PreemptLowerPriority'];
    },
  },
};

/** The default convertor: name and creation time (rest.NewDefaultTableConvertor). */
const defaultPrinter: Printer = {
  columns: [nameColumn, { name: 'Created At', type: 'date', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.' }],
  cells: (o) => [o.metadata?.name ?? '', o.metadata?.creationTimestamp ? new Date(String(o.metadata.creationTimestamp)).toISOString().replace(/\.\d{3}Z$/, 'Z') : ''],
};

export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** A Table of `items`; rows carry the object, its metadata only, or nothing. */
export function toTable(r: Resource, items: readonly KubeObject[], o: { now: number; resourceVersion?: string; continueToken?: string; includeObject: IncludeObject; noHeaders?: boolean }): Record<string, unknown> {
  const printer = printers[r.storeKind] ?? defaultPrinter;
  const rows = items.map((item) => {
    const row: Record<string, unknown> = { cells: printer.cells(item, o.now) };
    if (o.includeObject === 'Object') row.object = item;
    else if (o.includeObject === 'Metadata') row.object = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: item.metadata ?? {} };
    return row;
  });
  const metadata: Record<string, unknown> = {};
  if (o.resourceVersion !== undefined) metadata.resourceVersion = o.resourceVersion;
  if (o.continueToken) metadata.continue = o.continueToken;
  const table: Record<string, unknown> = { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata };
  if (!o.noHeaders) table.columnDefinitions = printer.columns.map((c) => ({ priority: 0, ...c }));
  table.rows = rows;
  return table;
}
