// A CompositePodGroup tree whose preemption fails, on the pinned kube-apiserver under upstream's
// kube-scheduler and under our `run` at once (issue #26): the PodGroupInitiallyScheduled condition
// each PodGroup gets must read the same. Upstream appends PodGroupPostFilter's answer in place to
// every group's result, and the groups the root's failure reached hold the root's very status: a
// status shared by k results ends with the answer k times. Here the root `job` (a gang of its three
// children) fails at `job-b`, too big for any node; `job-a` (placed in the trial) and `job-c` (not
// reached) take the root's status, so with the root's own entry the answer is appended three
// times to what they report, and once to `job-b`'s own. The members' messages do not show it: each
// got a copy of its group's status before PodGroupPostFilter ran.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makeNode } from '../../src/testing/builders.js';
import { binaries, Child, ControlPlane, eventually, missingBinaries, startOurs } from './control_plane.js';

const skip = missingBinaries();
const gates = 'GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true';
const oursName = 'kube-scheduler-ts';
const ns = '/apis/scheduling.k8s.io/v1beta1/namespaces/default';

type Obj = Record<string, unknown>;

const pod = (name: string, cpu: string, o: { node?: string; group?: string; cls: string; schedulerName?: string }): Obj => ({
  metadata: { name, namespace: 'default' },
  spec: {
    ...(o.node !== undefined ? { nodeName: o.node } : {}),
    ...(o.group !== undefined ? { schedulingGroup: { podGroupName: o.group } } : {}),
    ...(o.schedulerName !== undefined ? { schedulerName: o.schedulerName } : {}),
    priorityClassName: o.cls,
    containers: [{ name: 'c', image: 'registry.example/ml:0.9', resources: { requests: { cpu, memory: '1Gi' } } }],
  },
});

/** One scheduler's tree, its objects named from `prefix`: the root and its children a, b and c, one member each. */
function tree(prefix: string, schedulerName: string): { path: string; body: Obj }[] {
  const ref = { workloadName: 'jobs', templateName: 'job' };
  const out: { path: string; body: Obj }[] = [{
    path: '/apis/scheduling.k8s.io/v1alpha3/namespaces/default/compositepodgroups',
    body: { metadata: { name: prefix }, spec: { workloadRef: ref, schedulingPolicy: { gang: { minGroupCount: 3 } }, priorityClassName: 'high' } },
  }];
  const cpu: Record<string, string> = { a: '1', b: '4', c: '1' };
  for (const c of ['a', 'b', 'c']) {
    out.push({
      path: `${ns}/podgroups`,
      body: { metadata: { name: `${prefix}-${c}` }, spec: { workloadRef: { ...ref, templateName: 'part' }, parentCompositePodGroupName: prefix, schedulingPolicy: { gang: { minCount: 1 } }, priorityClassName: 'high' } },
    });
  }
  for (const c of ['a', 'b', 'c']) out.push({ path: '/api/v1/namespaces/default/pods', body: pod(`${prefix}-${c}0`, cpu[c]!, { group: `${prefix}-${c}`, cls: 'high', schedulerName }) });
  return out;
}

interface ApiPodGroup {
  status?: { conditions?: { type: string; status: string; reason: string; message: string }[] };
}

const answerCount = (message: string) => message.split('pod group preemption: ').length - 1;

describe('a composite tree whose preemption fails: PodGroup conditions as upstream writes them', { skip: skip ?? false, timeout: 300_000 }, () => {
  let cp: ControlPlane;
  let upstream: Child;
  let ours: Child;

  before(async () => {
    cp = await ControlPlane.start([`--feature-gates=${gates}`, '--runtime-config=scheduling.k8s.io/v1alpha3=true,scheduling.k8s.io/v1beta1=true']);
    for (const [name, value] of [['high', 100], ['top', 1000]] as const) {
      await cp.create('/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name }, value });
    }
    for (const n of ['n1', 'n2']) {
      await cp.create('/api/v1/nodes', makeNode(n, { allocatable: { cpu: '4', memory: '8Gi', pods: '10' } }));
      await cp.api('PATCH', `/api/v1/nodes/${n}`, { spec: { taints: null } }, 'application/merge-patch+json');
      // Half of each node, held at a priority no tree may preempt.
      await cp.create('/api/v1/namespaces/default/pods', pod(`blocker-${n}`, '2', { node: n, cls: 'top' }));
    }
    await cp.create(`${ns}/workloads`, {
      metadata: { name: 'jobs' },
      spec: { compositePodGroupTemplates: [{ name: 'job', schedulingPolicy: { gang: { minGroupCount: 3 } }, podGroupTemplates: [{ name: 'part', schedulingPolicy: { gang: { minCount: 1 } } }] }] },
    });
    ours = startOurs(cp, oursName, [`--feature-gates=${gates}`]);
    upstream = new Child('kube-scheduler', binaries.kubeScheduler, [
      '--kubeconfig', cp.kubeconfig, '--authentication-kubeconfig', cp.kubeconfig, '--authorization-kubeconfig', cp.kubeconfig,
      '--leader-elect=false', '--secure-port', '0', `--feature-gates=${gates}`,
    ]);
  });

  after(async () => {
    await ours?.stop();
    await upstream?.stop();
    await cp?.stop();
  });

  /** The PodGroupInitiallyScheduled condition's message of each child, once all three have one. */
  async function conditions(prefix: string): Promise<Record<string, string>> {
    return eventually(`${prefix}'s PodGroups to get their condition`, async () => {
      const out: Record<string, string> = {};
      for (const c of ['a', 'b', 'c']) {
        const r = await cp.api('GET', `${ns}/podgroups/${prefix}-${c}`);
        const cond = (r.body as ApiPodGroup).status?.conditions?.find((x) => x.type === 'PodGroupInitiallyScheduled');
        if (cond === undefined) return undefined;
        assert.equal(cond.status, 'False');
        out[c] = cond.message;
      }
      return out;
    }, 60_000, 250);
  }

  it('our run writes each child the message upstream kube-scheduler writes: the answer three times where the root status is shared, once on its own', async (t) => {
    for (const o of [...tree('up', 'default-scheduler'), ...tree('ours', oursName)]) await cp.create(o.path, o.body);
    let theirs: Record<string, string> = {};
    let mine: Record<string, string> = {};
    try {
      theirs = await conditions('up');
      mine = await conditions('ours');
    } catch (err) {
      t.diagnostic(`--- ours\n${ours.tail()}\n--- upstream kube-scheduler\n${upstream.tail()}`);
      throw err;
    }
    assert.deepEqual({ a: answerCount(theirs.a!), b: answerCount(theirs.b!), c: answerCount(theirs.c!) }, { a: 3, b: 1, c: 3 }, JSON.stringify(theirs));
    assert.deepEqual(mine, theirs);
  });
});

if (skip) console.log(`# composite preemption status on the pinned control plane skipped: ${skip}`);
