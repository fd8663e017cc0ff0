// The REST semantics of the served resources over the embedded store: create/update/patch/delete
// strategies, optimistic concurrency, status subresources and pods/binding
// (staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go, pkg/registry/core/pod/strategy.go,
// pkg/registry/core/pod/storage/storage.go).
import { parse as parseYaml } from 'yaml';
import type { KubeObject, ObjectMeta, Pod } from '../api/types.js';
import type { PodGroup } from '../api/scheduling.js';
import { freeGeneratedName } from '../cluster/memory/generate_name.js';
import { bindingRefusal, MemoryCluster, setCondition } from '../cluster/memory/store.js';
import { ApiError } from '../cluster/types.js';
import { rfc3339, type Clock } from '../util/clock.js';
import { convertEvent } from './events.js';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from './patch.js';
import { groupVersion, resources, type Resource } from './resources.js';
import { scaleOf, validateScale, type Scale } from './scale.js';
import { matchesFields, type FieldRequirement } from './selectors.js';
import type { Selector } from '../api/labels.js';
import {
  alreadyExists, badRequest, conflict, forbidden, fromStoreError, invalid, notFound, OptimisticLockErrorMsg, ServedStatusError,
  successStatus, unsupportedMediaType, type FieldError, type StatusObject,
} from './status.js';
import { applyMatchLabelKeysToAffinity } from '../api/admission/match_label_keys.js';
import { admitGroupPriority, priorityAdmissionError, priorityClassAdmissionError } from '../api/admission/priority.js';
import type { PriorityClass } from '../api/types.js';
import {
  decodeObject, defaultPodUpdate, documentProblem, dropDeallocatedStatusDevices, jsonEqual, kindStruct, kindValidation, pruneUnknownFields, strictDecodingError,
  validateAnnotations, validateLabels, validatePodStatusNomination,
} from '../api/validation/index.js';
import { goFormat } from './go_format.js';
import type { ResourceClaim } from '../api/dra_types.js';

type Meta = { -readonly [K in keyof ObjectMeta]: ObjectMeta[K] };
type Obj = KubeObject & Record<string, unknown>;

/** The object a request names: resource, namespace ('' when cluster-scoped), name, subresource. */
export interface Target {
  readonly resource: Resource;
  readonly namespace: string;
  readonly name: string;
  readonly subresource: string;
}

/** What the API server does with fields the kind does not declare (metav1.FieldValidation*). */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  /** kube-apiserver's default when the parameter is absent is Warn (handlers/rest.go fieldValidation). */
  fieldValidation?: FieldValidation;
  /** Where Warn leaves one text per unknown field, for the response's Warning headers. */
  warnings?: string[];
}

export interface DeleteOptions extends WriteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
}

const patchTypes = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

/** Namespaces the API server always has and refuses to delete (the system namespaces). */
export const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
const undeletableNamespaces = new Set(['default', 'kube-system', 'kube-public']);

export class ResourceRegistry {
  constructor(
    readonly cluster: MemoryCluster,
    private readonly clock: Clock,
    private readonly random: () => number = Math.random,
  ) {}

  private now(): string {
    return rfc3339(this.clock.now());
  }

  /** The object as the resource's API shows it: its apiVersion and kind first. */
  external(r: Resource, stored: KubeObject): KubeObject {
    const gv = groupVersion(r);
    const shaped = r.storeKind === 'Event' ? convertEvent(stored, gv) : stored;
    const { apiVersion: _a, kind: _k, ...rest } = shaped as Obj;
    return { apiVersion: gv, kind: r.kind, ...rest } as KubeObject;
  }

  stored(r: Resource, namespace: string, name: string): KubeObject | undefined {
    return this.cluster.get(r.storeKind, r.namespaced ? namespace : '', name);
  }

  get(t: Target): KubeObject {
    const s = this.stored(t.resource, t.namespace, t.name);
    if (!s) throw notFound(t.resource, t.name);
    return this.external(t.resource, s);
  }

  /** The matching objects in key order (namespace, then name), as the API shows them. */
  list(r: Resource, namespace: string, labels: Selector, fields: readonly FieldRequirement[]): KubeObject[] {
    // In etcd's key order; each object's key made once, not twice per comparison (a list of
    // 100,000 pods: ~460 ms of sorting before, ~110 after).
    const keyed: { key: string; object: KubeObject }[] = [];
    for (const s of this.cluster.list(r.storeKind)) {
      if (r.namespaced && namespace && s.metadata?.namespace !== namespace) continue;
      if (!labels.matches(s.metadata?.labels)) continue;
      const e = this.external(r, s);
      if (fields.length > 0 && !matchesFields(e, fields)) continue;
      keyed.push({ key: objectSortKey(e), object: e });
    }
    keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return keyed.map((k) => k.object);
  }

  /** Matches an object the way list and watch filter (used for watch transitions). */
  matches(r: Resource, e: KubeObject, namespace: string, labels: Selector, fields: readonly FieldRequirement[]): boolean {
    if (r.namespaced && namespace && e.metadata?.namespace !== namespace) return false;
    return labels.matches(e.metadata?.labels) && (fields.length === 0 || matchesFields(e, fields));
  }

  // ---- create ----

  create(t: Target, body: unknown, o: WriteOptions = {}): KubeObject {
    const r = t.resource;
    const decoded = this.decode(r, body, o);
    const obj = this.withoutDisabledFields(r, decoded, null);
    const meta = obj.metadata as Meta;
    this.checkNamespace(t, meta);
    // A generated name another object has is generated again, as kube-apiserver retries it.
    if (!meta.name && meta.generateName) meta.name = freeGeneratedName(meta.generateName, this.random, (name) => this.stored(r, meta.namespace ?? '', name) !== undefined);
    // As kube-apiserver: admission (namespace lifecycle, priority) before validation, then storage.
    if (r.namespaced && meta.name && !this.cluster.get('Namespace', '', meta.namespace ?? '')) throw notFound({ group: '', name: 'namespaces' }, meta.namespace ?? '');
    this.admit(r, obj);
    this.validate(r, obj, null, '');
    if (this.stored(r, meta.namespace ?? '', meta.name ?? '')) throw alreadyExists(r, meta.name ?? '');
    for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation', 'selfLink'] as const) delete meta[k];
    if (r.tracksGeneration) meta.generation = 1;
    resetStatusOnCreate(r, obj);
    if (o.dryRun) return this.external(r, obj);
    return this.external(r, this.cluster.create(this.internal(r, obj)));
  }

  /**
   * The PodGroup and Workload strategies drop the fields of gates that are off (but those the
   * stored `old` object uses) before anything checks them; a status write only the claim statuses.
   */
  private withoutDisabledFields(r: Resource, obj: Obj, old: Obj | null, subresource = ''): Obj {
    return r.group === 'scheduling.k8s.io' ? this.cluster.withoutDisabledFields(r.storeKind, obj, old ?? undefined, subresource) : obj;
  }

  /**
   * The admission plugins that can refuse a create: Priority (pods, PriorityClasses, and pod
   * groups and composite pod groups with GenericWorkload; the store fills what it computes).
   */
  private admit(r: Resource, obj: Obj): void {
    const name = obj.metadata?.name ?? '';
    const classes = () => this.cluster.list<PriorityClass>('PriorityClass');
    let why: string | null = null;
    if (r.kind === 'Pod') why = priorityAdmissionError(obj as unknown as Pod, classes());
    else if (r.kind === 'PriorityClass') why = priorityClassAdmissionError(obj as unknown as PriorityClass, classes());
    else if ((r.kind === 'PodGroup' || r.kind === 'CompositePodGroup') && r.group === 'scheduling.k8s.io' && this.cluster.gates.genericWorkload === true
      && typeof obj.spec === 'object' && obj.spec !== null) {
      const noun = r.kind === 'PodGroup' ? 'pod group' : 'composite pod group';
      const admitted = admitGroupPriority(obj.spec as PodGroup['spec'], classes(), { noun, preemptionPolicy: this.cluster.gates.podGroupPreemptionPolicy === true });
      if ('error' in admitted) why = admitted.error;
    }
    if (why !== null) throw forbidden(r, name, why);
  }

  /**
   * The kind's validation of what is about to be stored: a new object (pods as the strategy has
   * merged their matchLabelKeys), an update with the kind's update rules, or a status write
   * (which may change status, labels and annotations only; a node's is validated whole, as
   * ValidateNodeUpdate checks its capacity and allocatable).
   */
  private validate(r: Resource, obj: Obj, old: Obj | null, subresource: string): void {
    const k = kindValidation(r.storeKind);
    if (!k) return;
    let errs: FieldError[];
    if (subresource === 'status' && r.kind !== 'Node') {
      errs = [...validateLabels(obj.metadata?.labels, 'metadata.labels'), ...validateAnnotations(obj.metadata?.annotations, 'metadata.annotations')];
      if (old !== null && k.validateStatusUpdate) errs.push(...k.validateStatusUpdate(old, obj));
      if (old !== null && r.kind === 'Pod') errs.push(...validatePodStatusNomination(old as unknown as Pod, obj as unknown as Pod, this.cluster.clearsNominationOnBinding));
    } else {
      errs = k.validate(r.kind === 'Pod' && old === null ? applyMatchLabelKeysToAffinity(obj as unknown as Pod) as unknown as Obj : obj);
      if (old !== null && k.validateUpdate) errs.push(...k.validateUpdate(old, obj));
    }
    if (errs.length > 0) throw invalid(r, obj.metadata?.name ?? '', errs);
  }

  // ---- update ----

  /** PUT: replaces the object (or its status); creates it where the resource allows. */
  update(t: Target, body: unknown, o: WriteOptions = {}): { object: KubeObject; created: boolean } {
    const r = t.resource;
    const obj = this.decode(r, body, o);
    const meta = obj.metadata as Meta;
    if (meta.name !== t.name) throw badRequest(`the name of the object (${meta.name ?? ''}) does not match the name on the URL (${t.name})`);
    this.checkNamespace(t, meta);
    const old = this.stored(r, t.namespace, t.name);
    if (!old) {
      // The body was checked for unknown fields already.
      if (r.allowCreateOnUpdate && !t.subresource) return { object: this.create(t, obj, { ...o, fieldValidation: 'Ignore' }), created: true };
      throw notFound(r, t.name);
    }
    return { object: this.commitUpdate(t, old, obj, o), created: false };
  }

  /** PATCH in any of the four patch formats. */
  patch(t: Target, contentType: string, raw: string, o: WriteOptions = {}): { object: KubeObject; created: boolean } {
    const r = t.resource;
    const { type, patch } = parsePatch(contentType, raw);
    const old = this.stored(r, t.namespace, t.name);
    if (type === 'application/apply-patch+yaml') {
      if (!o.fieldManager) {
        throw invalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', [{ type: 'FieldValueRequired', field: 'fieldManager', detail: 'is required for apply patch' }]);
      }
      if (!old) {
        if (t.subresource) throw notFound(r, t.name);
        return { object: this.create(t, patch, o), created: true };
      }
    }
    if (!old) throw notFound(r, t.name);
    const current = structuredClone(this.external(r, old));
    const next = applyPatch(type, current, patch);
    // A merge or JSON patch is checked as the patched object's JSON, a strategic one as the patch (patch.go).
    const obj = this.decode(r, next, o, () => (type === 'application/strategic-merge-patch+json' ? goFormat(patch) : JSON.stringify(next)));
    if (obj.metadata?.name !== t.name) throw badRequest(`the name of the object (${obj.metadata?.name ?? ''}) does not match the name on the URL (${t.name})`);
    this.checkNamespace(t, obj.metadata as Meta);
    return { object: this.commitUpdate(t, old, obj, o), created: false };
  }

  // ---- scale ----

  /** GET <resource>/<name>/scale. */
  getScale(t: Target): Scale {
    const s = this.stored(t.resource, t.namespace, t.name);
    if (!s) throw notFound(t.resource, t.name);
    return scaleOf(this.external(t.resource, s));
  }

  /** PUT <resource>/<name>/scale: sets spec.replicas of the object (scaleUpdatedObjectInfo). */
  updateScale(t: Target, body: unknown, o: WriteOptions = {}): Scale {
    const r = t.resource;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest(`Object 'Kind' is missing in '${JSON.stringify(body)}'`);
    const scale = body as Scale;
    if (scale.kind !== undefined && scale.kind !== 'Scale') {
      throw badRequest(`Scale in version "v1" cannot be handled as a Scale: the object provided is unrecognized (must be of type Scale): kind ${String(scale.kind)}`);
    }
    const old = this.stored(r, t.namespace, t.name);
    if (!old) throw notFound(r, t.name);
    if ((scale.metadata?.name ?? '') !== t.name) throw badRequest(`the name of the object (${scale.metadata?.name ?? ''}) does not match the name on the URL (${t.name})`);
    const errs = validateScale(scale);
    if (errs.length > 0) throw invalid({ group: 'autoscaling', kind: 'Scale' }, t.name, errs);
    const current = structuredClone(this.external(r, old)) as Obj & { spec?: Record<string, unknown> };
    const rv = scale.metadata?.resourceVersion;
    if (rv && rv !== current.metadata?.resourceVersion) throw conflict(r, t.name, OptimisticLockErrorMsg);
    current.spec = { ...(current.spec ?? {}), replicas: scale.spec?.replicas ?? 0 };
    return scaleOf(this.commitUpdate({ ...t, subresource: '' }, old, current, o));
  }

  /** PATCH <resource>/<name>/scale: the patch applies to the Scale, which then updates the object. */
  patchScale(t: Target, contentType: string, raw: string, o: WriteOptions = {}): Scale {
    const { type, patch } = parsePatch(contentType, raw);
    if (type === 'application/apply-patch+yaml') throw unsupportedMediaType(patchTypes.filter((p) => p !== type));
    return this.updateScale(t, applyPatch(type, structuredClone(this.getScale(t)), patch), o);
  }

  private commitUpdate(t: Target, old: KubeObject, next: Obj, o: WriteOptions): KubeObject {
    const r = t.resource;
    const oldExt = structuredClone(this.external(r, old)) as Obj;
    const meta = next.metadata as Meta;
    const oldMeta = oldExt.metadata as Meta;
    if (meta.resourceVersion && meta.resourceVersion !== oldMeta.resourceVersion) throw conflict(r, t.name, OptimisticLockErrorMsg);
    if (!meta.resourceVersion && r.requireResourceVersion) {
      throw invalid(r, t.name, [{ type: 'FieldValueInvalid', field: 'metadata.resourceVersion', value: '0x0', detail: 'must be specified for an update' }]);
    }
    if (r.kind === 'Pod' && t.subresource === 'status') this.fault('updatePodStatus');
    let obj: Obj;
    if (t.subresource === 'status') {
      // The status subresource changes status, labels and annotations; the rest stays as stored.
      const metadata = r.statusResetsMetadata ? oldMeta : { ...oldMeta, labels: meta.labels, annotations: meta.annotations };
      obj = { ...oldExt, metadata, status: next.status };
      if (r.kind === 'ResourceClaim') dropDeallocatedStatusDevices(oldExt as unknown as ResourceClaim, obj as unknown as ResourceClaim);
    } else {
      obj = next;
      if (r.hasStatus) {
        if (oldExt.status === undefined) delete obj.status;
        else obj.status = oldExt.status;
      }
      const m = obj.metadata as Meta;
      m.deletionTimestamp = oldMeta.deletionTimestamp;
      m.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
    }
    const m = obj.metadata as Meta;
    m.uid = oldMeta.uid;
    m.creationTimestamp = oldMeta.creationTimestamp;
    m.resourceVersion = oldMeta.resourceVersion;
    m.generation = oldMeta.generation;
    for (const k of Object.keys(m) as (keyof Meta)[]) if (m[k] === undefined) delete m[k];
    if (r.kind === 'Pod' && !t.subresource) defaultPodUpdate(oldExt as unknown as Pod, obj as unknown as Pod);
    obj = this.withoutDisabledFields(r, obj, oldExt, t.subresource);
    this.validate(r, obj, oldExt, t.subresource);
    if (r.tracksGeneration && !t.subresource && !jsonEqual(oldExt.spec, obj.spec)) m.generation = (oldMeta.generation ?? 1) + 1;
    if (jsonEqual(oldExt, obj)) return oldExt;
    if (m.deletionTimestamp && (m.finalizers ?? []).length === 0) {
      if (!o.dryRun) this.cluster.remove(r.storeKind, r.namespaced ? t.namespace : '', t.name);
      return obj;
    }
    if (o.dryRun) return obj;
    return this.external(r, this.cluster.update(this.internal(r, obj)));
  }

  // ---- delete ----

  delete(t: Target, o: DeleteOptions = {}): KubeObject | StatusObject {
    const r = t.resource;
    const old = this.stored(r, t.namespace, t.name);
    if (!old) throw notFound(r, t.name);
    const ext = this.external(r, old);
    const pre = o.preconditions;
    if (pre?.uid && pre.uid !== old.metadata?.uid) {
      throw conflict(r, t.name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${old.metadata?.uid ?? ''}`);
    }
    if (pre?.resourceVersion && pre.resourceVersion !== old.metadata?.resourceVersion) {
      throw conflict(r, t.name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${old.metadata?.resourceVersion ?? ''}`);
    }
    if (r.kind === 'Namespace' && undeletableNamespaces.has(t.name)) {
      throw new ServedStatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 403, reason: 'Forbidden',
        message: `namespaces "${t.name}" is forbidden: this namespace may not be deleted`, details: { name: t.name, group: '', kind: 'namespaces' } });
    }
    if (r.kind === 'Pod') this.fault('deletePod');
    if (o.dryRun) return r.returnDeletedObject ? ext : deletedStatus(r, old);
    if ((old.metadata?.finalizers ?? []).length > 0) {
      if (old.metadata?.deletionTimestamp) return ext;
      const next = structuredClone(old);
      (next.metadata as Meta).deletionTimestamp = this.now();
      (next.metadata as Meta).deletionGracePeriodSeconds = 0;
      return this.external(r, this.cluster.update(next));
    }
    if (r.kind === 'Namespace') this.deleteNamespaceContents(t.name);
    this.cluster.remove(r.storeKind, r.namespaced ? t.namespace : '', t.name);
    return r.returnDeletedObject ? ext : deletedStatus(r, old);
  }

  /** What the namespace controller does before a namespace goes: delete everything in it. */
  private deleteNamespaceContents(ns: string): void {
    const kinds = new Set(resources.filter((r) => r.namespaced).map((r) => r.storeKind));
    for (const kind of kinds) {
      for (const o of this.cluster.list(kind)) if (o.metadata?.namespace === ns) this.cluster.remove(kind, ns, o.metadata.name ?? '');
    }
  }

  // ---- pods/binding ----

  /** POST pods/<name>/binding (or the legacy bindings collection): assigns the pod to a node. */
  bind(t: Target, body: unknown): StatusObject {
    const binding = body as { metadata?: ObjectMeta; target?: { kind?: string; name?: string } } | null;
    if (!binding || typeof binding !== 'object') throw badRequest('not a Binding object');
    const name = binding.metadata?.name ?? '';
    if (t.name && name !== t.name) throw badRequest('name in URL does not match name in Binding object');
    const bindingKind = { group: '', kind: 'Binding' };
    const errs: FieldError[] = [];
    if (binding.target?.kind && binding.target.kind !== 'Node') {
      errs.push({ type: 'FieldValueNotSupported', field: 'target.kind', value: binding.target.kind, detail: 'supported values: "Node", ""' });
    }
    if (!binding.target?.name) errs.push({ type: 'FieldValueRequired', field: 'target.name' });
    if (errs.length > 0) throw invalid(bindingKind, name, errs);
    const pods = resources.find((r) => r.kind === 'Pod')!;
    const cur = this.stored(pods, t.namespace, name) as Pod | undefined;
    if (!cur) throw notFound(pods, name);
    const uid = binding.metadata?.uid;
    if (uid && uid !== cur.metadata.uid) throw conflict(pods, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${cur.metadata.uid ?? ''}`);
    const rv = binding.metadata?.resourceVersion;
    if (rv && rv !== cur.metadata.resourceVersion) throw conflict(pods, name, OptimisticLockErrorMsg);
    const refused = bindingRefusal(cur);
    if (refused !== null) throw conflict(pods, name, refused, 'binding');
    this.fault('bind');
    const node = binding.target!.name!;
    const next: Pod = structuredClone(cur);
    next.spec.nodeName = node;
    // Clears a nomination that would otherwise mislead others about where the pod is going.
    if (this.cluster.clearsNominationOnBinding && next.status) delete next.status.nominatedNodeName;
    if (binding.metadata?.annotations) next.metadata.annotations = { ...next.metadata.annotations, ...binding.metadata.annotations };
    setCondition(next, { type: 'PodScheduled', status: 'True', lastTransitionTime: this.now() });
    this.cluster.recordBinding(t.namespace, name, node);
    this.cluster.update(next);
    return successStatus(201);
  }

  private fault(op: 'bind' | 'updatePodStatus' | 'deletePod'): void {
    try {
      this.cluster.consumeFault(op);
    } catch (err) {
      if (err instanceof ApiError) throw fromStoreError(err.code, err.message);
      throw err;
    }
  }

  // ---- helpers ----

  /**
   * The body as the resource's Go type decodes it: 400 for a body that is not an object of this
   * kind or has a value of the wrong type (nulls become zero values, as in Go).
   */
  private decode(r: Resource, body: unknown, o: WriteOptions, patchText?: () => string): Obj {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest(`Object 'Kind' is missing in '${JSON.stringify(body)}'`);
    const raw = body as Obj;
    if (raw.kind !== undefined && raw.kind !== r.kind) {
      throw badRequest(`${r.kind} in version "${r.version}" cannot be handled as a ${r.kind}: the object provided is unrecognized (must be of type ${r.kind}): kind ${String(raw.kind)}`);
    }
    const k = kindValidation(r.storeKind);
    const decoded = k ? decodeObject<Obj>(k.shape, raw) : { ok: true as const, value: structuredClone(raw) };
    if (!decoded.ok) throw badRequest(`${r.kind} in version "${r.version}" cannot be handled as a ${r.kind}: ${decoded.issue.message}`);
    const obj = decoded.value;
    this.checkUnknownFields(r, obj, o, patchText);
    obj.metadata ??= {};
    return obj;
  }

  /**
   * Strict decoding's unknown fields, dropped from the decoded copy, and as the fieldValidation
   * directive says: Strict refuses the body (a create or update with 400, a patch with 422 on
   * "patch"), Warn keeps one warning per field, Ignore says nothing (handlers/create.go, update.go, patch.go).
   */
  private checkUnknownFields(r: Resource, obj: Obj, o: WriteOptions, patchText?: () => string): void {
    const struct = kindStruct(groupVersion(r), r.kind);
    if (struct === undefined) return;
    const directive = o.fieldValidation ?? 'Warn';
    // Decoding into the Go struct drops what it does not declare, whatever the directive.
    const unknown = pruneUnknownFields(struct, obj);
    if (unknown.length === 0 || directive === 'Ignore') return;
    if (directive === 'Warn') {
      for (const p of unknown) o.warnings?.push(`unknown field ${JSON.stringify(p)}`);
      return;
    }
    const message = strictDecodingError(unknown);
    if (patchText === undefined) throw badRequest(`${r.kind} in version "${r.version}" cannot be handled as a ${r.kind}: ${message}`);
    throw invalid({ group: '', kind: '' }, '', [{ type: 'FieldValueInvalid', field: 'patch', value: patchText(), detail: message }]);
  }

  /** The namespace of a namespaced object defaults to the URL's; a different one is refused. */
  private checkNamespace(t: Target, meta: Meta): void {
    if (!t.resource.namespaced) {
      delete meta.namespace;
      return;
    }
    if (meta.namespace && meta.namespace !== t.namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    meta.namespace = t.namespace;
  }

  private internal(r: Resource, obj: Obj): KubeObject {
    return { ...obj, apiVersion: r.storageVersion ?? groupVersion(r), kind: r.kind };
  }
}

/** The patch's media type (one of the four) and its parsed document. */
function parsePatch(contentType: string, raw: string): { type: string; patch: unknown } {
  const type = contentType.split(';')[0]!.trim();
  if (!patchTypes.includes(type)) throw unsupportedMediaType(patchTypes);
  let patch: unknown;
  try {
    patch = type === 'application/apply-patch+yaml' ? parseYaml(raw) : JSON.parse(raw);
  } catch (err) {
    throw badRequest(`error decoding patch: ${(err as Error).message}`);
  }
  const problem = documentProblem(patch);
  if (problem !== null) throw badRequest(`error decoding patch: ${problem}`);
  return { type, patch };
}

function applyPatch(type: string, current: KubeObject, patch: unknown): unknown {
  if (type === 'application/json-patch+json') return applyJsonPatch(current, patch);
  if (type === 'application/merge-patch+json') return applyMergePatch(current, patch);
  return applyStrategicMergePatch(current, patch);
}

function objectSortKey(o: KubeObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

function deletedStatus(r: Resource, old: KubeObject): StatusObject {
  return successStatus(200, { name: old.metadata?.name ?? '', group: r.group, kind: r.name, uid: old.metadata?.uid });
}

/** The status a create strategy starts objects with (PrepareForCreate). */
function resetStatusOnCreate(r: Resource, obj: Obj): void {
  if (r.statusOnCreate !== 'reset') return;
  switch (r.kind) {
    case 'Pod':
      obj.status = { phase: 'Pending', qosClass: qosClass(obj as unknown as Pod) };
      return;
    case 'Namespace': {
      obj.status = { phase: 'Active' };
      const spec = (obj.spec ??= {}) as { finalizers?: string[] };
      spec.finalizers ??= ['kubernetes'];
      return;
    }
    case 'PersistentVolume':
    case 'PersistentVolumeClaim':
      obj.status = { phase: 'Pending' };
      return;
    default:
      delete obj.status;
  }
}

/** The pod's QoS class from its containers' requests and limits (pkg/apis/core/helper/qos). */
function qosClass(pod: Pod): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    for (const res of ['cpu', 'memory']) {
      const q = req[res] ?? lim[res];
      if (q !== undefined && String(q) !== '0') any = true;
      if (lim[res] === undefined || (req[res] !== undefined && String(req[res]) !== String(lim[res]))) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
