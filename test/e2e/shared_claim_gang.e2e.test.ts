// A gang sharing one PodGroup claim (DRAWorkloadResourceClaims) on the pinned kube-apiserver,
// first under upstream's kube-scheduler, then under our `run` (issue #26). It settles what a
// real API server does to the second member's PreBind: upstream's DynamicResources (bindClaim)
// writes the claim from the copy PreFilter read, so whichever member writes second meets a
// resourceVersion conflict, reads the claim again, finds it allocated and fails with "got
// allocated elsewhere in the meantime"; the member is retried, finds the claim reserved for its
// group and binds. Both schedulers must end alike: every member on the GPU node, the claim
// allocated once and reserved for the group only, and the same failures recorded on the way.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makeNode } from '../../src/testing/builders.js';
import { binaries, Child, ControlPlane, eventually, missingBinaries, startOurs } from './control_plane.js';

const skip = missingBinaries();
const gates = 'GenericWorkload=true,DRAWorkloadResourceClaims=true';
const oursName = 'kube-scheduler-ts';
const members = 2;

type Obj = Record<string, unknown>;

/** What one scheduler did to one gang, read back from the API server. */
interface Outcome {
  /** Each member's node. */
  nodes: Record<string, string>;
  /** The claim's allocated devices ("driver/pool/device") and who it is reserved for ("resource/name"). */
  claim: { devices: string[]; reservedFor: string[]; finalizers: string[] };
  /**
   * The FailedScheduling notes each member got on the way, the claim's name masked, sorted: which
   * member's binding cycle writes the claim first is goroutine (or event-loop) timing.
   */
  failures: string[][];
}

/**
 * One gang's objects, all named from `prefix` so the two schedulers' gangs share nothing: a node
 * with one GPU of the gang's own driver (and its class), a CPU-only node, the claim, the PodGroup
 * listing it and the members naming the group's entry.
 */
function gangObjects(prefix: string, schedulerName: string): { path: string; body: Obj }[] {
  const driver = `${prefix}.gpu.example.com`;
  const claim = { name: `${prefix}-gpu`, namespace: 'default' };
  const out: { path: string; body: Obj }[] = [
    { path: '/api/v1/nodes', body: makeNode(`${prefix}-gpu-node`, { allocatable: { cpu: '8', memory: '32Gi', pods: '110' } }) as unknown as Obj },
    { path: '/api/v1/nodes', body: makeNode(`${prefix}-cpu-node`, { allocatable: { cpu: '8', memory: '32Gi', pods: '110' } }) as unknown as Obj },
    { path: '/apis/resource.k8s.io/v1/deviceclasses', body: { metadata: { name: driver }, spec: { selectors: [{ cel: { expression: `device.driver == "${driver}"` } }] } } },
    {
      path: '/apis/resource.k8s.io/v1/resourceslices',
      body: { metadata: { name: `${prefix}-gpu-node-gpu` }, spec: { driver, pool: { name: `${prefix}-gpu-node`, generation: 1, resourceSliceCount: 1 }, nodeName: `${prefix}-gpu-node`, devices: [{ name: 'gpu-0' }] } },
    },
    { path: '/apis/resource.k8s.io/v1/namespaces/default/resourceclaims', body: { metadata: claim, spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: driver } }] } } } },
    {
      path: '/apis/scheduling.k8s.io/v1beta1/namespaces/default/podgroups',
      body: { metadata: { name: prefix, namespace: 'default' }, spec: { schedulingPolicy: { gang: { minCount: members } }, resourceClaims: [{ name: 'gpu', resourceClaimName: claim.name }] } },
    },
  ];
  for (let i = 0; i < members; i++) {
    out.push({
      path: '/api/v1/namespaces/default/pods',
      body: {
        metadata: { name: `${prefix}-m${i}`, namespace: 'default' },
        spec: {
          schedulerName,
          schedulingGroup: { podGroupName: prefix },
          resourceClaims: [{ name: 'gpu', resourceClaimName: claim.name }],
          containers: [{ name: 'main', image: 'registry.example/ml:0.9', resources: { requests: { cpu: '1', memory: '1Gi' }, claims: [{ name: 'gpu' }] } }],
        },
      },
    });
  }
  return out;
}

interface ApiClaim {
  metadata: { finalizers?: string[] };
  status?: { allocation?: { devices?: { results?: { driver: string; pool: string; device: string }[] } }; reservedFor?: { resource: string; name: string }[] };
}

interface ApiEvent {
  reason: string;
  note?: string;
  regarding: { kind: string; name: string };
}

async function createGang(cp: ControlPlane, prefix: string, schedulerName: string): Promise<void> {
  for (const { path, body } of gangObjects(prefix, schedulerName)) {
    await cp.create(path, body);
    if (path === '/api/v1/nodes') {
      // kube-apiserver's admission taints a new node not-ready until a kubelet reports; none runs.
      const name = (body.metadata as { name: string }).name;
      const r = await cp.api('PATCH', `/api/v1/nodes/${name}`, { spec: { taints: null } }, 'application/merge-patch+json');
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
  }
}

/** Waits for every member to be bound, then reads what the scheduler left behind. */
async function outcome(cp: ControlPlane, prefix: string): Promise<Outcome> {
  const nodes: Record<string, string> = {};
  for (let i = 0; i < members; i++) {
    const name = `${prefix}-m${i}`;
    nodes[name] = await eventually(`${name} to be bound`, async () => {
      const r = await cp.api('GET', `/api/v1/namespaces/default/pods/${name}`);
      return (r.body as { spec?: { nodeName?: string } }).spec?.nodeName || undefined;
    }, 60_000, 250);
  }
  const claim = (await cp.api('GET', `/apis/resource.k8s.io/v1/namespaces/default/resourceclaims/${prefix}-gpu`)).body as ApiClaim;
  // Events are written in the background after the attempt: give them a moment to land.
  await new Promise((r) => setTimeout(r, 2000));
  const events = ((await cp.api('GET', '/apis/events.k8s.io/v1/namespaces/default/events')).body as { items: ApiEvent[] }).items;
  const failures = Object.keys(nodes).map((name) => events
    .filter((e) => e.regarding.kind === 'Pod' && e.regarding.name === name && e.reason === 'FailedScheduling')
    .map((e) => (e.note ?? '').replaceAll(prefix, '<gang>'))
    .sort());
  return {
    nodes: Object.fromEntries(Object.entries(nodes).map(([k, v]) => [k.slice(prefix.length), v.slice(prefix.length)])),
    claim: {
      devices: (claim.status?.allocation?.devices?.results ?? []).map((d) => `${d.pool.slice(prefix.length)}/${d.device}`),
      reservedFor: (claim.status?.reservedFor ?? []).map((c) => `${c.resource}/${c.name.slice(prefix.length) || '<gang>'}`),
      finalizers: claim.metadata.finalizers ?? [],
    },
    failures: failures.sort((a, b) => a.length - b.length || a.join().localeCompare(b.join())),
  };
}

describe('a gang sharing a PodGroup claim on the pinned kube-apiserver', { skip: skip ?? false, timeout: 600_000 }, () => {
  let cp: ControlPlane;
  let upstream: Child | undefined;
  let ours: Child | undefined;
  let upstreamOutcome: Outcome | undefined;

  before(async () => {
    cp = await ControlPlane.start([`--feature-gates=${gates}`, '--runtime-config=scheduling.k8s.io/v1beta1=true']);
  });

  after(async () => {
    await ours?.stop();
    await upstream?.stop();
    await cp?.stop();
  });

  it('upstream kube-scheduler: both members on the GPU node, the second after its PreBind met the first one\'s allocation', async (t) => {
    upstream = new Child('kube-scheduler', binaries.kubeScheduler, [
      '--kubeconfig', cp.kubeconfig, '--authentication-kubeconfig', cp.kubeconfig, '--authorization-kubeconfig', cp.kubeconfig,
      '--leader-elect=false', '--secure-port', '0', `--feature-gates=${gates}`,
    ]);
    try {
      await createGang(cp, 'up', 'default-scheduler');
      upstreamOutcome = await outcome(cp, 'up');
      t.diagnostic(`upstream: ${JSON.stringify(upstreamOutcome)}`);
      assert.deepEqual(upstreamOutcome.nodes, { '-m0': '-gpu-node', '-m1': '-gpu-node' });
      assert.deepEqual(upstreamOutcome.claim, { devices: ['-gpu-node/gpu-0'], reservedFor: ['podgroups/<gang>'], finalizers: ['resource.kubernetes.io/delete-protection'] });
      // One member's PreBind wrote the claim from a stale copy: a conflict, then the claim read
      // again, allocated. The fake client of the differential harness raised no conflict here.
      assert.deepEqual(upstreamOutcome.failures, [[], ['running PreBind plugin "DynamicResources": claim default/<gang>-gpu got allocated elsewhere in the meantime']]);
    } catch (err) {
      t.diagnostic(`--- upstream kube-scheduler\n${upstream.tail(80)}\n${cp.logs()}`);
      throw err;
    } finally {
      await upstream.stop();
    }
  });

  it('run: the same nodes, claim and failures as upstream', async (t) => {
    assert.ok(upstreamOutcome, 'upstream\'s outcome');
    ours = startOurs(cp, oursName, [`--feature-gates=${gates}`]);
    try {
      await createGang(cp, 'ours', oursName);
      const got = await outcome(cp, 'ours');
      t.diagnostic(`ours: ${JSON.stringify(got)}`);
      assert.deepEqual(got, upstreamOutcome);
    } catch (err) {
      t.diagnostic(`--- ours\n${ours.tail(80)}\n${cp.logs()}`);
      throw err;
    }
  });
});

if (skip) console.log(`# shared-claim gang e2e skipped: ${skip}`);
