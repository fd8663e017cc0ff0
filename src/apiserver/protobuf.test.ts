// Protobuf request bodies decode into the JSON shape kube-apiserver would see, with the zero
// values Go's JSON would write kept and the ones it would omit left out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeProtobufBody } from './protobuf.js';
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

  it('refuses a body without the k8s prefix (400) and a kind it has no table for (415)', () => {
    assert.throws(() => decodeProtobufBody(Buffer.from('{"kind":"Pod"}')), (e: unknown) => e instanceof ServedStatusError && e.code === 400);
    assert.throws(() => decodeProtobufBody(envelopeOf('example.com/v1', 'Widget', [])), (e: unknown) => e instanceof ServedStatusError && e.code === 415);
    assert.throws(() => decodeProtobufBody(Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x40])), (e: unknown) => e instanceof ServedStatusError && e.code === 400);
  });
});
