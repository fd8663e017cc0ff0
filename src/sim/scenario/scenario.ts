// Scenario files: `{ config?, nodes, pods, pending?, objects?, steps? }`, a Kubernetes List, or a
// multi-document `kubectl get -o yaml` dump (see scenarios/README.md). Every object is decoded,
// admitted and validated as kube-apiserver would on create (or update, in a step), so a scenario
// the loader accepts is one a real cluster would have accepted, in the same order.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { applyMatchLabelKeysToAffinity } from '../../api/admission/match_label_keys.js';
import { admitGroupPriority, priorityAdmissionError, priorityClassAdmissionError } from '../../api/admission/priority.js';
import type { KubeObject, Node, Pod, PriorityClass } from '../../api/types.js';
import type { CompositePodGroup, PodGroup } from '../../api/scheduling.js';
import { dropDisabledFields, type PodGroupFieldGates } from '../../api/admission/drop_disabled_fields.js';
import { kindKeyOf } from '../../api/kinds.js';
import { nodesToAdd, readStepOps, whatIfStepKeys, type StepOps } from './whatif_steps.js';
import {
  aggregateFieldErrors, decodeObject, documentProblem, fieldErrorString, kindStruct, kindValidation, knownKinds, maxNestingDepth, strictDecodingError,
  unknownFields, type FieldError, type KindValidation,
} from '../../api/validation/index.js';
import { BadInputError } from '../../util/bad_input.js';

export interface ScenarioStep {
  /** Simulated milliseconds after the previous step (or the start). */
  afterMs: number;
  /** Objects to create, `addNodes` copies included. */
  create: KubeObject[];
  update: KubeObject[];
  delete: { kind: string; namespace?: string; name: string }[];
  /** Cordon, uncordon, drain, remove nodes, scale workloads: applied after the deletes. */
  ops?: StepOps;
  /** A configuration the scheduler restarts with, before the step's other changes land. */
  reconfigure?: StepConfiguration;
}

/**
 * A KubeSchedulerConfiguration a step switches to, unresolved (resolving needs the plugin registry
 * of the run): a file's text, or an object written inline; `source` names it in errors.
 */
type StepConfiguration = { readonly source: string; readonly text: string } | { readonly source: string; readonly value: Record<string, unknown> };

export interface Scenario {
  name: string;
  /** The file (or label) the scenario was read from, for messages (set by the loader). */
  source?: string;
  metadata: Record<string, unknown>;
  /** A KubeSchedulerConfiguration object, when the scenario carries one. */
  config: Record<string, unknown> | null;
  nodes: Node[];
  /** Existing load: pods with spec.nodeName. */
  pods: Pod[];
  /** Pods to schedule, in this order. */
  pending: Pod[];
  objects: KubeObject[];
  steps: ScenarioStep[];
  /**
   * Run the workload controllers (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job) in the
   * embedded cluster: `simulate` and `explain` only when true, `serve` unless false.
   */
  controllers?: boolean;
}

/** A scenario that cannot be loaded: the message names the file, the object, the field and the reason. */
export class ScenarioError extends BadInputError {
  override name = 'ScenarioError';
  constructor(
    message: string,
    /** The field errors behind the message, when an object was refused. */
    readonly causes: readonly FieldError[] = [],
  ) {
    super(message);
  }
}

/** Parses "10s", "1m30s", "250ms", "2h" or a number of seconds into milliseconds. */
function parseDuration(v: unknown, where: string): number {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v * 1000;
  if (typeof v !== 'string') throw new ScenarioError(`${where}: invalid duration ${JSON.stringify(v) ?? String(v)}`);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let consumed = 0;
  for (const m of v.matchAll(re)) {
    const n = Number(m[1]);
    total += m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n * 3_600_000;
    consumed += m[0].length;
  }
  if (consumed !== v.length || v.length === 0) throw new ScenarioError(`${where}: invalid duration "${v}" (use e.g. 10s, 1m30s, 500ms)`);
  return total;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One object as the file gives it, with where it stands (for messages). */
interface Entry {
  readonly where: string;
  readonly value: unknown;
  /** The kind its list implies (nodes, pods, pending), if any. */
  readonly kind?: string;
}

/** Reads and checks a scenario's objects in the order a cluster would have received them. */
class Loader {
  /** Objects that exist so far, by kind/namespace/name. */
  private readonly existing = new Map<string, KubeObject>();

  constructor(private readonly source: string, private readonly gates: PodGroupFieldGates | undefined) {}

  /**
   * The object as the PodGroup, CompositePodGroup and Workload strategies prepare it (their strategy.go):
   * without the fields of gates that are off, but those `old` uses. Without known gates (a caller
   * that does not say them) only parentCompositePodGroupName goes, as CompositePodGroup runs at
   * its default (off) only; the embedded store drops the rest with the run's gates.
   */
  private withoutDisabledFields(obj: KubeObject, old: KubeObject | undefined): KubeObject {
    const gates = this.gates ?? { topologyAwareWorkloadScheduling: true, draWorkloadResourceClaims: true, podGroupPreemptionPolicy: true, compositePodGroup: false };
    return dropDisabledFields(kindKeyOf(obj), obj, gates, old);
  }

  fail(where: string, message: string, causes: readonly FieldError[] = []): never {
    throw new ScenarioError(`${this.source}: ${where}: ${message}`, causes);
  }

  /** Decodes and validates one object as a create (or, given the stored one, an update). */
  decode(e: Entry): { obj: KubeObject; k: KindValidation; label: string } {
    if (!isRecord(e.value)) this.fail(e.where, 'must be an object');
    const given = e.value.kind;
    if (e.kind !== undefined && given !== undefined && given !== e.kind) this.fail(e.where, `must be a ${e.kind}, not ${JSON.stringify(given)}`);
    const kind = given ?? e.kind;
    if (kind === undefined) this.fail(e.where, 'needs a kind (Pod, Node, Namespace, ...)');
    const apiVersion = typeof e.value.apiVersion === 'string' ? e.value.apiVersion : undefined;
    const k = typeof kind === 'string' ? kindValidation(kindKeyOf({ apiVersion, kind })) : undefined;
    if (!k) this.fail(e.where, `unknown kind ${JSON.stringify(kind)} (known kinds: ${knownKinds().join(', ')})`);
    const decoded = decodeObject<KubeObject>(k.shape, e.value);
    if (!decoded.ok) {
      const raw = isRecord(e.value.metadata) ? e.value.metadata : {};
      const name = typeof raw.name === 'string' ? raw.name : '';
      const ns = typeof raw.namespace === 'string' && raw.namespace !== '' ? raw.namespace : 'default';
      this.fail(labelOf(e.where, k, ns, name), fieldErrorString(decoded.issue.error), [decoded.issue.error]);
    }
    const obj = decoded.value;
    obj.apiVersion ??= k.apiVersion;
    // As kube-apiserver with kubectl's default strict validation: a misspelt field at any depth
    // would otherwise be dropped silently and change the answer.
    const struct = kindStruct(obj.apiVersion, k.kind) ?? kindStruct(k.apiVersion, k.kind);
    const unknown = struct === undefined ? [] : unknownFields(struct, e.value);
    if (unknown.length > 0) {
      const meta = obj.metadata ?? {};
      this.fail(labelOf(e.where, k, meta.namespace || 'default', meta.name ?? ''), strictDecodingError(unknown));
    }
    obj.kind = k.kind;
    const meta = (obj.metadata ??= {});
    // Where the API server takes the namespace from the URL, a scenario's objects default to "default".
    if (k.namespaced) meta.namespace ||= 'default';
    else delete meta.namespace;
    return { obj, k, label: labelOf(e.where, k, meta.namespace ?? '', meta.name ?? '') };
  }

  private keyOf(obj: KubeObject): string {
    return `${kindKeyOf(obj)}/${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
  }

  private priorityClasses(): PriorityClass[] {
    const out: PriorityClass[] = [];
    for (const o of this.existing.values()) if (o.kind === 'PriorityClass') out.push(o as PriorityClass);
    return out;
  }

  /**
   * Why Priority admission refuses the object, or null. A group's preemption policy is checked
   * only with PodGroupPreemptionPolicy on (without known gates, the store decides).
   */
  private admissionError(obj: KubeObject): string | null {
    switch (kindKeyOf(obj)) {
      case 'Pod':
        return priorityAdmissionError(obj as Pod, this.priorityClasses());
      case 'PriorityClass':
        return priorityClassAdmissionError(obj as PriorityClass, this.priorityClasses());
      case 'PodGroup':
      case 'CompositePodGroup': {
        const spec = (obj as PodGroup | CompositePodGroup).spec;
        if (spec === null || typeof spec !== 'object') return null;
        const noun = obj.kind === 'PodGroup' ? 'pod group' : 'composite pod group';
        const r = admitGroupPriority(spec, this.priorityClasses(), { noun, preemptionPolicy: this.gates?.podGroupPreemptionPolicy === true });
        return 'error' in r ? r.error : null;
      }
      default:
        return null;
    }
  }

  /** A create: admission (Priority), validation, then uniqueness, as kube-apiserver orders them. */
  create(e: Entry): KubeObject {
    const decoded = this.decode(e);
    const { k, label } = decoded;
    const obj = this.withoutDisabledFields(decoded.obj, undefined);
    const name = obj.metadata?.name ?? '';
    const refusal = this.admissionError(obj);
    if (refusal !== null) this.fail(label, `${k.resource} "${name}" is forbidden: ${refusal}`);
    const errs = k.validate(obj.kind === 'Pod' ? applyMatchLabelKeysToAffinity(obj as Pod) : obj);
    if (errs.length > 0) this.fail(label, aggregateFieldErrors(errs), errs);
    const key = this.keyOf(obj);
    if (this.existing.has(key)) this.fail(label, `${k.resource} "${name}" already exists`);
    this.existing.set(key, obj);
    return obj;
  }

  /** An update (PUT) of an object that must exist, with the kind's update rules. */
  update(e: Entry): KubeObject {
    const decoded = this.decode(e);
    const { k, label } = decoded;
    const key = this.keyOf(decoded.obj);
    const old = this.existing.get(key);
    if (!old) this.fail(label, `${k.resource} "${decoded.obj.metadata?.name ?? ''}" not found`);
    const obj = this.withoutDisabledFields(decoded.obj, old);
    const errs = [...k.validate(obj), ...(k.validateUpdate?.(old, obj) ?? [])];
    if (errs.length > 0) this.fail(label, aggregateFieldErrors(errs), errs);
    this.existing.set(key, obj);
    return obj;
  }

  remove(kind: string, namespace: string, name: string): void {
    this.existing.delete(`${kind}/${namespace}/${name}`);
  }

  /** The object as it stands so far (cluster-scoped kinds with namespace ''). */
  find(kind: string, namespace: string, name: string): KubeObject | undefined {
    return this.existing.get(`${kind}/${namespace}/${name}`);
  }
}

/** "nodes[2] (Node n3)", "pending[0] (Pod default/web)": where an object stands and which it is. */
function labelOf(where: string, k: KindValidation, namespace: string, name: string): string {
  if (name === '') return `${where} (${k.kind})`;
  return `${where} (${k.kind} ${k.namespaced ? `${namespace}/` : ''}${name})`;
}

function list(v: unknown, where: string, source: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new ScenarioError(`${source}: ${where}: must be a list`);
  return v;
}

const scenarioKeys = ['metadata', 'config', 'controllers', 'nodes', 'pods', 'pending', 'objects', 'steps'];
const stepKeys = ['after', 'create', 'update', 'delete', ...whatIfStepKeys, 'reconfigure'];

function checkKeys(v: Record<string, unknown>, known: readonly string[], where: string, source: string): void {
  for (const key of Object.keys(v)) {
    if (!known.includes(key)) throw new ScenarioError(`${source}: ${where === '' ? '' : `${where}: `}unknown field ${JSON.stringify(key)} (known fields: ${known.join(', ')})`);
  }
}

/** A step's `reconfigure`: a configuration file (relative to the scenario's) read now, or an inline object. */
function readStepConfiguration(v: unknown, where: string, loader: Loader, source: string): StepConfiguration | undefined {
  if (v === undefined || v === null) return undefined;
  if (isRecord(v)) return { source: `${source}: ${where}`, value: v };
  if (typeof v !== 'string' || v === '') loader.fail(where, 'must be a KubeSchedulerConfiguration or the path of its file (relative to the scenario)');
  const path = resolve(dirname(source), v);
  try {
    return { source: path, text: readFileSync(path, 'utf8') };
  } catch (err) {
    return loader.fail(where, `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** The step's deletions: `{ kind, namespace?, name }`, or an object's kind and metadata. */
function readDelete(v: unknown, where: string, loader: Loader): { kind: string; namespace?: string; name: string } {
  if (!isRecord(v)) loader.fail(where, 'must be an object');
  const meta = isRecord(v.metadata) ? v.metadata : {};
  const kind = v.kind;
  const name = v.name ?? meta.name;
  const namespace = v.namespace ?? meta.namespace;
  if (typeof kind !== 'string' || typeof name !== 'string' || name === '') loader.fail(where, 'needs kind and name');
  const k = kindValidation(kindKeyOf({ apiVersion: typeof v.apiVersion === 'string' ? v.apiVersion : undefined, kind }));
  if (!k) loader.fail(where, `unknown kind ${JSON.stringify(kind)} (known kinds: ${knownKinds().join(', ')})`);
  if (namespace !== undefined && typeof namespace !== 'string') loader.fail(where, 'namespace must be a string');
  loader.remove(k.key, k.namespaced ? (namespace ?? 'default') : '', name);
  return { kind: k.key, ...(namespace !== undefined ? { namespace } : {}), name };
}

/**
 * Creates objects of any kind, PriorityClasses first (as the cluster is populated, so pods of any
 * list may name them), and files each where the scenario keeps its kind.
 */
function createAll(entries: readonly Entry[], loader: Loader, sc: Scenario): void {
  const isClass = (e: Entry) => isRecord(e.value) && e.value.kind === 'PriorityClass';
  for (const e of [...entries.filter(isClass), ...entries.filter((e) => !isClass(e))]) {
    const obj = loader.create(e);
    if (obj.kind === 'Node') sc.nodes.push(obj as Node);
    else if (obj.kind === 'Pod') ((obj as Pod).spec.nodeName ? sc.pods : sc.pending).push(obj as Pod);
    else sc.objects.push(obj);
  }
}

function readScenarioShape(v: Record<string, unknown>, source: string, o: ScenarioLoadOptions): Scenario {
  checkKeys(v, scenarioKeys, '', source);
  if (v.metadata !== undefined && v.metadata !== null && !isRecord(v.metadata)) throw new ScenarioError(`${source}: metadata: must be an object`);
  if (v.config !== undefined && v.config !== null && !isRecord(v.config)) throw new ScenarioError(`${source}: config: must be an object`);
  if (v.controllers !== undefined && typeof v.controllers !== 'boolean') throw new ScenarioError(`${source}: controllers: must be true or false`);
  const metadata = (v.metadata as Record<string, unknown> | undefined) ?? {};
  const sc: Scenario = {
    name: typeof metadata.name === 'string' ? metadata.name : source,
    source, metadata, config: (v.config as Record<string, unknown> | undefined) ?? null,
    nodes: [], pods: [], pending: [], objects: [], steps: [],
  };
  // Absent stays absent: `simulate` runs no controllers then, `serve` runs them (a cluster does).
  if (typeof v.controllers === 'boolean') sc.controllers = v.controllers;
  const loader = new Loader(source, o.gates);
  createAll(list(v.objects, 'objects', source).map((value, i): Entry => ({ where: `objects[${i}]`, value })), loader, sc);
  list(v.nodes, 'nodes', source).forEach((value, i) => sc.nodes.push(loader.create({ where: `nodes[${i}]`, value, kind: 'Node' }) as Node));
  list(v.pods, 'pods', source).forEach((value, i) => {
    const where = `pods[${i}]`;
    const pod = loader.create({ where, value, kind: 'Pod' }) as Pod;
    if (!pod.spec.nodeName) loader.fail(`${where} (${pod.metadata.name})`, 'existing pods need spec.nodeName; put pods to schedule under pending');
    sc.pods.push(pod);
  });
  list(v.pending, 'pending', source).forEach((value, i) => sc.pending.push(loader.create({ where: `pending[${i}]`, value, kind: 'Pod' }) as Pod));
  sc.steps = list(v.steps, 'steps', source).map((s, i) => {
    const where = `steps[${i}]`;
    if (!isRecord(s)) throw new ScenarioError(`${source}: ${where}: must be an object`);
    checkKeys(s, stepKeys, where, source);
    const afterMs = parseDuration(s.after ?? 0, `${source}: ${where}.after`);
    const create = list(s.create, `${where}.create`, source).map((value, j) => loader.create({ where: `${where}.create[${j}]`, value }));
    nodesToAdd(s.addNodes, `${where}.addNodes`, loader).forEach((value, j) => create.push(loader.create({ where: `${where}.addNodes (node ${j})`, value, kind: 'Node' })));
    const update = list(s.update, `${where}.update`, source).map((value, j) => loader.update({ where: `${where}.update[${j}]`, value }));
    const del = list(s.delete, `${where}.delete`, source).map((d, j) => readDelete(d, `${where}.delete[${j}]`, loader));
    const ops = readStepOps(s, where, loader);
    for (const n of ops.removeNodes) loader.remove('Node', '', n);
    const reconfigure = readStepConfiguration(s.reconfigure, `${where}.reconfigure`, loader, source);
    return { afterMs, create, update, delete: del, ops, ...(reconfigure ? { reconfigure } : {}) };
  });
  return sc;
}

/** The objects of a dump: documents, and the items of `List`s, in order. */
function flatten(values: readonly unknown[], source: string): Entry[] {
  const out: Entry[] = [];
  const add = (value: unknown, where: string, depth: number): void => {
    if (isRecord(value) && value.kind === 'List') {
      if (depth > 10) throw new ScenarioError(`${source}: ${where}: Lists nest too deeply`);
      list(value.items, `${where}.items`, source).forEach((item, i) => add(item, `${where}.items[${i}]`, depth + 1));
    } else {
      out.push({ where, value });
    }
  };
  values.forEach((v, i) => add(v, values.length === 1 ? 'document' : `documents[${i}]`, 0));
  return out;
}

function creationTime(p: Pod): number {
  const t = Date.parse(String(p.metadata?.creationTimestamp ?? ''));
  return Number.isNaN(t) ? 0 : t;
}

function readDump(values: readonly unknown[], source: string, o: ScenarioLoadOptions): Scenario {
  const sc: Scenario = { name: source, source, metadata: {}, config: null, nodes: [], pods: [], pending: [], objects: [], steps: [] };
  const loader = new Loader(source, o.gates);
  const entries = flatten(values, source);
  const configs = entries.filter((e) => isRecord(e.value) && e.value.kind === 'KubeSchedulerConfiguration');
  if (configs.length > 1) loader.fail(configs[1]!.where, 'a dump may hold one KubeSchedulerConfiguration');
  if (configs.length === 1) sc.config = configs[0]!.value as Record<string, unknown>;
  createAll(entries.filter((e) => !configs.includes(e)), loader, sc);
  // A dump lists unbound pods in any order: schedule them in creation order.
  sc.pending = sc.pending.map((p, i) => ({ p, i })).sort((a, b) => creationTime(a.p) - creationTime(b.p) || a.i - b.i).map((x) => x.p);
  return sc;
}

/** The YAML documents of `text` as plain values; syntax errors, alias bombs and deep nesting are ScenarioErrors. */
function parseDocuments(text: string, source: string): unknown[] {
  const values: unknown[] = [];
  let docs;
  try {
    docs = parseAllDocuments(text, { prettyErrors: true });
  } catch (err) {
    throw new ScenarioError(`${source}: ${firstLine((err as Error).message)}`);
  }
  for (const d of Array.isArray(docs) ? docs : [docs]) {
    if (d.errors.length > 0) throw new ScenarioError(`${source}: ${firstLine(d.errors[0]!.message)}`);
    let v: unknown;
    try {
      v = d.toJS({ maxAliasCount: 1000 });
    } catch (err) {
      throw new ScenarioError(`${source}: ${firstLine((err as Error).message)}`);
    }
    const problem = documentProblem(v);
    if (problem !== null) throw new ScenarioError(`${source}: ${problem}`);
    if (v !== null && v !== undefined) values.push(v);
  }
  return values;
}

function firstLine(message: string): string {
  const line = message.split('\n')[0]!.replace(/:$/, '');
  // The YAML parser gives up on very deep nesting by running out of stack: say what that means.
  return line.replace(/^Maximum call stack size exceeded/, `exceeded max depth of ${maxNestingDepth} nested objects and arrays`);
}

/** What the loader knows of the run it loads for. */
export interface ScenarioLoadOptions {
  /**
   * The workload gates of the run (--feature-gates): the PodGroup and Workload fields of gates
   * that are off are dropped, and Priority admission checks a group's preemption policy only with
   * PodGroupPreemptionPolicy on. Absent: only CompositePodGroup's field is dropped (it is off in
   * every run) and the embedded store applies the rest.
   */
  readonly gates?: PodGroupFieldGates;
}

export function parseScenario(text: string, source: string, o: ScenarioLoadOptions = {}): Scenario {
  return readValues(parseDocuments(text, source), source, o);
}

/**
 * A scenario from YAML documents another parser already turned into plain values, checked as
 * parseScenario checks its own (the tests parse the 14 MB fidelity corpus with a faster parser).
 */
export function scenarioFromDocuments(documents: readonly unknown[], source: string, o: ScenarioLoadOptions = {}): Scenario {
  const values: unknown[] = [];
  for (const v of documents) {
    const problem = documentProblem(v);
    if (problem !== null) throw new ScenarioError(`${source}: ${problem}`);
    if (v !== null && v !== undefined) values.push(v);
  }
  return readValues(values, source, o);
}

function readValues(values: readonly unknown[], source: string, o: ScenarioLoadOptions): Scenario {
  if (values.length === 1 && isScenarioShape(values[0])) return readScenarioShape(values[0] as Record<string, unknown>, source, o);
  return readDump(values, source, o);
}

function isScenarioShape(v: unknown): boolean {
  if (!isRecord(v)) return false;
  return v.kind === undefined && ('nodes' in v || 'pods' in v || 'pending' in v || 'steps' in v || 'objects' in v);
}

export function loadScenario(path: string, o: ScenarioLoadOptions = {}): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ScenarioError(`${path}: ${(err as Error).message}`);
  }
  return parseScenario(text, path, o);
}
