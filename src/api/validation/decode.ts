// Decoding an object as kube-apiserver's JSON decoding does (encoding/json into the typed structs,
// resource.Quantity.UnmarshalJSON, intstr.IntOrString, metav1.Time): a value of the wrong type is
// a decode error (the API's 400 "cannot be handled as a Pod"), and JSON nulls become Go's nil or
// zero values, so a `taints: [null]` is stored as `taints: [{}]`, which validation then judges.
import { exactScaledValue, parseQuantity, QuantityError } from '../quantity.js';
import { child, index, typeInvalid, type FieldError } from './field.js';
import { goTypeName, type Shape, type StructShape } from './schema.js';

/** The first value decoding could not accept, and where. */
export interface DecodeIssue {
  /** The field path with indices, as validation errors print it. */
  readonly field: string;
  readonly value: unknown;
  /** The Go error text after "<Kind> in version ... cannot be handled as a <Kind>: ". */
  readonly message: string;
  /** The same problem as a field error (for reports that list field errors). */
  readonly error: FieldError;
}

export type DecodeResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issue: DecodeIssue };

/** Go's name for a JSON value's kind, as UnmarshalTypeError prints it. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string': return 'string';
    case 'number': return 'number';
    case 'boolean': return 'bool';
    default: return 'object';
  }
}

const int32Min = -(2 ** 31);
const int32Max = 2 ** 31 - 1;

class Stop extends Error {
  constructor(readonly issue: DecodeIssue) {
    super(issue.message);
  }
}

/**
 * Where a value sits: a chain of steps from the root, turned into path strings only when decoding
 * fails, so a good object costs no string building.
 */
interface Where {
  readonly parent: Where | null;
  /** A field or map key name, or a list index. */
  readonly step: string | number;
  /** Whether `step` is a struct field (part of encoding/json's path) rather than a key or index. */
  readonly isField: boolean;
  /** The Go struct declaring the field. */
  readonly struct: string;
}

const root: Where = { parent: null, step: '', isField: false, struct: '' };

/** field.Path form: spec.containers[0].resources.requests.cpu. */
function fieldPath(w: Where): string {
  if (w.parent === null) return '';
  const up = fieldPath(w.parent);
  return typeof w.step === 'number' ? index(up, w.step) : child(up, w.step);
}

/** encoding/json's form: the struct field names from the root, without indices or keys. */
function goPath(w: Where): string {
  const names: string[] = [];
  for (let x: Where | null = w; x !== null && x.parent !== null; x = x.parent) if (x.isField) names.push(String(x.step));
  return names.reverse().join('.');
}

/** The struct declaring the innermost field on the way to `w`. */
function declaringStruct(w: Where): string {
  for (let x: Where | null = w; x !== null; x = x.parent) if (x.isField) return x.struct;
  return '';
}

function fail(w: Where, shape: Shape, value: unknown, what = jsonKind(value)): never {
  const goType = goTypeName(shape);
  const path = goPath(w);
  const at = path === '' ? `Go value of type ${goType}` : `Go struct field ${declaringStruct(w)}.${path} of type ${goType}`;
  const field = fieldPath(w);
  throw new Stop({ field, value, message: `json: cannot unmarshal ${what} into ${at}`, error: typeInvalid(field, value, `must be of type ${goType}`) });
}

function failWith(w: Where, value: unknown, message: string, detail: string): never {
  const field = fieldPath(w);
  throw new Stop({ field, value, message, error: { type: 'FieldValueInvalid', field, value, detail } });
}

const quantityFormat = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

function checkQuantity(w: Where, value: unknown): void {
  if (typeof value === 'string' || typeof value === 'number') {
    try {
      // The allocation-free reader accepts the usual quantities; anything else is parsed in full.
      if (exactScaledValue(value, -3) === undefined) parseQuantity(value);
      return;
    } catch (err) {
      if (!(err instanceof QuantityError)) throw err;
      const detail = err.message.replace(/^invalid quantity "(?:[^"\\]|\\.)*": /, '');
      failWith(w, value, detail, detail);
    }
  }
  // UnmarshalJSON parses whatever JSON text it is given: anything else is not a quantity.
  failWith(w, value, quantityFormat, quantityFormat);
}

function isInteger(v: number, go: 'int32' | 'int64'): boolean {
  if (!Number.isInteger(v)) return false;
  return go === 'int64' ? Math.abs(v) <= Number.MAX_SAFE_INTEGER * 1024 : v >= int32Min && v <= int32Max;
}

/** RFC 3339 as metav1.Time reads it. */
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const isLeaf = (s: Shape): boolean => s.t !== 'struct' && s.t !== 'list' && s.t !== 'map';

/**
 * Checks a scalar `value` (not null) found at `step` under `parent`. The Where of the value is
 * only built when it fails: a good object costs no allocation per scalar.
 */
function checkLeaf(shape: Shape, value: unknown, parent: Where, step: string | number, isField: boolean, struct: string, mode: Mode): void {
  switch (shape.t) {
    case 'string':
      if (typeof value === 'string') return;
      break;
    case 'bool':
      if (typeof value === 'boolean') return;
      break;
    case 'int':
      if (typeof value === 'number' && isInteger(value, shape.go)) return;
      break;
    case 'intOrString':
      if (typeof value === 'string' || (typeof value === 'number' && isInteger(value, 'int32'))) return;
      break;
    case 'quantity':
      if (typeof value === 'string' || typeof value === 'number') {
        if (!mode.parseQuantities) return;
        try {
          if (exactScaledValue(value, -3) !== undefined) return;
        } catch {
          // Not a quantity: failLeaf reports why.
        }
      }
      break;
    case 'time':
      if (typeof value === 'string' && rfc3339.test(value) && !Number.isNaN(Date.parse(value))) return;
      break;
    default:
      return;
  }
  failLeaf(shape, value, { parent, step, isField, struct });
}

/** The error a scalar check found (or, for quantities the fast reader declines, no error at all). */
function failLeaf(shape: Shape, value: unknown, w: Where): void {
  switch (shape.t) {
    case 'int':
    case 'intOrString':
      if (typeof value === 'number') fail(w, shape, value, `number ${Number.isFinite(value) ? String(value) : value > 0 ? '+Inf' : '-Inf'}`);
      if (shape.t === 'intOrString' && typeof value === 'string') return;
      fail(w, shape, value);
      break;
    case 'quantity':
      checkQuantity(w, value);
      return;
    case 'time': {
      if (typeof value !== 'string') fail(w, shape, value);
      const q = JSON.stringify(value);
      failWith(w, value, `parsing time ${q} as "2006-01-02T15:04:05Z07:00": cannot parse ${q} as "2006"`, 'must be an RFC 3339 time');
      break;
    }
    default:
      fail(w, shape, value);
  }
}

/** A value of a container shape (struct, list, map; not null): checked, and copied when `copy`. */
function decodeValue(shape: Shape, value: unknown, w: Where, mode: Mode): unknown {
  switch (shape.t) {
    case 'list': {
      if (!Array.isArray(value)) fail(w, shape, value);
      const of = shape.of;
      const leaf = isLeaf(of);
      const out = mode.copy ? new Array<unknown>(value.length) : null;
      for (let i = 0; i < value.length; i++) {
        const x = value[i];
        let v: unknown;
        if (x === null || x === undefined) {
          // Decoding turns a null element into the zero value; an object said to be decoded has none.
          if (!mode.copy && of.t !== 'any') fail({ parent: w, step: i, isField: false, struct: '' }, of, null, 'null');
          v = zeroValue(of);
        } else if (leaf) {
          checkLeaf(of, x, w, i, false, '', mode);
          v = x;
        } else {
          v = decodeValue(of, x, { parent: w, step: i, isField: false, struct: '' }, mode);
        }
        if (out !== null) out[i] = v;
      }
      return out ?? value;
    }
    case 'map': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(w, shape, value);
      const src = value as Record<string, unknown>;
      const of = shape.of;
      const leaf = isLeaf(of);
      const out: Record<string, unknown> | null = mode.copy ? {} : null;
      for (const k in src) {
        if (k === '__proto__') continue;
        const x = src[k];
        let v: unknown;
        if (x === null || x === undefined) v = zeroValue(of);
        else if (leaf) {
          checkLeaf(of, x, w, k, false, '', mode);
          v = x;
        } else v = decodeValue(of, x, { parent: w, step: k, isField: false, struct: '' }, mode);
        if (out !== null) out[k] = v;
      }
      return out ?? value;
    }
    case 'struct':
      if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(w, shape, value);
      return decodeStruct(shape, value as Record<string, unknown>, w, mode);
    default:
      checkLeaf(shape, value, w.parent ?? root, w.step, w.isField, w.struct, mode);
      return value;
  }
}

/** Go's zero value of a list element or map value a JSON null stands for. */
function zeroValue(shape: Shape): unknown {
  switch (shape.t) {
    case 'struct':
    case 'map':
      return {};
    case 'list':
      return [];
    case 'string':
    case 'time':
      return '';
    case 'bool':
      return false;
    case 'any':
      return null;
    default:
      return 0;
  }
}

function decodeStruct(shape: StructShape, src: Record<string, unknown>, w: Where, mode: Mode): Record<string, unknown> {
  const out: Record<string, unknown> | null = mode.copy ? {} : null;
  const fields = shape.fields;
  // for-in without an own-property test: JSON objects have no enumerable inherited members, and
  // this walk runs for every pod the scheduler sees (no key array allocated).
  for (const k in src) {
    // "__proto__" would replace the copy's prototype; documents carrying it are refused earlier.
    if (k === '__proto__') continue;
    const v = src[k];
    const fieldShape = fields.get(k);
    if (fieldShape === undefined) {
      // Fields we do not model pass through as given.
      if (out !== null) out[k] = v;
      continue;
    }
    // A null field is Go's nil (or zero) value: left out, as omitempty prints it.
    if (v === null || v === undefined) continue;
    if (isLeaf(fieldShape)) {
      checkLeaf(fieldShape, v, w, k, true, shape.name, mode);
      if (out !== null) out[k] = v;
    } else {
      const decoded = decodeValue(fieldShape, v, { parent: w, step: k, isField: true, struct: shape.name }, mode);
      if (out !== null) out[k] = decoded;
    }
  }
  return out ?? src;
}

/** How a walk goes: whether it builds the decoded copy, and whether it parses quantities in full. */
interface Mode {
  readonly copy: boolean;
  readonly parseQuantities: boolean;
}

function topLevel<T>(shape: StructShape, value: unknown, mode: Mode): DecodeResult<T> {
  try {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(root, shape, value);
    return { ok: true, value: decodeStruct(shape, value as Record<string, unknown>, root, mode) as T };
  } catch (err) {
    if (err instanceof Stop) return { ok: false, issue: err.issue };
    throw err;
  }
}

/**
 * Decodes `value` as an object of `shape`: the copy with nulls turned into Go's nil or zero
 * values, or the first value JSON decoding would refuse. Fields outside the shape are kept as given.
 */
export function decodeObject<T>(shape: StructShape, value: unknown): DecodeResult<T> {
  return topLevel<T>(shape, value, { copy: true, parseQuantities: true });
}

/**
 * Checks that `value` already has the decoded form of `shape`, allocating nothing when it has:
 * for objects from elsewhere (a real API server, library callers) that skipped decoding. Stricter
 * than decodeObject in one way: a null list element, which decoding would have replaced, is an issue.
 * Without `parseQuantities`, a quantity is only checked to be a string or a number (for callers
 * that parse the quantities anyway and come back here for the message when one fails).
 */
export function checkDecoded(shape: StructShape, value: unknown, parseQuantities = true): DecodeIssue | null {
  const r = topLevel<unknown>(shape, value, { copy: false, parseQuantities });
  return r.ok ? null : r.issue;
}

/** The deepest nesting of objects and arrays accepted in a document (our code walks objects recursively). */
export const maxNestingDepth = 100;

/** Keys no document may carry: assigning them would change an object's prototype. */
const forbiddenKey = '__proto__';

/**
 * Why a parsed document cannot be accepted before anything walks it recursively: nesting deeper
 * than maxNestingDepth, or a "__proto__" key. The walk itself uses no recursion and is bounded
 * in steps, so a hostile document (or a YAML alias expansion) cannot exhaust the stack or time.
 */
export function documentProblem(value: unknown): string | null {
  const stack: { v: unknown; d: number }[] = [{ v: value, d: 0 }];
  let steps = 0;
  while (stack.length > 0) {
    const { v, d } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > maxNestingDepth) return `exceeded max depth of ${maxNestingDepth} nested objects and arrays`;
    if (++steps > 5_000_000) return 'too many values';
    if (Array.isArray(v)) {
      for (const x of v) stack.push({ v: x, d: d + 1 });
      continue;
    }
    for (const k of Object.keys(v)) {
      if (k === forbiddenKey) return `field ${JSON.stringify(forbiddenKey)} is not allowed`;
      stack.push({ v: (v as Record<string, unknown>)[k], d: d + 1 });
    }
  }
  return null;
}
