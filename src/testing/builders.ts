// Terse builders for test objects (like upstream's st.MakePod()/st.MakeNode()).
import type { Node, Pod, ResourceList, Taint, Toleration } from '../api/types.js';

export interface PodOptions {
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  node?: string;
  priority?: number;
  /** Requests of a single container; more containers via `spec`. */
  requests?: ResourceList;
  tolerations?: Toleration[];
  nodeSelector?: Record<string, string>;
  spec?: Partial<Pod['spec']>;
  schedulerName?: string;
  /** The container's image; default "pause". */
  image?: string;
}

export function makePod(name: string, o: PodOptions = {}): Pod {
  const ns = o.namespace ?? 'default';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, uid: o.uid ?? `${ns}/${name}`, labels: o.labels ?? {} },
    spec: {
      containers: [{ name: 'c', image: o.image ?? 'pause', resources: o.requests ? { requests: o.requests } : {} }],
      ...(o.node ? { nodeName: o.node } : {}),
      ...(o.priority !== undefined ? { priority: o.priority } : {}),
      ...(o.tolerations ? { tolerations: o.tolerations } : {}),
      ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
      ...(o.schedulerName ? { schedulerName: o.schedulerName } : {}),
      ...o.spec,
    },
    status: {},
  };
}

export interface NodeOptions {
  labels?: Record<string, string>;
  allocatable?: ResourceList;
  taints?: Taint[];
  unschedulable?: boolean;
  images?: { names: string[]; sizeBytes: number }[];
  /** Report the Ready condition (True), as a kubelet would; none by default. */
  ready?: boolean;
}

export function makeNode(name: string, o: NodeOptions = {}): Node {
  const allocatable = o.allocatable ?? { cpu: '4', memory: '32Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(o.labels ?? {}) } },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: {
      capacity: allocatable,
      allocatable,
      ...(o.images ? { images: o.images } : {}),
      ...(o.ready ? { conditions: [{ type: 'Ready', status: 'True' }] } : {}),
    },
  };
}
