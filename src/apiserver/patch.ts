// The three patch formats of PATCH requests: JSON patch (RFC 6902), JSON merge patch (RFC 7386)
// and strategic merge patch with the list merge keys of the built-in types
// (staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go, k8s.io/api patchMergeKey tags).
import { badRequest } from './status.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A member of `o` itself, never one inherited from Object.prototype ("constructor", "__proto__"). */
const own = (o: JsonObject, k: string): Json | undefined => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

/** The child a pointer token names in `cur`, if any. */
function childOf(cur: Json, t: string): Json | undefined {
  return Array.isArray(cur) ? cur[Number(t)] : isObject(cur) ? own(cur, t) : undefined;
}

// ---- JSON merge patch ----

export function applyMergePatch(target: unknown, patch: unknown): Json {
  if (!isObject(patch)) return structuredClone(patch as Json);
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}

// ---- JSON patch ----

interface JsonPatchOp {
  op: string;
  path: string;
  from?: string;
  value?: Json;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw badRequest(`add operation does not apply: doc is missing path: "${path}"`);
  const tokens = path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  // Writing through "__proto__" would replace an object's prototype instead of adding a field.
  if (tokens.includes('__proto__')) throw badRequest(`path ${JSON.stringify(path)} is not allowed`);
  return tokens;
}

function parentOf(doc: Json, tokens: string[], path: string, op: string): { parent: Json[] | JsonObject; key: string } {
  let cur: Json = doc;
  for (let i = 0; i < tokens.length - 1; i++) {
    const t = tokens[i]!;
    const next = childOf(cur, t);
    if (next === undefined || next === null || typeof next !== 'object') throw badRequest(`${op} operation does not apply: doc is missing path: "${path}"`);
    cur = next;
  }
  if (cur === null || typeof cur !== 'object') throw badRequest(`${op} operation does not apply: doc is missing path: "${path}"`);
  return { parent: cur as Json[] | JsonObject, key: tokens[tokens.length - 1]! };
}

function getAt(doc: Json, path: string, op: string): Json {
  let cur: Json = doc;
  for (const t of pointer(path)) {
    const next = childOf(cur, t);
    if (next === undefined) throw badRequest(`${op} operation does not apply: doc is missing path: "${path}"`);
    cur = next;
  }
  return cur;
}

function arrayIndex(arr: Json[], key: string, path: string, op: string, forInsert: boolean): number {
  if (key === '-' && forInsert) return arr.length;
  const i = Number(key);
  if (!/^\d+$/.test(key) || i > arr.length || (!forInsert && i === arr.length)) throw badRequest(`${op} operation does not apply: doc is missing path: "${path}"`);
  return i;
}

function removeAt(doc: Json, path: string, op: string): Json {
  const { parent, key } = parentOf(doc, pointer(path), path, op);
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, key, path, op, false), 1)[0]!;
  if (!Object.prototype.hasOwnProperty.call(parent, key)) throw badRequest(`${op} operation does not apply: doc is missing path: "${path}"`);
  const v = parent[key]!;
  delete parent[key];
  return v;
}

function addAt(doc: Json, path: string, value: Json, op: string): Json {
  const tokens = pointer(path);
  if (tokens.length === 0) return value;
  const { parent, key } = parentOf(doc, tokens, path, op);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, path, op, true), 0, value);
  else parent[key] = value;
  return doc;
}

/** One operation of a JSON patch, its fields checked: a malformed patch is the client's error. */
function jsonPatchOp(item: unknown): JsonPatchOp {
  if (!isObject(item)) throw badRequest('json: cannot unmarshal non-object into Go value of type jsonpatch.Operation');
  const op = typeof item.op === 'string' ? item.op : 'unknown';
  if (typeof item.path !== 'string') throw badRequest(`${op} operation does not apply: doc is missing path: ""`);
  if (item.from !== undefined && typeof item.from !== 'string') throw badRequest(`${op} operation does not apply: doc is missing from path: ""`);
  return { op, path: item.path, from: item.from as string | undefined, value: item.value };
}

export function applyJsonPatch(target: unknown, patch: unknown): Json {
  if (!Array.isArray(patch)) throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let doc = structuredClone(target as Json);
  for (const item of patch as unknown[]) {
    const raw = jsonPatchOp(item);
    const { op, path } = raw;
    switch (op) {
      case 'add':
        doc = addAt(doc, path, structuredClone(raw.value ?? null), op);
        break;
      case 'remove':
        removeAt(doc, path, op);
        break;
      case 'replace':
        if (pointer(path).length === 0) {
          doc = structuredClone(raw.value ?? null);
          break;
        }
        removeAt(doc, path, op);
        doc = addAt(doc, path, structuredClone(raw.value ?? null), op);
        break;
      case 'move': {
        const v = removeAt(doc, raw.from ?? '', op);
        doc = addAt(doc, path, v, op);
        break;
      }
      case 'copy':
        doc = addAt(doc, path, structuredClone(getAt(doc, raw.from ?? '', op)), op);
        break;
      case 'test':
        if (JSON.stringify(getAt(doc, path, op)) !== JSON.stringify(raw.value ?? null)) {
          throw badRequest(`testing value ${path} failed: test failed`);
        }
        break;
      default:
        throw badRequest(`Unexpected kind: ${op}`);
    }
  }
  return doc;
}

// ---- strategic merge patch ----

/**
 * Lists merged by a key instead of replaced, by path from the object root ("[]" steps into list
 * items). Pod specs also appear under "spec.template.spec" of the workload kinds.
 */
const podSpecMergeKeys: Record<string, string> = {
  'containers': 'name',
  'initContainers': 'name',
  'ephemeralContainers': 'name',
  'volumes': 'name',
  'imagePullSecrets': 'name',
  'hostAliases': 'ip',
  'topologySpreadConstraints': 'topologyKey',
  'resourceClaims': 'name',
  'schedulingGates': 'name',
  'containers[].ports': 'containerPort',
  'containers[].env': 'name',
  'containers[].volumeMounts': 'mountPath',
  'containers[].volumeDevices': 'devicePath',
  'initContainers[].ports': 'containerPort',
  'initContainers[].env': 'name',
  'initContainers[].volumeMounts': 'mountPath',
  'initContainers[].volumeDevices': 'devicePath',
};

const rootMergeKeys: Record<string, string> = {
  'metadata.ownerReferences': 'uid',
  'status.conditions': 'type',
  'status.podIPs': 'ip',
  'status.hostIPs': 'ip',
  'status.addresses': 'type',
  'spec.ports': 'port',
  // ResourceClaim: consumers are merged by UID (what the scheduler's unreserve patch relies on).
  'status.reservedFor': 'uid',
};

/** Primitive lists merged as sets. */
const setLists = new Set(['metadata.finalizers', 'spec.podCIDRs', 'spec.finalizers']);

const podSpecPrefixes = ['spec.', 'spec.template.spec.'];

function mergeKeyFor(path: string): string | undefined {
  const direct = rootMergeKeys[path];
  if (direct) return direct;
  for (const prefix of podSpecPrefixes) {
    if (path.startsWith(prefix)) {
      const k = podSpecMergeKeys[path.slice(prefix.length)];
      if (k) return k;
    }
  }
  return undefined;
}

const directive = '$patch';
const retainKeysDirective = '$retainKeys';
const setOrderPrefix = '$setElementOrder/';
const deleteFromPrimitivePrefix = '$deleteFromPrimitiveList/';

function stripDirectives(v: Json): Json {
  if (Array.isArray(v)) return v.filter((x) => !(isObject(x) && x[directive] !== undefined && Object.keys(x).length === 1)).map(stripDirectives);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === directive || k === retainKeysDirective || k.startsWith(setOrderPrefix) || k.startsWith(deleteFromPrimitivePrefix)) continue;
    out[k] = stripDirectives(x);
  }
  return out;
}

function mergeList(original: Json[], patch: Json[], path: string): Json[] {
  const key = mergeKeyFor(path);
  if (patch.some((p) => isObject(p) && p[directive] === 'replace')) {
    return stripDirectives(patch.filter((p) => !(isObject(p) && p[directive] === 'replace'))) as Json[];
  }
  if (setLists.has(path)) {
    const out = [...original];
    for (const v of patch) if (!out.some((o) => JSON.stringify(o) === JSON.stringify(v))) out.push(v);
    return out;
  }
  if (!key) return stripDirectives(patch) as Json[];
  const out = original.map((o) => o);
  for (const item of patch) {
    if (!isObject(item)) continue;
    const idx = out.findIndex((o) => isObject(o) && JSON.stringify(o[key]) === JSON.stringify(item[key]));
    if (item[directive] === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = mergeObject(out[idx] as JsonObject, item, `${path}[]`);
    else out.push(stripDirectives(item));
  }
  return out;
}

/** Orders `list` as `order` names its items (by merge key, or by value); unnamed items keep their place after. */
function applyElementOrder(list: Json[], order: Json[], path: string): Json[] {
  const key = mergeKeyFor(path);
  const id = (v: Json) => JSON.stringify(key && isObject(v) ? v[key] : v);
  const rank = new Map(order.map((o, i) => [id(o), i]));
  const named = list.filter((v) => rank.has(id(v))).sort((a, b) => rank.get(id(a))! - rank.get(id(b))!);
  const rest = list.filter((v) => !rank.has(id(v)));
  return [...named, ...rest];
}

function mergeObject(original: JsonObject, patch: JsonObject, path: string): JsonObject {
  if (patch[directive] === 'replace') return stripDirectives(patch) as JsonObject;
  const out: JsonObject = { ...original };
  for (const [k, v] of Object.entries(patch)) {
    if (k === directive || k === retainKeysDirective || k.startsWith(setOrderPrefix)) continue;
    const childPath = path ? `${path}.${k}` : k;
    if (k.startsWith(deleteFromPrimitivePrefix)) {
      const field = k.slice(deleteFromPrimitivePrefix.length);
      const cur = out[field];
      if (Array.isArray(cur) && Array.isArray(v)) out[field] = cur.filter((x) => !v.some((d) => JSON.stringify(d) === JSON.stringify(x)));
      continue;
    }
    if (v === null) {
      delete out[k];
    } else if (isObject(v) && v[directive] === 'delete') {
      delete out[k];
    } else if (isObject(v)) {
      out[k] = mergeObject(isObject(out[k]) ? (out[k] as JsonObject) : {}, v, childPath);
    } else if (Array.isArray(v)) {
      out[k] = mergeList(Array.isArray(out[k]) ? (out[k] as Json[]) : [], v, childPath);
    } else {
      out[k] = v;
    }
  }
  for (const [k, v] of Object.entries(patch)) {
    if (!k.startsWith(setOrderPrefix) || !Array.isArray(v)) continue;
    const field = k.slice(setOrderPrefix.length);
    const cur = out[field];
    if (Array.isArray(cur)) out[field] = applyElementOrder(cur, v, path ? `${path}.${field}` : field);
  }
  const retain = patch[retainKeysDirective];
  if (Array.isArray(retain)) {
    for (const k of Object.keys(out)) if (!retain.includes(k) && !(k in patch)) delete out[k];
  }
  return out;
}

export function applyStrategicMergePatch(target: unknown, patch: unknown): Json {
  if (!isObject(patch)) throw badRequest('strategic merge patch must be a JSON object');
  return mergeObject(isObject(target) ? target : {}, patch, '');
}
