// The embedded cluster's workload controllers and pod run times: what each controller creates and
// deletes as its workload, its pods and the nodes change.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Node, PersistentVolumeClaim, Pod } from '../../../api/types.js';
import { makeNode } from '../../../testing/builders.js';
import { FakeClock } from '../../../util/clock.js';
import type { WatchEvent } from '../../types.js';
import { MemoryCluster } from '../store.js';
import { runDurationAnnotation } from './index.js';
import { jobTrackingFinalizer } from './job.js';
import { templateHash } from './deployment.js';

const settle = async (c: MemoryCluster) => {
  await c.controllers.settled();
};
const newCluster = (clock = new FakeClock(0)) => new MemoryCluster({ clock, workloadControllers: true });
const template = (labels: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  metadata: { labels },
  spec: { containers: [{ name: 'c', image: 'img', resources: { requests: { cpu: '100m' } } }], ...extra },
});
const workload = (kind: string, name: string, spec: Record<string, unknown>): KubeObject =>
  ({ apiVersion: kind === 'Job' ? 'batch/v1' : 'apps/v1', kind, metadata: { name, namespace: 'default' }, spec } as KubeObject);
const podsOf = (c: MemoryCluster, prefix: string) => c.list<Pod>('Pod').filter((p) => p.metadata.name!.startsWith(prefix)).sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
const bind = async (c: MemoryCluster, p: Pod, node: string) => {
  await c.bind(p, node);
  await settle(c);
};

describe('workload controllers: off by default', () => {
  it('a scenario snapshot keeps its pods: a ReplicaSet short of replicas gets none added', async () => {
    const c = new MemoryCluster({ clock: new FakeClock(0) });
    c.create(workload('ReplicaSet', 'rs', { replicas: 3, selector: { matchLabels: { app: 'a' } }, template: template({ app: 'a' }) }));
    await settle(c);
    assert.equal(c.list('Pod').length, 0);
  });
});

describe('ReplicaSet', () => {
  it('creates the missing pods from its template, owned by it, with generated names', async () => {
    const c = newCluster();
    const rs = c.create(workload('ReplicaSet', 'web', { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }) }));
    await settle(c);
    const pods = podsOf(c, 'web-');
    assert.equal(pods.length, 3);
    for (const p of pods) {
      assert.match(p.metadata.name!, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.deepEqual(p.metadata.labels, { app: 'web' });
      assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata!.uid, controller: true, blockOwnerDeletion: true }]);
      assert.equal(p.spec.nodeName, undefined);
    }
    assert.equal((c.get<KubeObject & { status?: { replicas?: number } }>('ReplicaSet', 'default', 'web'))!.status!.replicas, 3);
  });

  it('scales down unscheduled pods first, then the newest', async () => {
    const clock = new FakeClock(0);
    const c = newCluster(clock);
    c.create(makeNode('n1'));
    const rs = c.create(workload('ReplicaSet', 'web', { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }) }));
    await settle(c);
    const [a, b] = podsOf(c, 'web-');
    await bind(c, a!, 'n1');
    await bind(c, b!, 'n1');
    c.update({ ...rs, spec: { ...(rs as { spec: object }).spec, replicas: 1 } });
    await settle(c);
    const left = podsOf(c, 'web-');
    assert.equal(left.length, 1);
    assert.equal(left[0]!.spec.nodeName, 'n1', 'the unscheduled pod went first, then one of the two bound');
  });

  it('replaces a pod that finished or was deleted', async () => {
    const c = newCluster();
    c.create(workload('ReplicaSet', 'web', { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }) }));
    await settle(c);
    const [a] = podsOf(c, 'web-');
    c.remove('Pod', 'default', a!.metadata.name!);
    await settle(c);
    assert.equal(podsOf(c, 'web-').length, 2);
    assert.ok(!podsOf(c, 'web-').some((p) => p.metadata.name === a!.metadata.name));
  });
});

describe('Deployment', () => {
  it('owns one ReplicaSet per template, named and selected by the template hash; a new template replaces the old at once', async () => {
    const c = newCluster();
    const spec = { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }) };
    const d = c.create(workload('Deployment', 'web', spec));
    await settle(c);
    const hash = templateHash(spec.template);
    const rs = c.get<KubeObject & { spec: { replicas: number; selector: { matchLabels: Record<string, string> } } }>('ReplicaSet', 'default', `web-${hash}`)!;
    assert.ok(rs, 'the ReplicaSet is named after the hash');
    assert.deepEqual(rs.spec.selector.matchLabels, { app: 'web', 'pod-template-hash': hash });
    assert.equal(podsOf(c, `web-${hash}-`).length, 2);
    assert.ok(podsOf(c, `web-${hash}-`).every((p) => p.metadata.labels!['pod-template-hash'] === hash));

    const next = { ...spec, template: template({ app: 'web' }, { priorityClassName: '' }) };
    next.template.spec.containers[0]!.image = 'img:v2';
    c.update({ ...d, spec: next });
    await settle(c);
    const hash2 = templateHash(next.template);
    assert.notEqual(hash2, hash);
    assert.equal(c.get<KubeObject & { spec: { replicas: number } }>('ReplicaSet', 'default', `web-${hash}`)!.spec.replicas, 0);
    assert.equal(podsOf(c, `web-${hash}-`).length, 0);
    assert.equal(podsOf(c, `web-${hash2}-`).length, 2);
  });

  type Scaled = KubeObject & { spec: { replicas: number; template: { metadata: { labels: Record<string, string> } } }; status?: { collisionCount?: number } };
  const spec = { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }) };

  it('a name another ReplicaSet holds is a hash collision: collisionCount goes up and names the new ReplicaSet', async () => {
    const c = newCluster();
    const hash = templateHash(spec.template);
    // Not the Deployment's: an unowned ReplicaSet that happens to have the name.
    c.create(workload('ReplicaSet', `web-${hash}`, { replicas: 0, selector: { matchLabels: { app: 'other' } }, template: template({ app: 'other' }) }));
    c.create(workload('Deployment', 'web', spec));
    await settle(c);
    const hash1 = templateHash(spec.template, 1);
    assert.equal(c.get<Scaled>('Deployment', 'default', 'web')!.status?.collisionCount, 1);
    assert.equal(c.get<Scaled>('ReplicaSet', 'default', `web-${hash1}`)?.spec.replicas, 2);
    assert.equal(podsOf(c, `web-${hash1}-`).length, 2);
    assert.deepEqual(c.get<Scaled>('ReplicaSet', 'default', `web-${hash}`)!.spec.template.metadata.labels, { app: 'other' }, 'the other ReplicaSet is left alone');
  });

  it('its new ReplicaSet is the one with its template: an owned one whose template changed is old, and its name a collision', async () => {
    const c = newCluster();
    c.create(workload('Deployment', 'web', spec));
    await settle(c);
    const hash = templateHash(spec.template);
    const rs = c.get<Scaled>('ReplicaSet', 'default', `web-${hash}`)!;
    c.update({ ...rs, spec: { ...rs.spec, template: { ...rs.spec.template, metadata: { labels: { ...rs.spec.template.metadata.labels, edited: 'yes' } } } } });
    const d = c.get<Scaled>('Deployment', 'default', 'web')!;
    c.update({ ...d, spec: { ...d.spec, replicas: 3 } });
    await settle(c);
    const hash1 = templateHash(spec.template, 1);
    assert.equal(c.get<Scaled>('Deployment', 'default', 'web')!.status?.collisionCount, 1);
    assert.equal(c.get<Scaled>('ReplicaSet', 'default', `web-${hash}`)!.spec.replicas, 0);
    assert.equal(c.get<Scaled>('ReplicaSet', 'default', `web-${hash1}`)!.spec.replicas, 3);
  });

  it('a template back to an earlier one scales that ReplicaSet up again (FindNewReplicaSet)', async () => {
    const c = newCluster();
    c.create(workload('Deployment', 'web', spec));
    await settle(c);
    const first = `web-${templateHash(spec.template)}`;
    const d = c.get<Scaled>('Deployment', 'default', 'web')!;
    c.update({ ...d, spec: { ...spec, template: template({ app: 'web' }, { priorityClassName: 'x' }) } });
    await settle(c);
    assert.equal(c.get<Scaled>('ReplicaSet', 'default', first)!.spec.replicas, 0);
    c.update({ ...c.get<Scaled>('Deployment', 'default', 'web')!, spec });
    await settle(c);
    assert.equal(c.get<Scaled>('ReplicaSet', 'default', first)!.spec.replicas, 2);
    assert.equal(c.list('ReplicaSet').length, 2);
    assert.equal(c.get<Scaled>('Deployment', 'default', 'web')!.status?.collisionCount, undefined);
  });

  it('deleting it deletes its ReplicaSets and their pods (garbage collection)', async () => {
    const c = newCluster();
    c.create(workload('Deployment', 'web', { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }) }));
    await settle(c);
    assert.equal(c.list('Pod').length, 2);
    c.remove('Deployment', 'default', 'web');
    await settle(c);
    assert.equal(c.list('ReplicaSet').length, 0);
    assert.equal(c.list('Pod').length, 0);
  });
});

describe('StatefulSet', () => {
  const sts = (policy: string) => workload('StatefulSet', 'db', {
    replicas: 3, serviceName: 'db', podManagementPolicy: policy, selector: { matchLabels: { app: 'db' } }, template: template({ app: 'db' }),
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
  });

  it('OrderedReady: the next ordinal waits until the previous one is bound; each gets its claim', async () => {
    const c = newCluster();
    c.create(makeNode('n1'));
    c.create(sts('OrderedReady'));
    await settle(c);
    assert.deepEqual(podsOf(c, 'db-').map((p) => p.metadata.name), ['db-0']);
    const p0 = podsOf(c, 'db-')[0]!;
    assert.equal(p0.spec.hostname, 'db-0');
    assert.equal(p0.spec.subdomain, 'db');
    assert.equal(p0.metadata.labels!['statefulset.kubernetes.io/pod-name'], 'db-0');
    assert.equal(p0.metadata.labels!['apps.kubernetes.io/pod-index'], '0');
    assert.deepEqual(p0.spec.volumes, [{ name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } }]);
    assert.ok(c.get<PersistentVolumeClaim>('PersistentVolumeClaim', 'default', 'data-db-0'));
    await bind(c, p0, 'n1');
    assert.deepEqual(podsOf(c, 'db-').map((p) => p.metadata.name), ['db-0', 'db-1']);
  });

  it('Parallel: every ordinal at once; scaling down removes the highest ordinals, keeping their claims', async () => {
    const c = newCluster();
    const set = c.create(sts('Parallel'));
    await settle(c);
    assert.deepEqual(podsOf(c, 'db-').map((p) => p.metadata.name), ['db-0', 'db-1', 'db-2']);
    c.update({ ...set, spec: { ...(set as { spec: object }).spec, replicas: 1 } });
    await settle(c);
    assert.deepEqual(podsOf(c, 'db-').map((p) => p.metadata.name), ['db-0']);
    assert.equal(c.list('PersistentVolumeClaim').length, 3);
  });
});

describe('DaemonSet', () => {
  it('one pod per eligible node, pinned by node affinity, with the daemon tolerations; tainted and non-matching nodes get none', async () => {
    const c = newCluster();
    c.create(makeNode('a', { labels: { role: 'worker' } }));
    c.create(makeNode('b', { labels: { role: 'worker' }, taints: [{ key: 'gpu', value: 'x', effect: 'NoSchedule' }] }));
    c.create(makeNode('c', { labels: { role: 'infra' } }));
    c.create(makeNode('d', { labels: { role: 'worker' }, unschedulable: true }));
    c.create(workload('DaemonSet', 'agent', { selector: { matchLabels: { app: 'agent' } }, template: template({ app: 'agent' }, { nodeSelector: { role: 'worker' } }) }));
    await settle(c);
    const pods = podsOf(c, 'agent-');
    const target = (p: Pod) => p.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]?.matchFields?.[0]?.values?.[0];
    assert.deepEqual(pods.map(target).sort(), ['a', 'd'], 'the unschedulable taint is tolerated; b\'s taint and c\'s labels are not matched');
    const keys = pods[0]!.spec.tolerations!.map((t) => `${t.key}:${t.effect}`);
    assert.deepEqual(keys, ['node.kubernetes.io/not-ready:NoExecute', 'node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/disk-pressure:NoSchedule',
      'node.kubernetes.io/memory-pressure:NoSchedule', 'node.kubernetes.io/pid-pressure:NoSchedule', 'node.kubernetes.io/unschedulable:NoSchedule']);
  });

  it('a new node gets a pod; a deleted node loses it', async () => {
    const c = newCluster();
    c.create(makeNode('a'));
    c.create(workload('DaemonSet', 'agent', { selector: { matchLabels: { app: 'agent' } }, template: template({ app: 'agent' }) }));
    await settle(c);
    c.create(makeNode('b'));
    await settle(c);
    assert.equal(podsOf(c, 'agent-').length, 2);
    c.remove('Node', '', 'a');
    await settle(c);
    assert.equal(podsOf(c, 'agent-').length, 1);
  });
});

describe('Job and pod run times', () => {
  it('runs parallelism pods at a time until completions succeeded, counting finished pods even once deleted', async () => {
    const clock = new FakeClock(0);
    const c = newCluster(clock);
    c.create(makeNode('n1'));
    c.create(workload('Job', 'batch', { parallelism: 2, completions: 3, template: {
      metadata: { labels: { app: 'b' }, annotations: { [runDurationAnnotation]: '1m' } },
      spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'img' }] },
    } }));
    await settle(c);
    let pods = podsOf(c, 'batch-');
    assert.equal(pods.length, 2);
    assert.deepEqual(pods[0]!.metadata.finalizers, [jobTrackingFinalizer]);
    for (const p of pods) await bind(c, p, 'n1');
    clock.advance(59_000);
    await settle(c);
    assert.ok(podsOf(c, 'batch-').every((p) => p.status?.phase !== 'Succeeded'), 'not before its run time');
    clock.advance(1_000);
    await settle(c);
    pods = podsOf(c, 'batch-');
    assert.equal(pods.filter((p) => p.status?.phase === 'Succeeded').length, 2);
    for (const p of pods.filter((p) => p.status?.phase === 'Succeeded')) {
      assert.deepEqual(p.metadata.finalizers, [], 'counted and released');
      c.remove('Pod', 'default', p.metadata.name!);
    }
    await settle(c);
    pods = podsOf(c, 'batch-');
    assert.equal(pods.length, 1, 'one completion left: one pod, though the finished ones are gone');
    await bind(c, pods[0]!, 'n1');
    clock.advance(60_000);
    await settle(c);
    const job = c.get<KubeObject & { status: { succeeded: number; active: number; conditions: { type: string }[] } }>('Job', 'default', 'batch')!;
    assert.equal(job.status.succeeded, 3);
    assert.equal(job.status.active, 0);
    assert.deepEqual(job.status.conditions.map((x) => x.type), ['Complete']);
  });

  it('a pod that restarts Always is deleted at the end of its run time; finished pods leave the scheduler\'s view', async () => {
    const clock = new FakeClock(0);
    const c = new MemoryCluster({ clock });
    c.create(makeNode('n1'));
    const seen: WatchEvent[] = [];
    await c.start((e) => seen.push(e));
    const always = c.create<Pod>({ kind: 'Pod', metadata: { name: 'svc', annotations: { [runDurationAnnotation]: '30s' } }, spec: { containers: [{ name: 'c' }] } });
    const never = c.create<Pod>({ kind: 'Pod', metadata: { name: 'task', annotations: { [runDurationAnnotation]: '30s' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c' }] } });
    await c.bind(always, 'n1');
    await c.bind(never, 'n1');
    clock.advance(30_000);
    assert.equal(c.get('Pod', 'default', 'svc'), undefined);
    assert.equal(c.get<Pod>('Pod', 'default', 'task')!.status!.phase, 'Succeeded');
    const last = seen.filter((e) => e.kind === 'Pod' && (e.object as Pod).metadata.name === 'task').at(-1)!;
    assert.equal(last.type, 'DELETED', 'the scheduler sees a finished pod leave, as its informer\'s field selector makes it');
    const relisted: WatchEvent[] = [];
    await c.start((e) => relisted.push(e));
    assert.ok(!relisted.some((e) => (e.object as Node).metadata?.name === 'task'), 'finished pods are not listed');
  });
});
