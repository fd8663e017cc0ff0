// Our validation of scheduling.k8s.io/v1alpha3 CompositePodGroups, composite Workloads and the
// PodGroups under a composite against the pinned kube-apiserver's, with CompositePodGroup on: each
// object is sent as a dry run and checked by ours; the answers must be the same (accepted, refused
// by Priority admission with the same message, or refused with the same field errors). Skipped, saying why, when the binaries are not built.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateFieldErrors, checkCreate, kindValidation } from '../../src/api/validation/index.js';
import { admitGroupPriority } from '../../src/api/admission/priority.js';
import { ControlPlane, errorLines, missingBinaries } from './control_plane.js';

const skip = missingBinaries();
const v1alpha3 = 'scheduling.k8s.io/v1alpha3';
const ns = `/apis/${v1alpha3}/namespaces/default`;
const gates = 'GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true,PodGroupPreemptionPolicy=true';
const ref = { workloadName: 'w', templateName: 't' };

const composite = (name: string, spec: Record<string, unknown>) => ({ apiVersion: v1alpha3, kind: 'CompositePodGroup', metadata: { name, namespace: 'default' }, spec });
const workload = (name: string, spec: Record<string, unknown>) => ({ apiVersion: v1alpha3, kind: 'Workload', metadata: { name, namespace: 'default' }, spec });
const group = (name: string, spec: Record<string, unknown>) => ({ apiVersion: v1alpha3, kind: 'PodGroup', metadata: { name, namespace: 'default' }, spec });
const pgt = (name: string, extra: Record<string, unknown> = {}) => ({ name, schedulingPolicy: { gang: { minCount: 2 } }, ...extra });
const cpgt = (name: string, extra: Record<string, unknown>) => ({ name, schedulingPolicy: { basic: {} }, ...extra });
const nest = (depth: number): Record<string, unknown> => depth === 1
  ? cpgt(`c${depth}`, { podGroupTemplates: [pgt(`p${depth}`)] })
  : cpgt(`c${depth}`, { compositePodGroupTemplates: [nest(depth - 1)] });

const objects: { path: string; obj: Record<string, unknown> & { kind: string } }[] = [
  ...[
    composite('ok', { workloadRef: ref, schedulingPolicy: { gang: { minGroupCount: 2 } } }),
    composite('ok-parent', { workloadRef: ref, parentCompositePodGroupName: 'root', schedulingPolicy: { basic: {} }, disruptionMode: { all: {} } }),
    composite('no-ref', { schedulingPolicy: { basic: {} } }),
    composite('no-policy', { workloadRef: ref, schedulingPolicy: {} }),
    composite('both-policies', { workloadRef: ref, schedulingPolicy: { basic: {}, gang: { minGroupCount: 1 } } }),
    composite('min-zero', { workloadRef: ref, schedulingPolicy: { gang: { minGroupCount: 0 } } }),
    composite('min-negative', { workloadRef: ref, schedulingPolicy: { gang: { minGroupCount: -2 } } }),
    composite('bad-ref', { workloadRef: { workloadName: 'W_1', templateName: 'a.b' }, schedulingPolicy: { basic: {} } }),
    composite('empty-ref', { workloadRef: { workloadName: '', templateName: '' }, schedulingPolicy: { basic: {} } }),
    composite('bad-parent', { workloadRef: ref, parentCompositePodGroupName: 'Root', schedulingPolicy: { basic: {} } }),
    composite('two-constraints', { workloadRef: ref, schedulingPolicy: { basic: {} }, schedulingConstraints: { topology: [{ key: 'rack' }, { key: 'zone' }] } }),
    composite('bad-key', { workloadRef: ref, schedulingPolicy: { basic: {} }, schedulingConstraints: { topology: [{ key: 'a b' }, ] } }),
    composite('both-disruptions', { workloadRef: ref, schedulingPolicy: { basic: {} }, disruptionMode: { single: {}, all: {} } }),
    composite('no-disruption', { workloadRef: ref, schedulingPolicy: { basic: {} }, disruptionMode: {} }),
    composite('bad-preemption', { workloadRef: ref, schedulingPolicy: { basic: {} }, preemptionPolicy: 'Sometimes' }),
    composite('high-priority', { workloadRef: ref, schedulingPolicy: { basic: {} }, priority: 2000000000 }),
  ].map((obj) => ({ path: `${ns}/compositepodgroups`, obj })),
  ...[
    workload('ok-tree', { compositePodGroupTemplates: [cpgt('root', { podGroupTemplates: [pgt('a'), pgt('b')], compositePodGroupTemplates: [cpgt('inner', { podGroupTemplates: [pgt('c')] })] })] }),
    workload('empty', {}),
    workload('both-lists', { podGroupTemplates: [pgt('a')], compositePodGroupTemplates: [cpgt('root', { podGroupTemplates: [pgt('b')] })] }),
    workload('no-children', { compositePodGroupTemplates: [cpgt('root', { compositePodGroupTemplates: [cpgt('leaf', {})] })] }),
    workload('depth-4', { compositePodGroupTemplates: [nest(4)] }),
    workload('depth-5', { compositePodGroupTemplates: [nest(5)] }),
    workload('dup-across', { compositePodGroupTemplates: [cpgt('root', { podGroupTemplates: [pgt('root')] }), cpgt('x', { podGroupTemplates: [pgt('a')] }), cpgt('y', { podGroupTemplates: [pgt('a')] })] }),
    workload('dup-in-list', { compositePodGroupTemplates: [cpgt('root', { podGroupTemplates: [pgt('a'), pgt('a')] })] }),
    workload('dup-composites', { compositePodGroupTemplates: [cpgt('r', { podGroupTemplates: [pgt('a')] }), cpgt('r', { podGroupTemplates: [pgt('b')] })] }),
    workload('priorities', { compositePodGroupTemplates: [cpgt('root', { priority: 5, podGroupTemplates: [pgt('a', { priority: 5 }), pgt('b', { priority: 6 })] })] }),
    workload('pg-priorities', { podGroupTemplates: [pgt('a', { priorityClassName: 'x' }), pgt('b')] }),
    workload('bad-template', { compositePodGroupTemplates: [{ name: 'Root', schedulingPolicy: { gang: { minGroupCount: 0 } }, podGroupTemplates: [{ name: 'A', schedulingPolicy: {} }] }] }),
    workload('too-many', { compositePodGroupTemplates: Array.from({ length: 9 }, (_, i) => cpgt(`c${i}`, { podGroupTemplates: [pgt(`p${i}`)] })) }),
    workload('pg-names', { podGroupTemplates: [pgt('a'), pgt('a'), pgt('B.c'), { name: '', schedulingPolicy: { gang: { minCount: 0 } } }] }),
  ].map((obj) => ({ path: `${ns}/workloads`, obj })),
  ...[
    group('child', { workloadRef: ref, parentCompositePodGroupName: 'root', schedulingPolicy: { basic: {} } }),
    group('orphan', { parentCompositePodGroupName: 'root', schedulingPolicy: { basic: {} } }),
  ].map((obj) => ({ path: `${ns}/podgroups`, obj })),
];

describe('CompositePodGroup validation agrees with the pinned kube-apiserver', { skip: skip ?? false, timeout: 300_000 }, () => {
  let cp: ControlPlane;
  before(async () => {
    cp = await ControlPlane.start([`--feature-gates=${gates}`, '--runtime-config=scheduling.k8s.io/v1alpha3=true,scheduling.k8s.io/v1beta1=true']);
  });
  after(async () => {
    await cp?.stop();
  });

  const updates: { name: string; spec: Record<string, unknown> }[] = [
    { name: 'policy and disruption', spec: { schedulingPolicy: { gang: { minGroupCount: 3 } }, disruptionMode: { all: {} } } },
    { name: 'parent and constraints', spec: { parentCompositePodGroupName: 'root', schedulingConstraints: { topology: [{ key: 'rack' }] } } },
    { name: 'workload reference and class', spec: { workloadRef: { workloadName: 'w2', templateName: 't' }, priorityClassName: 'gold' } },
  ];
  for (const c of updates) {
    it(`CompositePodGroup update: ${c.name}`, async () => {
      const name = `upd-${updates.indexOf(c)}`;
      const stored = await cp.create(`${ns}/compositepodgroups`, composite(name, { workloadRef: ref, schedulingPolicy: { gang: { minGroupCount: 2 } } })) as Record<string, unknown> & { spec: object };
      const next = { ...stored, spec: { ...stored.spec, ...c.spec } };
      const r = await cp.api('PUT', `${ns}/compositepodgroups/${name}?dryRun=All`, next);
      assert.equal(r.status, 422, JSON.stringify(r.body));
      const ours = kindValidation('CompositePodGroup')!.validateUpdate!({ ...stored, kind: 'CompositePodGroup' } as never, { ...next, kind: 'CompositePodGroup' } as never);
      assert.deepEqual(errorLines(`x is invalid: ${aggregateFieldErrors(ours)}`), errorLines(String((r.body as { message?: string }).message)));
    });
  }

  for (const { path, obj } of objects) {
    it(`${obj.kind} ${(obj.metadata as { name: string }).name}`, async () => {
      const r = await cp.api('POST', `${path}?dryRun=All&fieldValidation=Strict`, obj);
      const ours = checkCreate(kindValidation(obj.kind)!, obj);
      if (r.status === 403) {
        // Priority admission refuses it before validation (no PriorityClass exists here).
        const noun = obj.kind === 'PodGroup' ? 'pod group' : 'composite pod group';
        const admitted = admitGroupPriority(obj.spec as Record<string, never>, [], { noun, preemptionPolicy: true });
        assert.ok('error' in admitted, 'kube-apiserver refused it at admission, we admitted it');
        const message = String((r.body as { message?: string }).message);
        assert.equal(message.slice(message.indexOf('is forbidden: ') + 'is forbidden: '.length), admitted.error);
        return;
      }
      if (r.status === 201) {
        assert.ok(ours.ok, `kube-apiserver accepted it, we refused: ${ours.ok ? '' : aggregateFieldErrors(ours.errors)}`);
        return;
      }
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.ok(!ours.ok, `kube-apiserver refused it (${String((r.body as { message?: string }).message)}), we accepted`);
      assert.deepEqual(errorLines(`x is invalid: ${aggregateFieldErrors(ours.errors)}`), errorLines(String((r.body as { message?: string }).message)));
    });
  }
});
