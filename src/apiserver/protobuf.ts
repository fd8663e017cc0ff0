// Request bodies in Kubernetes' protobuf encoding (application/vnd.kubernetes.protobuf): the
// "k8s\0" prefix, a runtime.Unknown envelope naming apiVersion and kind, and the object's message,
// decoded into its JSON shape with the field table of protobuf_schema.ts
// (staging/src/k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go).
import { formatDurationNanos } from '../util/duration.js';
import { protoMessages, protoRoots, type ProtoField } from './protobuf_schema.js';
import { badRequest, unsupportedMediaType } from './status.js';

export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

const magic = [0x6b, 0x38, 0x73, 0x00];
const repeatedFlag = 1;
const mapFlag = 2;
const keptWhenZeroFlag = 4;

class Reader {
  pos: number;
  constructor(readonly buf: Buffer, start: number, readonly end: number) {
    this.pos = start;
  }

  /** A varint as a signed 64-bit integer (int32 negatives are sign-extended to ten bytes). */
  varint(): number {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.end) throw badRequest('unable to decode protobuf body: truncated varint');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) break;
      shift += 7n;
      if (shift > 63n) throw badRequest('unable to decode protobuf body: varint too long');
    }
    return Number(BigInt.asIntN(64, result));
  }

  /** The bounds of a length-delimited value. */
  bytes(): [number, number] {
    const n = this.varint();
    const start = this.pos;
    if (n < 0 || start + n > this.end) throw badRequest('unable to decode protobuf body: length out of range');
    this.pos += n;
    return [start, start + n];
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 2) this.bytes();
    else if (wireType === 5) this.pos += 4;
    else throw badRequest(`unable to decode protobuf body: unsupported wire type ${wireType}`);
  }
}

const fieldIndex = new Map<string, Map<number, ProtoField>>();

function fieldsOf(message: string): Map<number, ProtoField> {
  let m = fieldIndex.get(message);
  if (m === undefined) {
    const fields = protoMessages[message];
    if (fields === undefined) throw badRequest(`unable to decode protobuf body: no message ${message}`);
    m = new Map(fields.map((f) => [f[0], f]));
    fieldIndex.set(message, m);
  }
  return m;
}

/** RFC 3339 as metav1.Time (seconds) or MicroTime (microseconds) marshal it; the zero time is left out, as JSON's null. */
function timeOf(r: Reader, [start, end]: [number, number], micro: boolean): string | undefined {
  const inner = new Reader(r.buf, start, end);
  let seconds = 0;
  let nanos = 0;
  while (inner.pos < end) {
    const key = inner.varint();
    if (key >>> 3 === 1 && (key & 7) === 0) seconds = inner.varint();
    else if (key >>> 3 === 2 && (key & 7) === 0) nanos = inner.varint();
    else inner.skip(key & 7);
  }
  if (seconds === 0 && nanos === 0) return undefined;
  const iso = new Date(seconds * 1000).toISOString();
  return micro ? `${iso.slice(0, 19)}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${iso.slice(0, 19)}Z`;
}

/** The first field of a one-field message (Quantity's string, RawExtension's and FieldsV1's bytes). */
function onlyField(r: Reader, [start, end]: [number, number]): Buffer {
  const inner = new Reader(r.buf, start, end);
  let out: Buffer = Buffer.alloc(0);
  while (inner.pos < end) {
    const key = inner.varint();
    if (key >>> 3 === 1 && (key & 7) === 2) {
      const [s, e] = inner.bytes();
      out = r.buf.subarray(s, e);
    } else {
      inner.skip(key & 7);
    }
  }
  return out;
}

function intOrString(r: Reader, [start, end]: [number, number]): number | string {
  const inner = new Reader(r.buf, start, end);
  let type = 0;
  let intVal = 0;
  let strVal = '';
  while (inner.pos < end) {
    const key = inner.varint();
    const num = key >>> 3;
    if (num === 1) type = inner.varint();
    else if (num === 2) intVal = inner.varint();
    else if (num === 3) {
      const [s, e] = inner.bytes();
      strVal = r.buf.toString('utf8', s, e);
    } else inner.skip(key & 7);
  }
  return type === 1 ? strVal : intVal;
}

function jsonOf(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw badRequest('unable to decode protobuf body: an embedded object is not JSON');
  }
}

/** One value of `type` at the reader (its wire type already read). */
function value(r: Reader, type: string, wireType: number): unknown {
  switch (type) {
    case 'string': {
      const [s, e] = r.bytes();
      return r.buf.toString('utf8', s, e);
    }
    case 'bytes': {
      const [s, e] = r.bytes();
      return r.buf.subarray(s, e).toString('base64');
    }
    case 'bool':
      return r.varint() !== 0;
    case 'int32':
    case 'int64':
      return r.varint();
    case 'double': {
      const v = r.buf.readDoubleLE(r.pos);
      r.pos += 8;
      return v;
    }
    default:
  }
  if (wireType !== 2) throw badRequest(`unable to decode protobuf body: ${type} with wire type ${wireType}`);
  const bounds = r.bytes();
  switch (type) {
    case 'Time':
      return timeOf(r, bounds, false);
    case 'MicroTime':
      return timeOf(r, bounds, true);
    case 'Quantity':
      return onlyField(r, bounds).toString('utf8');
    case 'IntOrString':
      return intOrString(r, bounds);
    case 'RawExtension':
    case 'FieldsV1':
      return jsonOf(onlyField(r, bounds));
    case 'Duration': {
      const inner = new Reader(r.buf, bounds[0], bounds[1]);
      let nanos = 0;
      while (inner.pos < bounds[1]) {
        const key = inner.varint();
        if (key >>> 3 === 1) nanos = inner.varint();
        else inner.skip(key & 7);
      }
      return formatDurationNanos(nanos);
    }
    default:
      return message(r.buf, type, bounds[0], bounds[1]);
  }
}

const isZero = (v: unknown) => v === '' || v === 0 || v === false;

/** A map entry: key (1) and value (2). */
function mapEntry(r: Reader, valueType: string): [string, unknown] {
  const [start, end] = r.bytes();
  const inner = new Reader(r.buf, start, end);
  let key = '';
  let val: unknown = valueType === 'string' ? '' : undefined;
  while (inner.pos < end) {
    const k = inner.varint();
    if (k >>> 3 === 1) key = value(inner, 'string', k & 7) as string;
    else if (k >>> 3 === 2) val = value(inner, valueType, k & 7);
    else inner.skip(k & 7);
  }
  return [key, val];
}

const numeric = new Set(['int32', 'int64', 'bool', 'double']);

/** Decodes message `name` in buf[start, end) into its JSON object. */
function message(buf: Buffer, name: string, start: number, end: number): Record<string, unknown> {
  const fields = fieldsOf(name);
  const out: Record<string, unknown> = {};
  const r = new Reader(buf, start, end);
  while (r.pos < end) {
    const key = r.varint();
    const wireType = key & 7;
    const f = fields.get(key >>> 3);
    if (f === undefined) {
      r.skip(wireType);
      continue;
    }
    const [, json, type, flags] = f;
    if (flags & mapFlag) {
      const [k, v] = mapEntry(r, type);
      const m = (out[json] ??= {}) as Record<string, unknown>;
      m[k] = v;
    } else if (flags & repeatedFlag) {
      const list = (out[json] ??= []) as unknown[];
      if (wireType === 2 && numeric.has(type)) {
        // A packed run of numbers.
        const [s, e] = r.bytes();
        const inner = new Reader(buf, s, e);
        while (inner.pos < e) list.push(value(inner, type, type === 'double' ? 1 : 0));
      } else {
        list.push(value(r, type, wireType));
      }
    } else {
      const v = value(r, type, wireType);
      if (v === undefined || (isZero(v) && (flags & keptWhenZeroFlag) === 0)) delete out[json];
      else out[json] = v;
    }
  }
  return out;
}

/**
 * The JSON object of a protobuf request body: apiVersion and kind from the envelope, then the
 * object's fields. A kind outside the table is refused with 415, as a server that cannot decode
 * it; a malformed body with 400.
 */
export function decodeProtobufBody(buf: Buffer): Record<string, unknown> {
  if (buf.length < 4 || magic.some((b, i) => buf[i] !== b)) throw badRequest('provided object is not a protobuf encoded object (missing the "k8s\\x00" prefix)');
  const r = new Reader(buf, 4, buf.length);
  let apiVersion = '';
  let kind = '';
  let raw: [number, number] = [0, 0];
  while (r.pos < buf.length) {
    const key = r.varint();
    const num = key >>> 3;
    if (num === 1 && (key & 7) === 2) {
      // runtime.TypeMeta: apiVersion (1) and kind (2).
      const [s, e] = r.bytes();
      const tm = new Reader(buf, s, e);
      while (tm.pos < e) {
        const k = tm.varint();
        if (k >>> 3 === 1) apiVersion = value(tm, 'string', k & 7) as string;
        else if (k >>> 3 === 2) kind = value(tm, 'string', k & 7) as string;
        else tm.skip(k & 7);
      }
    } else if (num === 2 && (key & 7) === 2) {
      raw = r.bytes();
    } else {
      r.skip(key & 7);
    }
  }
  const root = protoRoots[`${apiVersion}/${kind}`] ?? protoRoots[`*/${kind}`];
  if (root === undefined) throw unsupportedMediaType(['application/json', 'application/yaml']);
  return { apiVersion, kind, ...message(buf, root, raw[0], raw[1]) };
}
