// Object templates of upstream's benchmark (test/integration/scheduler_perf/templates/*.yaml),
// keyed by their path there. Objects are named from `metadata.generateName` when created.
import type { KubeObject, Node, Pod } from '../api/types.js';
import { draTemplates, type TemplateContext } from './dra_templates.js';
import { isYamlTemplate, yamlTemplate } from './yaml_templates.js';
import { podGroupTemplates } from './podgroup_templates.js';

type Requests = Record<string, string>;

/** The pause container; with requests it also exposes port 80, as upstream's templates do. */
function pauseContainer(requests: Requests | undefined, limits: boolean): Pod['spec']['containers'][number] {
  const c: Pod['spec']['containers'][number] = { image: 'registry.k8s.io/pause:3.10.1', name: 'pause' };
  if (!requests) return c;
  c.ports = [{ containerPort: 80 }];
  c.resources = limits ? { requests: { ...requests }, limits: { ...requests } } : { requests: { ...requests } };
  return c;
}

/** 100m CPU and 500Mi of memory, requested and limited: the pod most templates use. */
const defaultRequests = { cpu: '100m', memory: '500Mi' };

interface PodShape {
  labels?: Record<string, string>;
  /** Requests of the one container; none when undefined. */
  requests?: Requests;
  /** Whether limits equal requests (most templates) or are absent. */
  limits?: boolean;
}

function pod(generateName: string, spec: Partial<Pod['spec']>, o: PodShape = { requests: defaultRequests }): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: o.labels ? { generateName, labels: o.labels } : { generateName },
    spec: { ...spec, containers: [pauseContainer(o.requests, o.limits ?? true)] },
  };
}

const withDefaults = (labels: Record<string, string>): PodShape => ({ labels, requests: defaultRequests });

function node(generateName: string, capacity: Record<string, string>): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { generateName },
    spec: {},
    status: { capacity, conditions: [{ status: 'True', type: 'Ready' }], phase: 'Running' },
  };
}

const sched01 = ['sched-1', 'sched-0'];

/** A PersistentVolume of 1Gi, ReadOnlyMany, kept on release, with the given source. */
function persistentVolume(source: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    spec: { accessModes: ['ReadOnlyMany'], capacity: { storage: '1Gi' }, persistentVolumeReclaimPolicy: 'Retain', ...source },
  } as KubeObject;
}

/** The pod of the namespaceSelector workloads: `color` labelled, its affinity term selecting the namespaces labelled team=devops. */
function nsSelectorPod(generateName: string, color: string, affinity: Pod['spec']['affinity']): Pod {
  return pod(generateName, { affinity }, withDefaults({ color }));
}
const devops = { matchLabels: { team: 'devops' } };
const colorTerm = (color: string, topologyKey: string) => ({ labelSelector: { matchLabels: { color } }, topologyKey, namespaceSelector: devops });

function taintedNode(): Node {
  const n = node('taint-node-', { pods: '110', cpu: '4', memory: '32Gi' });
  return { ...n, spec: { taints: [{ effect: 'NoSchedule', key: 'foo' }] } };
}

const templates: Readonly<Record<string, KubeObject>> = {
  'node-default.yaml': node('scheduler-perf-', { pods: '110', cpu: '4', memory: '32Gi' }),
  'node-with-name.yaml': {
    ...node('', { pods: '90000', cpu: '4', memory: '32Gi' }),
    metadata: { name: 'scheduler-perf-node', labels: { 'kubernetes.io/hostname': 'scheduler-perf-node' } },
  },
  'churn/node-default.yaml': node('node-churn-', { pods: '0' }),
  'node-with-taint.yaml': taintedNode(),
  'namespace-with-labels.yaml': { apiVersion: 'v1', kind: 'Namespace', metadata: { labels: { team: 'devops' } } },
  'pod-default.yaml': pod('pod-', {}),
  // Ours (own_workloads.ts): node-default.yaml with 8 device-plugin GPUs, and a pod of
  // pod-default.yaml's size asking for one.
  'ours/node-with-8-gpus.yaml': node('scheduler-perf-gpu-', { pods: '110', cpu: '4', memory: '32Gi', 'nvidia.com/gpu': '8' }),
  'ours/pod-with-one-gpu.yaml': pod('gpu-', {}, { requests: { ...defaultRequests, 'nvidia.com/gpu': '1' } }),
  'pod-with-secret-volume.yaml': pod('secret-volume-', { volumes: [{ name: 'secret', secret: { secretName: 'secret' } }] }),
  // The volume ID / handle is set per pod by the harness.
  'pv-aws.yaml': persistentVolume({ awsElasticBlockStore: { volumeID: '' } }),
  'pv-csi.yaml': persistentVolume({ csi: { driver: 'ebs.csi.aws.com', volumeHandle: '' } }),
  'pvc-once-pod.yaml': {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { annotations: { 'pv.kubernetes.io/bind-completed': 'true' } },
    spec: { accessModes: ['ReadWriteOncePod'], resources: { requests: { storage: '1Gi' } } },
  } as KubeObject,
  'pvc.yaml': {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { annotations: { 'pv.kubernetes.io/bind-completed': 'true' } },
    spec: { accessModes: ['ReadOnlyMany'], resources: { requests: { storage: '1Gi' } } },
  } as KubeObject,
  'light-pod.yaml': pod('light-pod-', { terminationGracePeriodSeconds: 0 }, {}),
  'gated-pod.yaml': pod('gated-pod-', { schedulingGates: [{ name: 'test.k8s.io/hold' }] }, {}),
  'gated-pod-with-pod-affinity.yaml': pod('pod-', {
    affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'scheduler-perf' } }, topologyKey: 'kubernetes.io/hostname' }] } },
    schedulingGates: [{ name: 'scheduling-gate-1' }],
  }, { labels: { app: 'scheduler-perf' } }),
  'daemonset-pod.yaml': pod('daemonset-', {
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['scheduler-perf-node'] }] }] } } },
  }, {}),
  'pod-with-finalizer.yaml': { ...pod('pod-', {}, {}), metadata: { generateName: 'pod-', finalizers: ['test.k8s.io/finalizer'] } },
  'pod-with-label.yaml': pod('pod-', {}, { labels: { app: 'scheduler-perf' } }),
  'pod-low-priority.yaml': pod('pod-', { terminationGracePeriodSeconds: 0 }, { requests: { cpu: '900m', memory: '500Mi' } }),
  'pod-high-priority.yaml': pod('pod-', { priority: 10 }, { requests: { cpu: '3000m', memory: '500Mi' } }),
  // default_preemption/templates/: nearly a whole node's cpu, no port (pause 3.10.2 there).
  'default_preemption/pod-high-priority.yaml': (() => {
    const p = pod('pod-', { terminationGracePeriodSeconds: 0, priority: 9999999 }, { requests: { cpu: '3970m', memory: '500Mi' } });
    const c = p.spec.containers[0]!;
    delete c.ports;
    c.image = 'registry.k8s.io/pause:3.10.2';
    return p;
  })(),
  // Requests more CPU than any node has: unschedulable everywhere.
  'pod-high-priority-large-cpu.yaml': pod('pod-h-', { priority: 10 }, { requests: { cpu: '9', memory: '500Mi' }, limits: false }),
  'pod-with-pod-anti-affinity.yaml': pod('anti-affinity-pod-', {
    affinity: {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { color: 'green' } }, topologyKey: 'kubernetes.io/hostname', namespaces: sched01 },
        ],
      },
    },
  }, withDefaults({ color: 'green' })),
  'pod-with-pod-affinity.yaml': pod('affinity-pod-', {
    affinity: {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { color: 'blue' } }, topologyKey: 'topology.kubernetes.io/zone', namespaces: sched01 },
        ],
      },
    },
  }, withDefaults({ color: 'blue' })),
  'pod-with-preferred-pod-affinity.yaml': pod('preferred-affinity-pod-', {
    affinity: {
      podAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [{
          weight: 1,
          podAffinityTerm: { labelSelector: { matchLabels: { color: 'red' } }, topologyKey: 'kubernetes.io/hostname', namespaces: sched01 },
        }],
      },
    },
  }, withDefaults({ color: 'red' })),
  'pod-with-preferred-pod-anti-affinity.yaml': pod('preferred-anti-affinity-pod-', {
    affinity: {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [{
          weight: 1,
          podAffinityTerm: { labelSelector: { matchLabels: { color: 'yellow' } }, topologyKey: 'kubernetes.io/hostname', namespaces: sched01 },
        }],
      },
    },
  }, withDefaults({ color: 'yellow' })),
  // batching/: a host port every pod wants (one pod per node), and pods of 3 cpus (one per 4-cpu node).
  'pod-hostport-80.yaml': (() => {
    const p = pod('pod-hostport-80-', {}, { requests: { cpu: '100m', memory: '100Mi' }, limits: false });
    p.spec.containers[0]!.ports = [{ containerPort: 80, hostPort: 80 }];
    return p;
  })(),
  'pod-saturation.yaml': pod('pod-saturation-', {}, { requests: { cpu: '3', memory: '1Gi' }, limits: false }),
  'pod-with-pod-anti-affinity-label.yaml': pod('anti-affinity-matching-pod-', {}, withDefaults({ color: 'green' })),
  'pod-anti-affinity-ns-selector.yaml': nsSelectorPod('anti-affinity-pod-', 'green', {
    podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [colorTerm('green', 'kubernetes.io/hostname')] },
  }),
  'pod-preferred-anti-affinity-ns-selector.yaml': nsSelectorPod('anti-affinity-pod-', 'green', {
    podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: colorTerm('green', 'kubernetes.io/hostname') }] },
  }),
  'pod-affinity-ns-selector.yaml': nsSelectorPod('affinity-pod-', 'blue', {
    podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [colorTerm('blue', 'topology.kubernetes.io/zone')] },
  }),
  'pod-preferred-affinity-ns-selector.yaml': nsSelectorPod('preferred-affinity-pod-', 'red', {
    podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: colorTerm('red', 'kubernetes.io/hostname') }] },
  }),
  'pod-with-node-inclusion-policy.yaml': pod('spreading-pod-with-node-inclusion-policy-', {
    topologySpreadConstraints: [{
      maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule',
      nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Honor', labelSelector: { matchLabels: { foo: 'bar' } },
    }],
  }, withDefaults({ foo: 'bar' })),
  'pod-with-node-affinity.yaml': pod('node-affinity-', {
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone1', 'zone2'] }] }],
        },
      },
    },
  }),
  'pod-with-topology-spreading.yaml': pod('spreading-pod-', {
    topologySpreadConstraints: [
      { maxSkew: 5, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { color: 'blue' } } },
    ],
  }, withDefaults({ color: 'blue' })),
  'pod-with-preferred-topology-spreading.yaml': pod('spreading-pod-', {
    topologySpreadConstraints: [
      { maxSkew: 5, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { color: 'blue' } } },
    ],
  }, withDefaults({ color: 'blue' })),
  'service.yaml': {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { generateName: 'service-' },
    spec: { selector: { app: 'scheduler-perf' }, ports: [{ protocol: 'TCP', port: 80, targetPort: 8000 }] },
  } as KubeObject,
  'churn/service-default.yaml': {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { generateName: 'service-churn-' },
    spec: { selector: { app: 'foo' }, ports: [{ protocol: 'TCP', port: 8080, targetPort: 8080 }] },
  } as KubeObject,
};

/** misc/templates/: node i has one unit of the extended resource foo.com/bar-i, pod i asks for it. */
const indexedTemplates: Readonly<Record<string, (ctx: TemplateContext) => KubeObject>> = {
  'misc/node-with-extended-resource.yaml': ({ index }) => {
    const n = node('scheduler-perf-extended-resource-', { pods: '110', cpu: '4', memory: '32Gi', [`foo.com/bar-${index}`]: '1' });
    return { ...n, metadata: { ...n.metadata, labels: { 'node-with-extended-resource': 'true' } } };
  },
  'misc/pod-with-extended-resource.yaml': ({ index }) => {
    const resource = { [`foo.com/bar-${index}`]: '1' };
    const p = pod('', {}, {});
    p.metadata = { name: `test-extended-resource-${index}` };
    p.spec.containers[0] = { image: 'registry.k8s.io/pause:3.9', name: 'pause', resources: { requests: resource, limits: { ...resource } } };
    return p;
  },
};

/** The template at `path`; a parameterized (DRA) one filled with `ctx`. */
export function template(path: string, ctx: TemplateContext = { index: 0, params: {} }): KubeObject {
  const filled = draTemplates[path] ?? indexedTemplates[path] ?? podGroupTemplates[path];
  if (filled) return filled(ctx);
  if (isYamlTemplate(path)) return yamlTemplate(path, ctx);
  const t = templates[path];
  if (!t) throw new Error(`unknown template "${path}" (known: ${[...Object.keys(templates), ...Object.keys(draTemplates), ...Object.keys(indexedTemplates), ...Object.keys(podGroupTemplates)].join(', ')})`);
  return t;
}
