// The JSON an HTTP extender exchanges with the scheduler (k8s.io/kube-scheduler/extender/v1 types.go).
//
// Those Go structs carry no json tags, so Go writes the Go field names ("Pod", "NodeNames", ...)
// and, when reading, matches keys to fields ignoring case: an extender may answer "nodenames" or
// "NodeNames". We write the Go names and read keys in any case, with Go's type checks.
import type { Node, Pod } from '../api/types.js';
import type { FailedNodesMap, HostPriority as ScoredHost } from '../framework/extender.js';

/** A v1.NodeList as Go writes one with empty TypeMeta and ListMeta. */
export interface NodeList {
  metadata: Record<string, never>;
  /** null when there are no nodes: Go writes a nil slice as null. */
  items: Node[] | null;
}

/** What filter and prioritize send: the nodes in full, or only their names (nodeCacheCapable). */
export interface ExtenderArgs {
  Pod: Pod;
  Nodes: NodeList | null;
  NodeNames: string[] | null;
}

/** What filter answers; when nodeCacheCapable, NodeNames is read first. */
export interface ExtenderFilterResult {
  Nodes?: NodeList | null;
  NodeNames?: string[] | null;
  FailedNodes?: FailedNodesMap | null;
  /** Rejected nodes that preemption cannot help; they take precedence over FailedNodes. */
  FailedAndUnresolvableNodes?: FailedNodesMap | null;
  Error?: string;
}

/** One node's score, on the scale 0..MaxExtenderPriority. */
export interface HostPriority {
  Host: string;
  Score: number;
}

/** What prioritize answers. */
export type HostPriorityList = HostPriority[];

export interface ExtenderBindingArgs {
  PodName: string;
  PodNamespace: string;
  PodUID: string;
  Node: string;
}

export interface ExtenderBindingResult {
  Error?: string;
}

/** The pods preemption would evict on one node, and how many PodDisruptionBudgets that breaks. */
export interface Victims {
  Pods: Pod[] | null;
  NumPDBViolations: number;
}

export interface MetaPod {
  UID: string;
}

/** Victims by UID only, for an extender that keeps its own cache of pods. */
export interface MetaVictims {
  Pods: MetaPod[] | null;
  NumPDBViolations: number;
}

/** What preempt sends: NodeNameToMetaVictims when nodeCacheCapable, NodeNameToVictims otherwise. */
export interface ExtenderPreemptionArgs {
  Pod: Pod;
  NodeNameToVictims: Record<string, Victims> | null;
  NodeNameToMetaVictims: Record<string, MetaVictims> | null;
}

/** What preempt answers: always victims by UID. */
export interface ExtenderPreemptionResult {
  NodeNameToMetaVictims?: Record<string, MetaVictims | null> | null;
}

/** A filter answer read from JSON, with the returned node objects reduced to their names. */
export interface DecodedFilterResult {
  /** Names of the nodes in Nodes.items; null when Nodes is absent. */
  nodeListNames: string[] | null;
  nodeNames: string[] | null;
  failedNodes: FailedNodesMap | null;
  failedAndUnresolvableNodes: FailedNodesMap | null;
  error: string;
}

/** A preempt answer read from JSON: per node, the victims' UIDs. */
export type DecodedMetaVictims = Map<string, { uids: string[]; numPDBViolations: number }>;

type JsonObject = Record<string, unknown>;

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'number' : `number ${v}`;
  return typeof v;
}

/** Go's error for a JSON value of the wrong type; `path` is like "HostPriority.Score". */
function mismatch(v: unknown, path: string, goType: string): Error {
  const where = path.includes('.') ? `struct field ${path}` : 'value';
  return new Error(`json: cannot unmarshal ${jsonKind(v)} into Go ${where} of type ${goType}`);
}

/**
 * The value Go decodes into field `name`: keys match ignoring case and the last one wins; a null
 * leaves a string or number field as it was, so `scalar` fields skip nulls.
 */
function field(obj: JsonObject, name: string, scalar = false): unknown {
  const want = name.toLowerCase();
  let found: unknown;
  for (const key in obj) {
    const v = obj[key];
    if (scalar && v === null) continue;
    if (key.toLowerCase() === want) found = v;
  }
  return found;
}

function asObject(v: unknown, path: string, goType: string): JsonObject | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v)) throw mismatch(v, path, goType);
  return v as JsonObject;
}

function asArray(v: unknown, path: string, goType: string): unknown[] | null {
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v)) throw mismatch(v, path, goType);
  return v;
}

function asString(v: unknown, path: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw mismatch(v, path, 'string');
  return v;
}

function asInt64(v: unknown, path: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw mismatch(v, path, 'int64');
  return v;
}

function asStringList(v: unknown, path: string): string[] | null {
  const list = asArray(v, path, '[]string');
  if (list === null) return null;
  const out: string[] = [];
  for (const item of list) out.push(asString(item, path));
  return out;
}

function asFailedNodes(v: unknown, path: string): FailedNodesMap | null {
  const obj = asObject(v, path, 'v1.FailedNodesMap');
  if (obj === null) return null;
  const out: FailedNodesMap = {};
  for (const node in obj) out[node] = asString(obj[node], path);
  return out;
}

/** The metadata.name of each item of a v1.NodeList. */
function nodeListNames(v: unknown, path: string): string[] | null {
  const list = asObject(v, path, 'v1.NodeList');
  if (list === null) return null;
  const items = asArray(field(list, 'items'), `${path}.items`, '[]v1.Node') ?? [];
  const names: string[] = [];
  for (const item of items) {
    const node = asObject(item, `${path}.items`, 'v1.Node');
    const meta = node === null ? null : asObject(field(node, 'metadata'), `${path}.items.metadata`, 'v1.ObjectMeta');
    names.push(meta === null ? '' : asString(field(meta, 'name', true), `${path}.items.metadata.name`));
  }
  return names;
}

export function decodeFilterResult(v: unknown): DecodedFilterResult {
  const T = 'ExtenderFilterResult';
  const obj = asObject(v, T, `v1.${T}`) ?? {};
  return {
    nodeListNames: nodeListNames(field(obj, 'Nodes'), `${T}.Nodes`),
    nodeNames: asStringList(field(obj, 'NodeNames'), `${T}.NodeNames`),
    failedNodes: asFailedNodes(field(obj, 'FailedNodes'), `${T}.FailedNodes`),
    failedAndUnresolvableNodes: asFailedNodes(field(obj, 'FailedAndUnresolvableNodes'), `${T}.FailedAndUnresolvableNodes`),
    error: asString(field(obj, 'Error', true), `${T}.Error`),
  };
}

export function decodeHostPriorityList(v: unknown): ScoredHost[] {
  const list = asArray(v, 'HostPriorityList', 'v1.HostPriorityList') ?? [];
  const out: ScoredHost[] = [];
  for (const item of list) {
    const obj = asObject(item, 'HostPriorityList', 'v1.HostPriority') ?? {};
    out.push({
      host: asString(field(obj, 'Host', true), 'HostPriority.Host'),
      score: asInt64(field(obj, 'Score', true), 'HostPriority.Score'),
    });
  }
  return out;
}

/** The bind answer's error message ('' on success). */
export function decodeBindingResult(v: unknown): string {
  const obj = asObject(v, 'ExtenderBindingResult', 'v1.ExtenderBindingResult') ?? {};
  return asString(field(obj, 'Error', true), 'ExtenderBindingResult.Error');
}

export function decodePreemptionResult(v: unknown): DecodedMetaVictims {
  const T = 'ExtenderPreemptionResult';
  const obj = asObject(v, T, `v1.${T}`) ?? {};
  const path = `${T}.NodeNameToMetaVictims`;
  const byNode = asObject(field(obj, 'NodeNameToMetaVictims'), path, 'map[string]*v1.MetaVictims') ?? {};
  const out: DecodedMetaVictims = new Map();
  for (const node in byNode) {
    // Go would decode a null here and then crash on it; refuse it instead.
    const victims = asObject(byNode[node], path, 'v1.MetaVictims');
    if (victims === null) throw new Error(`${path}[${JSON.stringify(node)}] is null`);
    const uids: string[] = [];
    for (const metaPod of asArray(field(victims, 'Pods'), `${path}.Pods`, '[]*v1.MetaPod') ?? []) {
      const p = asObject(metaPod, `${path}.Pods`, 'v1.MetaPod');
      if (p === null) throw new Error(`${path}[${JSON.stringify(node)}].Pods holds a null pod`);
      uids.push(asString(field(p, 'UID', true), 'MetaPod.UID'));
    }
    out.set(node, { uids, numPDBViolations: asInt64(field(victims, 'NumPDBViolations', true), 'MetaVictims.NumPDBViolations') });
  }
  return out;
}
