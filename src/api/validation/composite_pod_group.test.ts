// scheduling.k8s.io/v1alpha3 CompositePodGroup and a Workload's composite template tree: each case
// is one object and the error lines kube-apiserver v1.37.2 reports for it with CompositePodGroup on
// (the same objects go to the pinned kube-apiserver in test/e2e/composite_validation.e2e.test.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkCreate, checkUpdate, fieldErrorString, kindValidation } from './index.js';

const errorsOf = (kind: string, obj: unknown): string[] => {
  const r = checkCreate(kindValidation(kind)!, obj);
  return r.ok ? [] : r.errors.map(fieldErrorString).sort();
};

const ref = { workloadName: 'train', templateName: 'slice' };
const composite = (spec: Record<string, unknown>) => ({
  apiVersion: 'scheduling.k8s.io/v1alpha3', kind: 'CompositePodGroup', metadata: { name: 'c', namespace: 'default' }, spec,
});

describe('CompositePodGroup validation', () => {
  const cases: { name: string; spec: Record<string, unknown>; want: string[] }[] = [
    { name: 'a gang of groups', spec: { workloadRef: ref, schedulingPolicy: { gang: { minGroupCount: 2 } } }, want: [] },
    { name: 'a basic composite under a parent', spec: { workloadRef: ref, parentCompositePodGroupName: 'root', schedulingPolicy: { basic: {} }, disruptionMode: { all: {} } }, want: [] },
    { name: 'no workload reference', spec: { schedulingPolicy: { basic: {} } }, want: ['spec.workloadRef: Required value'] },
    { name: 'no policy', spec: { workloadRef: ref, schedulingPolicy: {} }, want: ['spec.schedulingPolicy: Invalid value: "": must specify one of: `basic`, `gang`'] },
    { name: 'minGroupCount zero is unset', spec: { workloadRef: ref, schedulingPolicy: { gang: { minGroupCount: 0 } } }, want: ['spec.schedulingPolicy.gang.minGroupCount: Required value'] },
    {
      name: 'minGroupCount negative', spec: { workloadRef: ref, schedulingPolicy: { gang: { minGroupCount: -2 } } },
      want: ['spec.schedulingPolicy.gang.minGroupCount: Invalid value: -2: must be greater than or equal to 1'],
    },
    {
      name: 'a template name with dots', spec: { workloadRef: { workloadName: 'train', templateName: 'a.b' }, schedulingPolicy: { basic: {} } },
      want: ['spec.workloadRef.templateName: Invalid value: "a.b": must not contain dots'],
    },
    {
      name: 'two topology constraints', spec: { workloadRef: ref, schedulingPolicy: { basic: {} }, schedulingConstraints: { topology: [{ key: 'rack' }, { key: 'zone' }] } },
      want: ['spec.schedulingConstraints.topology: Too many: 2: must have at most 1 item'],
    },
    {
      name: 'both disruption modes', spec: { workloadRef: ref, schedulingPolicy: { basic: {} }, disruptionMode: { single: {}, all: {} } },
      want: ['spec.disruptionMode: Invalid value: "{single, all}": must specify exactly one of: `single`, `all`'],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(errorsOf('CompositePodGroup', composite(c.spec)), c.want));

  it('refuses a change of any spec field, each on its own path', () => {
    const old = composite({ workloadRef: ref, schedulingPolicy: { gang: { minGroupCount: 2 } }, disruptionMode: { single: {} } });
    const next = composite({ workloadRef: ref, schedulingPolicy: { gang: { minGroupCount: 3 } }, disruptionMode: { all: {} } });
    const r = checkUpdate(kindValidation('CompositePodGroup')!, old as never, next);
    assert.deepEqual(r.ok ? [] : r.errors.map(fieldErrorString), [
      'spec.schedulingPolicy: Invalid value: null: field is immutable', 'spec.disruptionMode: Invalid value: null: field is immutable',
    ]);
  });

  it('validates a status write by its conditions', () => {
    const stored = composite({ workloadRef: ref, schedulingPolicy: { basic: {} } });
    const bad = { ...stored, status: { conditions: [{ type: 'Ready', status: 'Maybe', reason: 'R', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] } };
    const errs = kindValidation('CompositePodGroup')!.validateStatusUpdate!(stored as never, bad as never).map(fieldErrorString);
    assert.deepEqual(errs, ['status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"']);
  });
});

describe('a Workload\'s composite template tree', () => {
  const workload = (spec: Record<string, unknown>) => ({ kind: 'Workload', metadata: { name: 'w', namespace: 'default' }, spec });
  const group = (name: string, extra: Record<string, unknown> = {}) => ({ name, schedulingPolicy: { gang: { minCount: 2 } }, ...extra });
  const tree = (name: string, extra: Record<string, unknown>) => ({ name, schedulingPolicy: { basic: {} }, ...extra });
  /** A chain of `depth` composites, the innermost holding one group. */
  const chain = (depth: number): Record<string, unknown> => depth === 1
    ? tree(`c${depth}`, { podGroupTemplates: [group(`p${depth}`)] })
    : tree(`c${depth}`, { compositePodGroupTemplates: [chain(depth - 1)] });

  const cases: { name: string; spec: Record<string, unknown>; want: string[] }[] = [
    {
      name: 'a composite of groups and a nested composite',
      spec: { compositePodGroupTemplates: [tree('root', { podGroupTemplates: [group('a'), group('b')], compositePodGroupTemplates: [tree('inner', { podGroupTemplates: [group('c')] })] })] },
      want: [],
    },
    // walk() starts at depth 1 and fails on reaching 4: three levels of composites is the most.
    { name: 'three levels of composites', spec: { compositePodGroupTemplates: [chain(3)] }, want: [] },
    {
      name: 'five levels of composites',
      spec: { compositePodGroupTemplates: [chain(5)] },
      want: [
        'spec.compositePodGroupTemplates[0]: Invalid value: [{"Name":"c4","SchedulingPolicy":{"Basic":{},"Gang":null},"SchedulingConstraints":null,"DisruptionMode":null,'
        + '"PriorityClassName":"","Priority":null,"PreemptionPolicy":null,"PodGroupTemplates":null,"CompositePodGroupTemplates":[{"Name":"c3","SchedulingPolicy":{"Basic":{},"Gang":null},'
        + '"SchedulingConstraints":null,"DisruptionMode":null,"PriorityClassName":"","Priority":null,"PreemptionPolicy":null,"PodGroupTemplates":null,"CompositePodGroupTemplates":'
        + '[{"Name":"c2","SchedulingPolicy":{"Basic":{},"Gang":null},"SchedulingConstraints":null,"DisruptionMode":null,"PriorityClassName":"","Priority":null,"PreemptionPolicy":null,'
        + '"PodGroupTemplates":null,"CompositePodGroupTemplates":[{"Name":"c1","SchedulingPolicy":{"Basic":{},"Gang":null},"SchedulingConstraints":null,"DisruptionMode":null,'
        + '"PriorityClassName":"","Priority":null,"PreemptionPolicy":null,"PodGroupTemplates":[{"Name":"p1","SchedulingPolicy":{"Basic":null,"Gang":{"MinCount":2}},'
        + '"SchedulingConstraints":null,"ResourceClaims":null,"DisruptionMode":null,"PriorityClassName":"","Priority":null,"PreemptionPolicy":null}],'
        + '"CompositePodGroupTemplates":null}]}]}]}]: maximum template hierarchy depth is 4',
      ],
    },
    {
      name: 'both template lists',
      spec: { podGroupTemplates: [group('a')], compositePodGroupTemplates: [tree('root', { podGroupTemplates: [group('b')] })] },
      want: ['spec: Invalid value: "{podGroupTemplates, compositePodGroupTemplates}": must specify exactly one of: `podGroupTemplates`, `compositePodGroupTemplates`'],
    },
    {
      name: 'a composite without children',
      spec: { compositePodGroupTemplates: [tree('root', { compositePodGroupTemplates: [tree('leaf', {})] })] },
      want: ['spec.compositePodGroupTemplates[0].compositePodGroupTemplates[0]: Invalid value: "leaf": must have at least one child PodGroupTemplate or CompositePodGroupTemplate'],
    },
    {
      name: 'a name used twice across the tree',
      spec: { compositePodGroupTemplates: [tree('root', { podGroupTemplates: [group('root')] }), tree('x', { podGroupTemplates: [group('a')] }), tree('y', { podGroupTemplates: [group('a')] })] },
      want: [
        'spec.compositePodGroupTemplates[0].podGroupTemplates[0].name: Duplicate value: "root"',
        'spec.compositePodGroupTemplates[2].podGroupTemplates[0].name: Duplicate value: "a"',
      ],
    },
    {
      name: 'a name used twice in one list',
      spec: { compositePodGroupTemplates: [tree('r', { podGroupTemplates: [group('a')] }), tree('r', { podGroupTemplates: [group('b')] })] },
      want: ['spec.compositePodGroupTemplates[1]: Duplicate value: {"name":"r","schedulingPolicy":{"basic":{}},"podGroupTemplates":[{"name":"b","schedulingPolicy":{"gang":{"minCount":2}},"schedulingConstraints":null}]}'],
    },
    {
      name: 'two priorities in the tree',
      spec: { compositePodGroupTemplates: [tree('root', { priority: 5, podGroupTemplates: [group('a', { priority: 5 }), group('b', { priority: 6 })] })] },
      want: ['spec: Invalid value: null: all priority and priorityClassName values must be identical, detected multiple values'],
    },
    {
      name: 'two priority classes among plain templates',
      spec: { podGroupTemplates: [group('a', { priorityClassName: 'x' }), group('b')] },
      want: ['spec: Invalid value: null: detected multiple priority configurations'],
    },
    {
      name: 'nine composites',
      spec: { compositePodGroupTemplates: Array.from({ length: 9 }, (_, i) => tree(`c${i}`, { podGroupTemplates: [group(`p${i}`)] })) },
      want: ['spec.compositePodGroupTemplates: Too many: 9: must have at most 8 items'],
    },
    {
      name: 'four levels of composites',
      spec: { compositePodGroupTemplates: [tree('top', { compositePodGroupTemplates: [chain(3)] })] },
      want: [`spec.compositePodGroupTemplates[0]: Invalid value: [${'{"Name":"c3","SchedulingPolicy":{"Basic":{},"Gang":null},"SchedulingConstraints":null,"DisruptionMode":null,'}${
        '"PriorityClassName":"","Priority":null,"PreemptionPolicy":null,"PodGroupTemplates":null,"CompositePodGroupTemplates":[{"Name":"c2","SchedulingPolicy":{"Basic":{},"Gang":null},'}${
        '"SchedulingConstraints":null,"DisruptionMode":null,"PriorityClassName":"","Priority":null,"PreemptionPolicy":null,"PodGroupTemplates":null,"CompositePodGroupTemplates":'}${
        '[{"Name":"c1","SchedulingPolicy":{"Basic":{},"Gang":null},"SchedulingConstraints":null,"DisruptionMode":null,"PriorityClassName":"","Priority":null,"PreemptionPolicy":null,'}${
        '"PodGroupTemplates":[{"Name":"p1","SchedulingPolicy":{"Basic":null,"Gang":{"MinCount":2}},"SchedulingConstraints":null,"ResourceClaims":null,"DisruptionMode":null,'}${
        '"PriorityClassName":"","Priority":null,"PreemptionPolicy":null}],"CompositePodGroupTemplates":null}]}]}]: maximum template hierarchy depth is 4'}`],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(errorsOf('Workload', workload(c.spec)), [...c.want].sort()));
});
