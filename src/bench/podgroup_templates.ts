// The templates of upstream's pod-group benchmarks (test/integration/scheduler_perf/podgroup/*/templates
// and workload_preemption/templates): PodGroups gang-<i> (or basic-group-<i>) and their members,
// pod i joining group i / podsPerGroup, as the Go templates' DivideInt does.
import type { KubeObject, Pod } from '../api/types.js';
import type { ObjectTemplate, TemplateContext } from './dra_templates.js';

const pause = 'registry.k8s.io/pause:3.10.1';

function intParam(ctx: TemplateContext, name: string): number {
  const v = ctx.params[name];
  if (typeof v !== 'number') throw new Error(`template parameter ${name} is ${v === undefined ? 'not set' : 'not a number'}`);
  return v;
}

/** `{{if .priority}}{{AddInt 0 .priority}}{{else}}8888888{{end}}` */
const priorityOf = (ctx: TemplateContext): number => {
  const v = ctx.params.priority;
  return typeof v === 'number' && v !== 0 ? v : 8888888;
};

const groupOf = (ctx: TemplateContext): number => Math.floor(ctx.index / intParam(ctx, 'podsPerGroup'));

function podGroup(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name }, spec } as KubeObject;
}

/** A member of 100m cpu and 100Mi of memory (the podgroup/ cases). */
function smallMember(name: string, group: string): Pod {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name },
    spec: { schedulingGroup: { podGroupName: group }, containers: [{ image: pause, name: 'pause', resources: { requests: { cpu: '100m', memory: '100Mi' } } }] },
  };
}

const gang = (ctx: TemplateContext): KubeObject => podGroup(`gang-${ctx.index}`, { schedulingPolicy: { gang: { minCount: intParam(ctx, 'podsPerGroup') } } });

/** workload_preemption/templates/gang-pod.yaml: cpuRequest as request and limit; with hostPortBase, one host port per group. */
function preemptingMember(ctx: TemplateContext): Pod {
  const cpu = String(ctx.params.cpuRequest);
  const hostPortBase = ctx.params.hostPortBase;
  const container: Pod['spec']['containers'][number] = {
    image: pause, name: 'pause',
    resources: { limits: { cpu, memory: '100Mi' }, requests: { cpu, memory: '100Mi' } },
  };
  if (typeof hostPortBase === 'number' && hostPortBase !== 0) container.ports = [{ containerPort: 80, hostPort: hostPortBase + groupOf(ctx) }];
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: `pod-gang-${ctx.index}` },
    spec: { priority: priorityOf(ctx), schedulingGroup: { podGroupName: `gang-${groupOf(ctx)}` }, terminationGracePeriodSeconds: 0, containers: [container] },
  };
}

/** The labels the low-priority pods carry and the affinity gang selects. */
const blue = { app: 'blue', label1: 'value1', label2: 'value2', label3: 'value3', label4: 'value4' };

/** pod-low-priority.yaml / pod-anchor-high-priority.yaml: spread over the nodes by a host port per slot. */
function spreadPod(generateName: string, priority: number, cpu: string, portBase: number, ctx: TemplateContext): Pod {
  const perNode = Math.floor(intParam(ctx, 'podsCount') / intParam(ctx, 'nodesCount'));
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { generateName, labels: { ...blue } },
    spec: {
      priority, terminationGracePeriodSeconds: 0,
      containers: [{
        image: pause, name: 'pause', ports: [{ containerPort: 80, hostPort: portBase + (ctx.index % perNode) }],
        resources: { limits: { cpu, memory: '100Mi' }, requests: { cpu, memory: '100Mi' } },
      }],
    },
  };
}

/** `{{if .priority}}{{AddInt 0 .priority}}{{else}}1000{{end}}` (templates/podgroup.yaml and default_preemption's gang pods). */
const priorityOr1000 = (ctx: TemplateContext): number => {
  const v = ctx.params.priority;
  return typeof v === 'number' && v !== 0 ? v : 1000;
};

/** The disruptionMode parameter: '' leaves it (and, for pods, the group) out. */
const disruptionModeOf = (ctx: TemplateContext): string => (typeof ctx.params.disruptionMode === 'string' ? ctx.params.disruptionMode : '');

export const podGroupTemplates: Readonly<Record<string, ObjectTemplate>> = {
  // templates/podgroup.yaml writes scheduling.k8s.io/v1alpha3, which we do not read yet; the API
  // server stores one PodGroup whichever version it is written in, and these fields are v1beta1's too.
  'templates/podgroup.yaml': (ctx) => {
    const mode = disruptionModeOf(ctx);
    return podGroup(`gang-${ctx.index}`, {
      priority: priorityOr1000(ctx),
      ...(mode !== '' ? { disruptionMode: mode === 'single' ? { single: {} } : { all: {} } } : {}),
      schedulingPolicy: { gang: { minCount: intParam(ctx, 'minCount') } },
    });
  },
  // default_preemption/templates/gang-pod.yaml: a group member only with a disruptionMode.
  'default_preemption/templates/gang-pod.yaml': (ctx) => {
    const cpu = typeof ctx.params.cpuRequest === 'string' && ctx.params.cpuRequest !== '' ? ctx.params.cpuRequest : '50m';
    return {
      apiVersion: 'v1', kind: 'Pod', metadata: { generateName: 'gang-pod-' },
      spec: {
        priority: priorityOr1000(ctx),
        ...(disruptionModeOf(ctx) !== '' ? { schedulingGroup: { podGroupName: `gang-${groupOf(ctx)}` } } : {}),
        terminationGracePeriodSeconds: 0,
        containers: [{ image: 'registry.k8s.io/pause:3.10.2', name: 'pause', resources: { limits: { cpu, memory: '50Mi' }, requests: { cpu, memory: '50Mi' } } }],
      },
    } as Pod;
  },
  'podgroup/gangscheduling/templates/podgroup.yaml': gang,
  'podgroup/gangscheduling/templates/gang-pod.yaml': (ctx) => smallMember(`test-gang-scheduling-${ctx.index}`, `gang-${groupOf(ctx)}`),
  'podgroup/basicscheduling/templates/podgroup.yaml': (ctx) => podGroup(`basic-group-${ctx.index}`, { schedulingPolicy: { basic: {} } }),
  'podgroup/basicscheduling/templates/basic-pod.yaml': (ctx) => smallMember(`test-basic-scheduling-${ctx.index}`, `basic-group-${groupOf(ctx)}`),
  'podgroup/tas/templates/podgroup.yaml': (ctx) => podGroup(`gang-${ctx.index}`, {
    schedulingPolicy: { gang: { minCount: intParam(ctx, 'podsPerGroup') } },
    schedulingConstraints: { topology: [{ key: 'topology.kubernetes.io/rack' }] },
  }),
  'podgroup/tas/templates/gang-pod.yaml': (ctx) => smallMember(`test-tas-scheduling-${ctx.index}`, `gang-${groupOf(ctx)}`),
  // A hundred nodes per zone and rack.
  'podgroup/tas/templates/node.yaml': ({ index }) => {
    const capacity = { cpu: '4', memory: '32Gi', pods: '110' };
    const domain = Math.floor(index / 100);
    return {
      apiVersion: 'v1', kind: 'Node',
      metadata: { name: `node-${index}`, labels: { 'kubernetes.io/hostname': `node-${index}`, 'topology.kubernetes.io/zone': `zone-${domain}`, 'topology.kubernetes.io/rack': `rack-${domain}` } },
      status: { capacity, allocatable: { ...capacity }, phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    } as KubeObject;
  },
  'workload_preemption/templates/podgroup.yaml': (ctx) => podGroup(`gang-${ctx.index}`, { priority: priorityOf(ctx), schedulingPolicy: { gang: { minCount: intParam(ctx, 'podsPerGroup') } } }),
  'workload_preemption/templates/gang-pod.yaml': preemptingMember,
  'workload_preemption/templates/pod-low-priority.yaml': (ctx) => spreadPod(`pod-low-priority-${ctx.index}-`, 0, '40m', 8000, ctx),
  'workload_preemption/templates/pod-anchor-high-priority.yaml': (ctx) => spreadPod(`pod-anchor-${ctx.index}-`, 9999999, '10m', 7000, ctx),
  'workload_preemption/templates/pod-gang-affinity.yaml': (ctx) => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: `pod-gang-${ctx.index}` },
    spec: {
      priority: priorityOf(ctx), schedulingGroup: { podGroupName: `gang-${groupOf(ctx)}` }, terminationGracePeriodSeconds: 0,
      affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { ...blue } }, topologyKey: 'kubernetes.io/hostname', namespaceSelector: {} }] } },
      containers: [{ image: pause, name: 'pause', resources: { limits: { cpu: '3970m', memory: '500Mi' }, requests: { cpu: '3970m', memory: '500Mi' } } }],
    },
  } as Pod),
};
