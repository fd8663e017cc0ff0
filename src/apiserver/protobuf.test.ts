// Protobuf request bodies decode into the JSON shape kube-apiserver would see, with the zero
// values Go's JSON would write kept and the ones it would omit left out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { MemoryCluster } from '../cluster/memory/store.js';
import { FakeClock } from '../util/clock.js';
import { decodeProtobufBody, protobufMediaType } from './protobuf.js';
import { ApiServer } from './server.js';
import { ServedStatusError } from './status.js';

/** A tiny encoder for the tests: fields as [number, value]; strings, nested messages, varints. */
type Field = [number, string | number | boolean | Field[]];

function varint(n: number): number[] {
  const out: number[] = [];
  let v = BigInt.asUintN(64, BigInt(n));
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
}

function encode(fields: Field[]): Buffer {
  const parts: number[] = [];
  for (const [num, v] of fields) {
    if (typeof v === 'number' || typeof v === 'boolean') {
      parts.push(...varint(num << 3), ...varint(Number(v)));
    } else {
      const bytes = typeof v === 'string' ? Buffer.from(v) : encode(v);
      parts.push(...varint((num << 3) | 2), ...varint(bytes.length), ...bytes);
    }
  }
  return Buffer.from(parts);
}

/** The k8s\0 prefix and a runtime.Unknown of typeMeta (1) and the object's bytes (2). */
function envelopeOf(apiVersion: string, kind: string, object: Field[]): Buffer {
  const raw = encode(object);
  const typeMeta = encode([[1, apiVersion], [2, kind]]);
  const body = Buffer.concat([Buffer.from([0x0a, ...varint(typeMeta.length)]), typeMeta, Buffer.from([0x12, ...varint(raw.length)]), raw]);
  return Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), body]);
}

const zeroTime: Field[] = [[1, 0], [2, 0]];

/**
 * Bodies as client-go's typed scheduling/v1beta1 client sends them: Go's protobuf serializer
 * (apimachinery runtime/serializer/protobuf) over k8s.io/api v0.37.2, printed in base64. A Workload
 * "training" (labels app=train, controllerRef batch/Job train, templates "workers" gang minCount 4
 * with a rack topology constraint and "driver" basic), and its PodGroup "training-workers"
 * (workloadRef training/workers, gang minCount 4, priority 0).
 */
const goEncodedWorkload = Buffer.from('azhzAAolChlzY2hlZHVsaW5nLms4cy5pby92MWJldGExEghXb3JrbG9hZBKKAQotCgh0cmFpbmluZxIAGgdkZWZhdWx0IgAqADIAOABCAFoMCgNhcHASBXRyYWluElkKEwoFYmF0Y2gSA0pvYhoFdHJhaW4SMgoHd29ya2VycxIEEgIIBBofCh0KG3RvcG9sb2d5Lmt1YmVybmV0ZXMuaW8vcmFjazIAEg4KBmRyaXZlchICCgAyABoAIgA=', 'base64');
const goEncodedPodGroup = Buffer.from('azhzAAolChlzY2hlZHVsaW5nLms4cy5pby92MWJldGExEghQb2RHcm91cBJMCicKEHRyYWluaW5nLXdvcmtlcnMSABoHZGVmYXVsdCIAKgAyADgAQgASHxITCgh0cmFpbmluZxIHd29ya2VycxoEEgIIBDoAQAAaABoAIgA=', 'base64');

describe('protobuf request bodies', () => {
  it('a Namespace as kubectl create namespace sends it', () => {
    assert.deepEqual(decodeProtobufBody(envelopeOf('v1', 'Namespace', [[1, [[1, 'team'], [8, zeroTime]]], [2, []], [3, []]])),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' }, spec: {}, status: {} });
  });

  it('a PriorityClass keeps value 0 (JSON writes it) and drops an empty description and a false globalDefault', () => {
    assert.deepEqual(decodeProtobufBody(envelopeOf('scheduling.k8s.io/v1', 'PriorityClass', [[1, [[1, 'zero']]], [2, 0], [3, false], [4, '']])),
      { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'zero' }, value: 0 });
  });

  it('a Deployment: replicas 0 kept (a pointer), labels as a map, requests as quantities, maxSurge as an int-or-string', () => {
    const container: Field[] = [[1, 'c'], [2, 'nginx'], [8, [[2, [[1, 'cpu'], [2, [[1, '100m']]]]]]]];
    const spec: Field[] = [
      [1, 0],
      [2, [[1, [[1, 'app'], [2, 'api']]]]],
      [3, [[1, [[11, [[1, 'app'], [2, 'api']]], [8, zeroTime]]], [2, [[2, container], [3, 'Always']]]]],
      [4, [[1, 'RollingUpdate'], [2, [[1, [[1, 1], [3, '25%']]], [2, [[1, 0], [2, 1]]]]]]],
    ];
    const d = decodeProtobufBody(envelopeOf('apps/v1', 'Deployment', [[1, [[1, 'api'], [3, 'team']]], [2, spec]]));
    assert.deepEqual(d.spec, {
      replicas: 0,
      selector: { matchLabels: { app: 'api' } },
      template: { metadata: { labels: { app: 'api' } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }], restartPolicy: 'Always' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
    });
  });

  it('DeleteOptions of any group version, grace period 0 kept (a pointer), dryRun as a list', () => {
    assert.deepEqual(decodeProtobufBody(envelopeOf('policy/v1', 'DeleteOptions', [[1, 0], [5, 'All'], [4, 'Background']])),
      { apiVersion: 'policy/v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, dryRun: ['All'], propagationPolicy: 'Background' });
  });

  it('an Eviction with its metadata and delete options', () => {
    assert.deepEqual(decodeProtobufBody(envelopeOf('policy/v1', 'Eviction', [[1, [[1, 'web-0'], [3, 'default']]], [2, [[1, 30]]]])),
      { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web-0', namespace: 'default' }, deleteOptions: { gracePeriodSeconds: 30 } });
  });

  it('a scheduling.k8s.io/v1beta1 Workload encoded by Go: empty policy structs kept as {}, scheduling\'s own TypedLocalObjectReference', () => {
    assert.deepEqual(decodeProtobufBody(goEncodedWorkload), {
      apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'Workload', metadata: { name: 'training', namespace: 'default', labels: { app: 'train' } },
      spec: {
        controllerRef: { apiGroup: 'batch', kind: 'Job', name: 'train' },
        podGroupTemplates: [
          { name: 'workers', schedulingPolicy: { gang: { minCount: 4 } }, schedulingConstraints: { topology: [{ key: 'topology.kubernetes.io/rack' }] } },
          { name: 'driver', schedulingPolicy: { basic: {} } },
        ],
      },
    });
  });

  it('a scheduling.k8s.io/v1beta1 PodGroup encoded by Go: priority 0 kept (a pointer), an empty priorityClassName dropped', () => {
    assert.deepEqual(decodeProtobufBody(goEncodedPodGroup), {
      apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name: 'training-workers', namespace: 'default' },
      spec: { workloadRef: { workloadName: 'training', templateName: 'workers' }, schedulingPolicy: { gang: { minCount: 4 } }, priority: 0 },
      status: {},
    });
  });

  it('refuses a body without the k8s prefix (400) and a kind it has no table for (415)', () => {
    assert.throws(() => decodeProtobufBody(Buffer.from('{"kind":"Pod"}')), (e: unknown) => e instanceof ServedStatusError && e.code === 400);
    assert.throws(() => decodeProtobufBody(envelopeOf('example.com/v1', 'Widget', [])), (e: unknown) => e instanceof ServedStatusError && e.code === 415);
    assert.throws(() => decodeProtobufBody(Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x40])), (e: unknown) => e instanceof ServedStatusError && e.code === 400);
  });
});

describe('protobuf request bodies of the pod-group kinds through the API server (GenericWorkload on)', () => {
  it('creates the Workload and the PodGroup client-go sent, as their JSON would have', async () => {
    const cluster = new MemoryCluster({ clock: new FakeClock(Date.parse('2026-01-01T00:00:00Z')) });
    const server = await ApiServer.start({ cluster, port: 0, clock: new FakeClock(0), featureGate: () => true });
    try {
      const post = async (resource: string, body: Buffer) => {
        const res = await fetch(`${server.url}/apis/scheduling.k8s.io/v1beta1/namespaces/default/${resource}`, { method: 'POST', headers: { 'Content-Type': protobufMediaType, Accept: 'application/json' }, body });
        return { code: res.status, body: JSON.parse(await res.text()) as Record<string, unknown> };
      };
      const w = await post('workloads', goEncodedWorkload);
      assert.equal(w.code, 201, JSON.stringify(w.body));
      const pg = await post('podgroups', goEncodedPodGroup);
      assert.equal(pg.code, 201, JSON.stringify(pg.body));
      const stored = cluster.get<KubeObject & { spec?: unknown }>('PodGroup', 'default', 'training-workers');
      assert.deepEqual(stored?.spec, { workloadRef: { workloadName: 'training', templateName: 'workers' }, schedulingPolicy: { gang: { minCount: 4 } }, priority: 0 });
      assert.deepEqual(cluster.get('Workload', 'default', 'training')?.metadata?.labels, { app: 'train' });
    } finally {
      await server.close();
    }
  });
});
