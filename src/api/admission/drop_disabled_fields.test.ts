// kube-apiserver's dropDisabledFields for the pod fields the scheduler reads, at v1.37's defaults,
// and the PodGroup and Workload strategies' (podgroup/strategy.go, workload/strategy.go) on create and update.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Pod } from '../types.js';
import type { CompositePodGroup, CompositePodGroupTemplate, PodGroup, PodGroupTemplate, Workload } from '../scheduling.js';
import {
  dropDisabledCompositePodGroupFields, dropDisabledFields, dropDisabledPodFields, dropDisabledPodGroupFields, dropDisabledPodGroupStatusFields, dropDisabledWorkloadFields,
  type PodGroupFieldGates,
} from './drop_disabled_fields.js';
import { makePod } from '../../testing/builders.js';

const mount = (extra: object = {}) => ({ name: 'v', mountPath: '/v', ...extra });
const pod = (spec: Partial<Pod['spec']>): Pod => makePod('p', { spec });

describe('dropDisabledPodFields', () => {
  it('drops bindMountOptions from every kind of container (VolumeBindMountOptions is off)', () => {
    const given = pod({
      containers: [{ name: 'c', image: 'x', volumeMounts: [mount({ bindMountOptions: ['nosymfollow'] }), mount()] }],
      initContainers: [{ name: 'i', image: 'x', volumeMounts: [mount({ bindMountOptions: [] })] }],
    });
    const before = structuredClone(given);
    const out = dropDisabledPodFields(given);
    assert.deepEqual(out.spec.containers[0]!.volumeMounts, [mount(), mount()]);
    assert.deepEqual(out.spec.initContainers![0]!.volumeMounts, [mount()]);
    assert.deepEqual(given, before, 'the input is not changed');
  });

  it('returns a pod without such fields as it is', () => {
    const given = pod({ containers: [{ name: 'c', image: 'x', volumeMounts: [mount()] }] });
    assert.equal(dropDisabledPodFields(given), given);
  });
});

const allOff: PodGroupFieldGates = { topologyAwareWorkloadScheduling: false, draWorkloadResourceClaims: false, podGroupPreemptionPolicy: false, compositePodGroup: false };
const allOn: PodGroupFieldGates = { topologyAwareWorkloadScheduling: true, draWorkloadResourceClaims: true, podGroupPreemptionPolicy: true, compositePodGroup: true };

const fullSpec: PodGroup['spec'] = {
  schedulingPolicy: { basic: {} }, schedulingConstraints: { topology: [{ key: 'rack' }] }, resourceClaims: [{ name: 'c', resourceClaimName: 'rc' }],
  preemptionPolicy: 'Never', parentCompositePodGroupName: 'parent',
};
const group = (spec: Partial<PodGroup['spec']>): PodGroup => ({ kind: 'PodGroup', metadata: { name: 'g' }, spec: { schedulingPolicy: { basic: {} }, ...spec } });

describe('dropDisabledPodGroupFields', () => {
  const cases: { name: string; gates: PodGroupFieldGates; old?: PodGroup; want: string[] }[] = [
    { name: 'create, every gate off', gates: allOff, want: ['schedulingPolicy'] },
    { name: 'create, every gate on', gates: allOn, want: Object.keys(fullSpec) },
    { name: 'create, only TopologyAwareWorkloadScheduling', gates: { ...allOff, topologyAwareWorkloadScheduling: true }, want: ['schedulingConstraints', 'schedulingPolicy'] },
    { name: 'create, only CompositePodGroup', gates: { ...allOff, compositePodGroup: true }, want: ['parentCompositePodGroupName', 'schedulingPolicy'] },
    { name: 'update, old group without the fields', gates: allOff, old: group({}), want: ['schedulingPolicy'] },
    { name: 'update keeps what the old group uses', gates: allOff, old: group({ schedulingConstraints: {}, parentCompositePodGroupName: 'p' }),
      want: ['parentCompositePodGroupName', 'schedulingConstraints', 'schedulingPolicy'] },
    { name: 'update: empty old resourceClaims are not in use', gates: allOff, old: group({ resourceClaims: [], preemptionPolicy: 'PreemptLowerPriority' }),
      want: ['preemptionPolicy', 'schedulingPolicy'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const input = group(fullSpec);
      const out = dropDisabledPodGroupFields(input, c.gates, c.old);
      assert.deepEqual(Object.keys(out.spec).sort(), [...c.want].sort());
      assert.deepEqual(input.spec, { ...fullSpec }, 'the input is not changed');
    });
  }

  it('drops the claim statuses with the claims', () => {
    const status = { conditions: [], resourceClaimStatuses: [{ name: 'c', resourceClaimName: 'rc' }] };
    assert.deepEqual(dropDisabledPodGroupFields({ ...group(fullSpec), status }, allOff).status, { conditions: [] });
    assert.equal(dropDisabledPodGroupFields({ ...group(fullSpec), status }, allOn).status, status);
    assert.deepEqual(dropDisabledPodGroupStatusFields(status, allOff, group({})), { conditions: [] });
    assert.equal(dropDisabledPodGroupStatusFields(status, allOff, group({ resourceClaims: [{ name: 'c', resourceClaimName: 'rc' }] })), status, 'the stored group uses claims');
  });
});

describe('dropDisabledWorkloadFields', () => {
  const template = (name: string, extra: Partial<PodGroupTemplate> = {}): PodGroupTemplate => ({ name, schedulingPolicy: { gang: { minCount: 2 } }, ...extra });
  const full = (name: string) => template(name, { schedulingConstraints: { topology: [{ key: 'rack' }] }, resourceClaims: [{ name: 'c', resourceClaimName: 'rc' }], preemptionPolicy: 'Never' });
  const workload = (...templates: PodGroupTemplate[]): Workload => ({ kind: 'Workload', metadata: { name: 'w' }, spec: { podGroupTemplates: templates } });
  const keys = (w: Workload) => w.spec.podGroupTemplates!.map((t) => Object.keys(t).sort());

  it('drops each template\'s gated fields on create', () => {
    assert.deepEqual(keys(dropDisabledWorkloadFields(workload(full('a'), full('b')), allOff)), [['name', 'schedulingPolicy'], ['name', 'schedulingPolicy']]);
    assert.deepEqual(keys(dropDisabledWorkloadFields(workload(full('a')), { ...allOff, podGroupPreemptionPolicy: true })), [['name', 'preemptionPolicy', 'schedulingPolicy']]);
    assert.deepEqual(keys(dropDisabledWorkloadFields(workload(full('a')), allOn)), [Object.keys(full('a')).sort()]);
  });

  it('on update keeps what the stored template at the same index uses', () => {
    const old = workload(template('a', { preemptionPolicy: 'Never' }), template('b', { schedulingConstraints: {} }));
    const out = dropDisabledWorkloadFields(workload(full('a'), full('b'), full('c')), allOff, old);
    assert.deepEqual(keys(out), [['name', 'preemptionPolicy', 'schedulingPolicy'], ['name', 'schedulingConstraints', 'schedulingPolicy'], ['name', 'schedulingPolicy']]);
  });
});

describe('dropDisabledWorkloadFields over composite templates', () => {
  const leaf = (name: string): PodGroupTemplate => ({ name, schedulingPolicy: { gang: { minCount: 2 } }, schedulingConstraints: { topology: [{ key: 'rack' }] }, preemptionPolicy: 'Never' });
  const inner: CompositePodGroupTemplate = { name: 'inner', schedulingPolicy: { basic: {} }, podGroupTemplates: [leaf('b')] };
  const root: CompositePodGroupTemplate = { name: 'root', schedulingPolicy: { basic: {} }, preemptionPolicy: 'Never', podGroupTemplates: [leaf('a')], compositePodGroupTemplates: [inner] };
  const workload = (...composites: CompositePodGroupTemplate[]): Workload => ({ kind: 'Workload', metadata: { name: 'w' }, spec: { compositePodGroupTemplates: composites } });

  it('drops the composite templates while CompositePodGroup is off, unless the stored Workload has some', () => {
    assert.equal(dropDisabledWorkloadFields(workload(root), allOff).spec.compositePodGroupTemplates, undefined);
    const kept = dropDisabledWorkloadFields(workload(root), allOff, workload({ ...root, compositePodGroupTemplates: [inner] }));
    assert.deepEqual(kept.spec.compositePodGroupTemplates!.map((t) => t.name), ['root']);
  });

  it('with the gate on, drops the gated fields at every level, matching stored composites by name', () => {
    const gates = { ...allOff, compositePodGroup: true };
    const out = dropDisabledWorkloadFields(workload(root), gates).spec.compositePodGroupTemplates![0]!;
    assert.deepEqual(Object.keys(out).sort(), ['compositePodGroupTemplates', 'name', 'podGroupTemplates', 'schedulingPolicy']);
    assert.deepEqual(Object.keys(out.podGroupTemplates![0]!).sort(), ['name', 'schedulingPolicy']);
    assert.deepEqual(Object.keys(out.compositePodGroupTemplates![0]!.podGroupTemplates![0]!).sort(), ['name', 'schedulingPolicy']);
    const old = workload({ name: 'root', schedulingPolicy: { basic: {} }, preemptionPolicy: 'Never', podGroupTemplates: [leaf('a')] });
    const updated = dropDisabledWorkloadFields(workload(root), gates, old).spec.compositePodGroupTemplates![0]!;
    assert.equal(updated.preemptionPolicy, 'Never');
    assert.deepEqual(updated.podGroupTemplates, [leaf('a')]);
    assert.deepEqual(root.podGroupTemplates, [leaf('a')], 'the input is not changed');
  });
});

describe('dropDisabledCompositePodGroupFields', () => {
  const cpg = (preemptionPolicy?: 'Never'): CompositePodGroup => ({
    kind: 'CompositePodGroup', metadata: { name: 'c' },
    spec: { workloadRef: { workloadName: 'w', templateName: 't' }, schedulingPolicy: { basic: {} }, ...(preemptionPolicy ? { preemptionPolicy } : {}) },
  });
  it('drops preemptionPolicy with its gate off, unless the stored group has one', () => {
    assert.equal(dropDisabledCompositePodGroupFields(cpg('Never'), allOff).spec.preemptionPolicy, undefined);
    assert.equal(dropDisabledCompositePodGroupFields(cpg('Never'), allOff, cpg('Never')).spec.preemptionPolicy, 'Never');
    assert.equal(dropDisabledCompositePodGroupFields(cpg('Never'), allOn).spec.preemptionPolicy, 'Never');
  });
});

describe('dropDisabledFields: the dispatch by kind key every writer uses', () => {
  const claimStatus = { conditions: [], resourceClaimStatuses: [{ name: 'c', resourceClaimName: 'rc' }] };
  const withStatus = { ...group(fullSpec), status: claimStatus };
  const workload: Workload = { kind: 'Workload', metadata: { name: 'w' }, spec: { podGroupTemplates: [{ name: 't', schedulingPolicy: { basic: {} }, preemptionPolicy: 'Never' }] } };
  const composite: CompositePodGroup = {
    kind: 'CompositePodGroup', metadata: { name: 'c' },
    spec: { workloadRef: { workloadName: 'w', templateName: 't' }, schedulingPolicy: { basic: {} }, preemptionPolicy: 'Never' },
  };
  const asObject = (o: object): KubeObject => o as KubeObject;
  const cases: { name: string; kindKey: string; obj: KubeObject; old?: KubeObject; subresource?: string; want: KubeObject | 'same' }[] = [
    { name: 'a PodGroup as its strategy', kindKey: 'PodGroup', obj: withStatus, want: dropDisabledPodGroupFields(withStatus, allOff) },
    { name: 'a PodGroup status write drops only the claim statuses', kindKey: 'PodGroup', obj: withStatus, old: group({}), subresource: 'status',
      want: asObject({ ...withStatus, status: { conditions: [] } }) },
    { name: 'a PodGroup status write without a stored group stays', kindKey: 'PodGroup', obj: withStatus, subresource: 'status', want: 'same' },
    { name: 'a Workload as its strategy', kindKey: 'Workload', obj: asObject(workload), want: asObject(dropDisabledWorkloadFields(workload, allOff)) },
    { name: 'a Workload subresource stays', kindKey: 'Workload', obj: asObject(workload), subresource: 'status', want: 'same' },
    { name: 'a CompositePodGroup as its strategy', kindKey: 'CompositePodGroup', obj: composite, want: dropDisabledCompositePodGroupFields(composite, allOff) },
    { name: 'a CompositePodGroup status write stays', kindKey: 'CompositePodGroup', obj: composite, subresource: 'status', want: 'same' },
    { name: 'the custom PodGroup kind stays', kindKey: 'scheduling.x-k8s.io/PodGroup', obj: withStatus, want: 'same' },
    { name: 'a spec that is not an object is left to validation', kindKey: 'PodGroup', obj: asObject({ kind: 'PodGroup', metadata: { name: 'g' }, spec: 'x' }), want: 'same' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const out = dropDisabledFields(c.kindKey, c.obj, allOff, c.old, c.subresource);
      if (c.want === 'same') assert.equal(out, c.obj);
      else assert.deepEqual(out, c.want);
    });
  }
});
