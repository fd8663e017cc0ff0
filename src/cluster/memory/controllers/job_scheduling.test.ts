// WorkloadWithJob in the embedded Job controller (pkg/controller/job/job_scheduling_manager_test.go
// in our own words): which Jobs get a Workload and a PodGroup, what those hold, what the pods name.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PodGroup, Workload } from '../../../api/scheduling.js';
import type { KubeObject, Pod, PriorityClass } from '../../../api/types.js';
import { FakeClock } from '../../../util/clock.js';
import { MemoryCluster } from '../store.js';
import { groupTemplateNameAnnotation, podGroupNameFor, workloadNameFor } from './job_scheduling.js';

const cluster = (workloadWithJob = true, topologyAwareWorkloadScheduling = false) =>
  new MemoryCluster({ clock: new FakeClock(0), workloadControllers: true, gates: { genericWorkload: true, workloadWithJob, topologyAwareWorkloadScheduling } });
const job = (name: string, spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace: 'default', ...meta },
  spec: { parallelism: 3, completions: 3, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } }, ...spec },
} as KubeObject);
const settle = (c: MemoryCluster) => c.controllers.settled();

describe('WorkloadWithJob: the Job controller makes a Workload and a PodGroup', () => {
  it('names them as upstream: the Job name and a hash of its uid, then the template name and a hash', () => {
    // Values from v1.37.2's computeWorkloadName/computePodGroupName for these inputs.
    assert.equal(workloadNameFor({ metadata: { name: 'train', uid: 'uid-7' } }), 'train-97f78b67');
    assert.equal(podGroupNameFor('train-abc', 'train-pgt-0'), 'train-abc-train-pgt-0-66cc9f69d5');
    // Too long together: the longer name gives way; when both are long, each keeps half the room.
    const cases: [number, (room: number) => [number, number]][] = [
      [100, (room) => [room - 100, 100]],
      [150, (room) => [room - Math.trunc(room / 2), Math.trunc(room / 2)]],
    ];
    for (const [tpl, keep] of cases) {
      const name = podGroupNameFor('w'.repeat(200), 't'.repeat(tpl));
      const hash = name.slice(name.lastIndexOf('-') + 1);
      const [w, t] = keep(253 - hash.length - 2);
      assert.equal(name, `${'w'.repeat(w)}-${'t'.repeat(t)}-${hash}`);
      assert.equal(name.length, 253);
    }
  });

  it('a new Job: a basic Workload of one template, its PodGroup, and pods that name the group', async () => {
    const c = cluster();
    c.create<PriorityClass>({ kind: 'PriorityClass', metadata: { name: 'batch-high' }, value: 500 } as PriorityClass);
    const j = c.create(job('train', { template: { spec: { priorityClassName: 'batch-high', restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } }));
    await settle(c);
    const [wl, more] = c.list<Workload>('Workload');
    assert.equal(more, undefined);
    assert.equal(wl!.metadata.name, workloadNameFor(j as never));
    assert.deepEqual(wl!.spec, {
      controllerRef: { apiGroup: 'batch', kind: 'Job', name: 'train' },
      podGroupTemplates: [{ name: 'train-pgt-0', schedulingPolicy: { basic: {} }, priorityClassName: 'batch-high' }],
    });
    assert.deepEqual(wl!.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.controller]), [['Job', 'train', true]]);
    const [pg] = c.list<PodGroup>('PodGroup');
    assert.equal(pg!.metadata.name, podGroupNameFor(wl!.metadata.name!, 'train-pgt-0'));
    assert.deepEqual(pg!.spec.workloadRef, { workloadName: wl!.metadata.name, templateName: 'train-pgt-0' });
    assert.equal(pg!.spec.priority, 500, 'Priority admission filled it from the class');
    assert.deepEqual(pg!.metadata.ownerReferences?.map((r) => [r.kind, r.controller ?? false]), [['Job', true], ['Workload', false]]);
    const pods = c.list<Pod>('Pod');
    assert.equal(pods.length, 3);
    for (const p of pods) {
      assert.deepEqual(p.spec.schedulingGroup, { podGroupName: pg!.metadata.name });
      assert.deepEqual(p.metadata.ownerReferences?.map((r) => [r.kind, r.controller ?? false]), [['Job', true], ['PodGroup', false]]);
    }
  });

  it('a gang Job: minCount defaults to parallelism, and follows it when parallelism changes', async () => {
    const c = cluster(true, true);
    c.create(job('mpi', { parallelism: 4, completions: 4, scheduling: { schedulingPolicy: { gang: {} }, disruptionMode: { all: {} }, schedulingConstraints: { topology: [{ key: 'rack' }] } } }));
    await settle(c);
    const wl = c.list<Workload>('Workload')[0]!;
    assert.deepEqual(wl.spec.podGroupTemplates![0], {
      name: 'mpi-pgt-0', schedulingPolicy: { gang: { minCount: 4 } }, schedulingConstraints: { topology: [{ key: 'rack' }] }, disruptionMode: { all: {} },
    });
    assert.deepEqual(c.list<PodGroup>('PodGroup')[0]!.spec.schedulingPolicy, { gang: { minCount: 4 } });
    const j = c.get<KubeObject & { spec: Record<string, unknown> }>('Job', 'default', 'mpi')!;
    c.update({ ...j, spec: { ...j.spec, parallelism: 2 } });
    await settle(c);
    assert.deepEqual(c.list<Workload>('Workload')[0]!.spec.podGroupTemplates![0]!.schedulingPolicy, { gang: { minCount: 2 } });
    assert.deepEqual(c.list<PodGroup>('PodGroup')[0]!.spec.schedulingPolicy, { gang: { minCount: 2 } });
  });

  it('TopologyAwareWorkloadScheduling off: the Workload strategy drops the template\'s schedulingConstraints', async () => {
    const c = cluster();
    c.create(job('mpi', { parallelism: 4, completions: 4, scheduling: { schedulingPolicy: { gang: {} }, schedulingConstraints: { topology: [{ key: 'rack' }] } } }));
    await settle(c);
    assert.deepEqual(c.list<Workload>('Workload')[0]!.spec.podGroupTemplates![0], { name: 'mpi-pgt-0', schedulingPolicy: { gang: { minCount: 4 } } });
  });

  it('the gate off: the Job strategy drops spec.scheduling', () => {
    const kept = cluster(true).create(job('g', { scheduling: { schedulingPolicy: { gang: {} } } })) as KubeObject & { spec: Record<string, unknown> };
    assert.deepEqual(kept.spec.scheduling, { schedulingPolicy: { gang: {} } });
    const dropped = cluster(false).create(job('g', { scheduling: { schedulingPolicy: { gang: {} } } })) as KubeObject & { spec: Record<string, unknown> };
    assert.equal(dropped.spec.scheduling, undefined);
  });

  it('an explicit gang minCount is kept', async () => {
    const c = cluster();
    c.create(job('mpi', { parallelism: 4, completions: 4, scheduling: { schedulingPolicy: { gang: { minCount: 3 } } } }));
    await settle(c);
    assert.deepEqual(c.list<PodGroup>('PodGroup')[0]!.spec.schedulingPolicy, { gang: { minCount: 3 } });
  });

  const untouched: { name: string; obj: () => KubeObject; gate?: boolean; group?: string }[] = [
    { name: 'the gate off', obj: () => job('plain'), gate: false },
    { name: 'a template that names its own group', group: 'mine',
      obj: () => job('own', { template: { spec: { schedulingGroup: { podGroupName: 'mine' }, restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } }) },
    { name: 'a Job another controller runs, without a delegated template', obj: () => job('child', {}, { ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Trainer', name: 't', uid: 'u-t', controller: true }] }) },
    { name: 'a Job that has already run (not new)', obj: () => ({ ...job('old'), status: { startTime: '2026-01-01T00:00:00Z' } }) as KubeObject },
  ];
  for (const c of untouched) {
    it(`no Workload nor PodGroup for ${c.name}; its pods join no group of ours`, async () => {
      const cl = cluster(c.gate ?? true);
      cl.create(c.obj());
      await settle(cl);
      assert.equal(cl.list('Workload').length, 0);
      assert.equal(cl.list('PodGroup').length, 0);
      const pods = cl.list<Pod>('Pod');
      assert.equal(pods.length, 3);
      for (const p of pods) assert.equal(p.spec.schedulingGroup?.podGroupName, c.group);
    });
  }

  it('a delegated Job gets only its PodGroup, from the template of its parent\'s Workload', async () => {
    const c = cluster();
    c.create<Workload>({
      apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'Workload', metadata: { name: 'trainer-wl', namespace: 'default' },
      spec: { controllerRef: { apiGroup: 'example.com', kind: 'Trainer', name: 't' }, podGroupTemplates: [
        { name: 'driver', schedulingPolicy: { basic: {} } }, { name: 'workers', schedulingPolicy: { gang: { minCount: 2 } } },
      ] },
    });
    c.create(job('workers', { parallelism: 2, completions: 2 }, {
      annotations: { [groupTemplateNameAnnotation]: 'workers' },
      ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Trainer', name: 't', uid: 'u-t', controller: true }],
    }));
    await settle(c);
    assert.equal(c.list('Workload').length, 1, 'the parent\'s only');
    const [pg] = c.list<PodGroup>('PodGroup');
    assert.equal(pg!.metadata.name, podGroupNameFor('trainer-wl', 'workers'));
    assert.deepEqual(pg!.spec.schedulingPolicy, { gang: { minCount: 2 } });
    assert.deepEqual(pg!.metadata.ownerReferences?.map((r) => r.kind), ['Job'], 'not owned by a Workload it does not own');
    for (const p of c.list<Pod>('Pod')) assert.equal(p.spec.schedulingGroup?.podGroupName, pg!.metadata.name);
  });

  it('a delegated Job whose parent has no Workload yet waits for it', async () => {
    const c = cluster();
    c.create(job('workers', {}, {
      annotations: { [groupTemplateNameAnnotation]: 'workers' },
      ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Trainer', name: 't', uid: 'u-t', controller: true }],
    }));
    await settle(c);
    assert.equal(c.list('PodGroup').length, 0);
    assert.equal(c.list<Pod>('Pod').every((p) => p.spec.schedulingGroup === undefined), true);
  });
});

describe('WorkloadWithJob reads Workloads and PodGroups through indexes (workloadByJobName, podGroupByWorkloadName)', () => {
  it('Job syncs never list the Workloads or PodGroups of the cluster', async () => {
    const c = cluster();
    const lists = new Map<string, number>();
    const list = c.list.bind(c);
    c.list = (<T extends KubeObject>(kind: string): T[] => {
      lists.set(kind, (lists.get(kind) ?? 0) + 1);
      return list<T>(kind);
    }) as typeof c.list;
    for (let i = 0; i < 20; i++) c.create(job(`j${i}`, { parallelism: 2, completions: 2, scheduling: { schedulingPolicy: { gang: {} } } }));
    await settle(c);
    assert.equal(lists.get('Workload') ?? 0, 0);
    assert.equal(lists.get('PodGroup') ?? 0, 0);
    c.list = list;
    assert.equal(c.list('Workload').length, 20);
    assert.equal(c.list('PodGroup').length, 20);
    for (const p of c.list<Pod>('Pod')) assert.ok(p.spec.schedulingGroup?.podGroupName?.startsWith(`${p.metadata.name!.replace(/-[^-]+$/, '')}-`), p.metadata.name);
  });

  it('a Workload that names the Job but is not controlled by it (bring your own) is ignored; the Job makes its own', async () => {
    const c = cluster();
    c.create<Workload>({
      apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'Workload', metadata: { name: 'byo', namespace: 'default' },
      spec: { controllerRef: { apiGroup: 'batch', kind: 'Job', name: 'train' }, podGroupTemplates: [{ name: 'x', schedulingPolicy: { basic: {} } }] },
    });
    const j = c.create(job('train'));
    await settle(c);
    assert.deepEqual(c.list<Workload>('Workload').map((w) => w.metadata.name).sort(), ['byo', workloadNameFor(j as never)].sort());
    assert.equal(c.list<PodGroup>('PodGroup').length, 1);
  });

  it('a Workload deleted leaves the index: the Job, no longer new, falls back to default scheduling for new pods', async () => {
    const c = cluster();
    c.create(job('train', { parallelism: 1, completions: 2 }));
    await settle(c);
    const [wl] = c.list<Workload>('Workload');
    c.remove('Workload', 'default', wl!.metadata.name!);
    c.remove('PodGroup', 'default', c.list<PodGroup>('PodGroup')[0]!.metadata.name!);
    const first = c.list<Pod>('Pod')[0]!;
    c.update<Pod>({ ...first, status: { ...first.status, phase: 'Succeeded' } });
    await settle(c);
    assert.equal(c.list('Workload').length, 0, 'not recreated: the Job has pods');
    const fresh = c.list<Pod>('Pod').filter((p) => p.metadata.name !== first.metadata.name);
    assert.equal(fresh.length, 1);
    assert.equal(fresh[0]!.spec.schedulingGroup, undefined);
  });
});
