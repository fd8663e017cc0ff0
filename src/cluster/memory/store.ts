// The embedded cluster: an in-memory API server with list/watch semantics (resourceVersion,
// ordered events), binding, status updates, deletes and events; deterministic for a seed.
import type { KubeObject, Node, ObjectMeta, PersistentVolume, PersistentVolumeClaim, Pod, PodCondition, PodResourceClaimStatus, PriorityClass, StorageClass } from '../../api/types.js';
import type { ResourceClaim } from '../../api/dra_types.js';
import type { CompositePodGroup, PodGroup } from '../../api/scheduling.js';
import { dropDisabledFields, type PodGroupFieldGates } from '../../api/admission/drop_disabled_fields.js';
import { crdKind, customKindOf, establishedStatus, type CustomResourceDefinition } from '../../api/crds.js';
import { clusterScopedKinds, kindKey, kindKeyOf, kinds, type KindInfo } from '../../api/kinds.js';
import { randomUUID, rfc3339, seededRandom, type Clock } from '../../util/clock.js';
import { cloneJSON } from '../../util/json_clone.js';
import { shallowCopy } from '../../util/shallow_copy.js';
import { aggregateFieldErrors, applyResourceDefaults, dropDeallocatedStatusDevices, kindValidation, validatePodStatusNomination, type FieldError } from '../../api/validation/index.js';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../api/validation/meta.js';
import { ApiError, type ClusterClient, type ClusterEventRecord, type PodStatusPatch, type WatchEvent, type WatchHandler } from '../types.js';
import { defaultCompositePodGroup, defaultNode, defaultPod, defaultPodGroup, defaultStorageClass, keyInKind, keyInKindOf, storedKeyInKind } from './defaults.js';
import { freeGeneratedName } from './generate_name.js';
import { VolumeController } from './volume_controller.js';
import { ResourceClaimController } from './resourceclaim_controller.js';
import { WorkloadControllers } from './controllers/index.js';
import { defaultWorkload, generateJobSelector } from './workload_defaults.js';
import { DisruptionController } from './controllers/disruption.js';
import type { VersionedEvent, VersionedHandler } from './versioned_event.js';

type WritableMeta = { -readonly [K in keyof ObjectMeta]: ObjectMeta[K] };

export type FaultOp = 'bind' | 'updatePodStatus' | 'deletePod' | 'updateResourceClaimStatus' | 'readPod';

interface Fault {
  readonly op: FaultOp;
  remaining: number;
  readonly code: number;
  readonly message: string;
}

/**
 * The feature gates the embedded API server's admission and controllers read (kube-apiserver's
 * and kube-controller-manager's); each is off when absent, as in v1.37.2.
 */
export interface ClusterGates {
  /** Priority admission fills a new PodGroup's priority. */
  readonly genericWorkload?: boolean;
  /** ... and its preemptionPolicy (dropped from a new PodGroup when off). */
  readonly podGroupPreemptionPolicy?: boolean;
  /** The Job controller makes a Workload and a PodGroup for a Job. */
  readonly workloadWithJob?: boolean;
  /** Off: a new PodGroup's schedulingConstraints are dropped. */
  readonly topologyAwareWorkloadScheduling?: boolean;
  /** Off: a new PodGroup's resourceClaims are dropped. */
  readonly draWorkloadResourceClaims?: boolean;
  /** Off: a new PodGroup's parentCompositePodGroupName is dropped. */
  readonly compositePodGroup?: boolean;
}

export interface MemoryClusterOptions {
  clock: Clock;
  /** The gates admission and the controllers read. */
  gates?: ClusterGates;
  /** Called for objects of kinds the store defaults (e.g. to apply admission-time transforms). */
  admitPod?: (pod: Pod) => Pod;
  /**
   * How many recent changes the watch history keeps for watches resuming from a resourceVersion
   * (default 10000); 0 keeps none (a store no API server serves: nothing could read them).
   */
  watchHistorySize?: number;
  /**
   * How many of the most recent events `recordedEvents` keeps (default 10000); 0 keeps none (a
   * store nobody reads them from). Without a bound a long run would keep one per scheduled pod.
   */
  recordedEventsLimit?: number;
  /**
   * Whether `bindings` logs every binding (default true: simulations, what-if runs and tests read
   * it); a long-running served cluster turns it off, or it would grow by one entry per binding.
   */
  keepBindings?: boolean;
  /** Run the embedded PV controller that binds and provisions volumes (default true). */
  volumeController?: boolean;
  /** Run the embedded resourceclaim controller (claims from templates, release of claims; default true). */
  resourceClaimController?: boolean;
  /** Run the workload controllers (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job; default false). */
  workloadControllers?: boolean;
  /** Run the disruption controller that keeps PodDisruptionBudgets' status (default false: a scenario's budgets keep the status it gives them). */
  disruptionController?: boolean;
  /** The seeded source of generated name suffixes (generateName); a fixed seed when absent. */
  random?: () => number;
  /** What generated uids start with ("uid-"); a copy of another store's objects needs its own. */
  uidPrefix?: string;
  /**
   * ClearingNominatedNodeNameAfterBinding (on by default, as in kube-apiserver v1.37.2): binding
   * clears the pod's nominatedNodeName, and a bound pod may not get a new one.
   */
  clearingNominatedNodeNameAfterBinding?: boolean;
  /**
   * Generate uids as the API server does (random UUIDs) from this seeded source, instead of
   * "<uidPrefix>N" (the default, which simulations and their copies keep).
   */
  uuidRandom?: () => number;
}

const draKinds: ReadonlySet<string> = new Set(kinds.filter((k: KindInfo) => k.apiVersion.startsWith('resource.k8s.io/')).map((k) => k.kind));

/** The order a new watcher gets the stored objects in: the kinds the scheduler reads, in the table's order. */
const initialListOrder: readonly string[] = kinds.filter((k: KindInfo) => k.watched === true || k.listed === true).map((k) => kindKey(k));

export type { VersionedEvent, VersionedHandler } from './versioned_event.js';

/** The gates the PodGroup, CompositePodGroup and Workload strategies read, from the cluster's. */
export function podGroupFieldGates(g: ClusterGates): PodGroupFieldGates {
  return {
    topologyAwareWorkloadScheduling: g.topologyAwareWorkloadScheduling === true,
    draWorkloadResourceClaims: g.draWorkloadResourceClaims === true,
    podGroupPreemptionPolicy: g.podGroupPreemptionPolicy === true,
    compositePodGroup: g.compositePodGroup === true,
  };
}

export class MemoryCluster implements ClusterClient {
  /** Objects by kind key (api/kinds.ts), then by keyInKind: listing a kind does not walk every object. */
  private readonly byKind = new Map<string, Map<string, KubeObject>>();
  private resourceVersion = 0;
  private uidCounter = 0;
  /** Replaced, never mutated, so emit can walk it while a handler starts or stops watching. */
  private handlers: readonly WatchHandler[] = [];
  /**
   * Watchers of the API server: unlike `handlers`, they see versions and are not cleared by `stop`.
   * Replaced, never changed in place, so one that (un)subscribes during an event does not disturb
   * that event's delivery.
   */
  private subscribers: readonly VersionedHandler[] = [];
  /** Recent changes, oldest first, for watches that resume from a resourceVersion. */
  private history: VersionedEvent[] = [];
  /** Changes at or below this version are no longer in the history. */
  private historyFloor = 0;
  private faults: Fault[] = [];
  /** The events recorded (recordEvent), oldest first: the most recent recordedEventsLimit of them, at least. */
  readonly recordedEvents: ClusterEventRecord[] = [];
  /** Every bind call that succeeded, in order (pod key → node), for tests and reports; empty without keepBindings. */
  readonly bindings: { pod: string; node: string; time: number }[] = [];

  /** Logs a binding in `bindings` (the store's bind, and the API server's binding subresource). */
  recordBinding(namespace: string, name: string, node: string): void {
    if (this.opts.keepBindings !== false) this.bindings.push({ pod: `${namespace}/${name}`, node, time: this.opts.clock.now() });
  }

  /** The embedded PV controller, unless turned off. */
  readonly volumeController: VolumeController | null;
  /** The embedded resourceclaim controller, unless turned off. */
  readonly resourceClaimController: ResourceClaimController | null;
  private readonly random: () => number;

  /** The workload controllers and pod run times. */
  readonly controllers: WorkloadControllers;
  /** The disruption controller, when turned on. */
  readonly disruptionController: DisruptionController | null;

  /** The gates admission and the controllers read, for this store and the API server over it. */
  get gates(): ClusterGates {
    return this.opts.gates ?? {};
  }

  /** The workload gates the PodGroup and Workload strategies read; null for a store built without gates. */
  private get fieldGates(): PodGroupFieldGates | null {
    const g = this.opts.gates;
    return g === undefined ? null : podGroupFieldGates(g);
  }

  /**
   * An object as its kind's strategy prepares it (dropDisabledFields): without the fields of the
   * gates that are off, except those the stored `old` uses. A store built without gates (tests,
   * library use) keeps every field.
   */
  withoutDisabledFields<T extends KubeObject>(kindKey: string, obj: T, old?: KubeObject, subresource = ''): T {
    const g = this.fieldGates;
    return g === null ? obj : dropDisabledFields(kindKey, obj, g, old, subresource) as T;
  }

  /** ClearingNominatedNodeNameAfterBinding, for this store and the API server over it. */
  get clearsNominationOnBinding(): boolean {
    return this.opts.clearingNominatedNodeNameAfterBinding ?? true;
  }

  constructor(private readonly opts: MemoryClusterOptions) {
    this.random = opts.random ?? seededRandom(1);
    this.volumeController = opts.volumeController === false ? null : new VolumeController(this);
    this.volumeController?.start();
    this.resourceClaimController = opts.resourceClaimController === false ? null : new ResourceClaimController(this, opts.clock);
    this.resourceClaimController?.start();
    this.controllers = new WorkloadControllers(this, opts.clock, opts.workloadControllers === true, opts.gates?.workloadWithJob === true);
    this.controllers.start();
    this.disruptionController = opts.disruptionController === true ? new DisruptionController({ store: this, clock: opts.clock, podsOf: () => [], workloadWithJob: false, workloadsOfJob: () => [], podGroupsOfWorkload: () => [] }) : null;
    this.disruptionController?.start();
  }

  /** Resolves once the embedded controllers have acted on the changes made so far (claims for new pods). */
  controllersIdle(): Promise<void> {
    return this.resourceClaimController?.idle() ?? Promise.resolve();
  }

  // ---- the API server side ----

  /** A name from `o`'s generateName that no `kind` object of its namespace has (retried as the API server does). */
  private freeName(kind: string, o: KubeObject): string {
    const namespace = o.metadata?.namespace ?? 'default';
    return freeGeneratedName(o.metadata?.generateName ?? '', this.random, (name) => this.lookup(kind, keyInKind(kind, namespace, name)) !== undefined);
  }

  private nextRV(): string {
    return String(++this.resourceVersion);
  }

  private emit(e: WatchEvent): void {
    const ve: VersionedEvent = { rv: this.resourceVersion, event: e };
    const limit = this.opts.watchHistorySize ?? 10_000;
    if (limit === 0) {
      // No history: what keeping and compacting each change at once would leave.
      if (ve.rv > this.historyFloor) this.historyFloor = ve.rv;
    } else {
      this.history.push(ve);
      if (this.history.length > 2 * limit) this.compactHistory(this.history[this.history.length - limit - 1]!.rv);
    }
    const handlers = this.handlers;
    const seen = handlers.length > 0 ? schedulerView(e) : null;
    if (seen !== null) for (let i = 0; i < handlers.length; i++) handlers[i]!(seen);
    const subscribers = this.subscribers;
    for (let i = 0; i < subscribers.length; i++) subscribers[i]!(ve);
  }

  /** `old` is the stored object an update replaces (the gated fields it uses are kept). */
  private prepare(obj: KubeObject, old?: KubeObject): KubeObject {
    const kind = kindKeyOf(obj);
    let o: KubeObject;
    if (kind === 'Pod') {
      const pcs = this.list<PriorityClass>('PriorityClass');
      o = defaultPod(obj as Pod, pcs);
      if (this.opts.admitPod) o = this.opts.admitPod(o as Pod);
    } else if (kind === 'Node') {
      o = defaultNode(obj as Node);
    } else if (kind === 'StorageClass') {
      o = defaultStorageClass(obj as StorageClass);
    } else if (kind === 'PodGroup') {
      const pg = this.withoutDisabledFields(kind, obj as PodGroup);
      o = this.gates.genericWorkload === true ? defaultPodGroup(pg, this.list<PriorityClass>('PriorityClass'), this.gates.podGroupPreemptionPolicy === true) : cloneJSON(pg);
      o.metadata ??= {};
      o.metadata.namespace ??= 'default';
    } else if (kind === 'CompositePodGroup') {
      const cpg = this.withoutDisabledFields(kind, obj as CompositePodGroup);
      o = defaultCompositePodGroup(cpg, this.list<PriorityClass>('PriorityClass'), this.gates.podGroupPreemptionPolicy === true);
    } else if (kind === crdKind) {
      // The names and established controllers accept a new CRD at once (no other CRD can conflict).
      const crd = cloneJSON(obj) as CustomResourceDefinition;
      if (old === undefined && crd.spec != null) crd.status = establishedStatus(crd, rfc3339(this.opts.clock.now()));
      o = crd;
    } else if (obj.apiVersion?.startsWith('resource.k8s.io/') || draKinds.has(kind)) {
      o = cloneJSON(obj);
      o.metadata ??= {};
      if (!clusterScopedKinds.has(kind)) o.metadata.namespace ??= 'default';
      applyResourceDefaults(o, rfc3339(this.opts.clock.now()));
    } else {
      o = cloneJSON(obj);
      o.metadata ??= {};
      if (!clusterScopedKinds.has(kind)) o.metadata.namespace ??= 'default';
      defaultWorkload(o);
      o = this.withoutDisabledFields(kind, o, old);
      // The Job strategy drops spec.scheduling while WorkloadWithJob is off (DropDisabledFields).
      if (kind === 'Job' && this.gates.workloadWithJob !== true) delete (o as { spec?: { scheduling?: unknown } }).spec?.scheduling;
    }
    return o;
  }

  /** Creates an object (defaulted as the API server would, generateName honoured); throws 409 when it exists. */
  create<T extends KubeObject>(obj: T): T {
    if (!obj.kind) throw new ApiError(400, 'object has no kind');
    const o = this.prepare(obj);
    const kind = kindKeyOf(o);
    if (!o.metadata!.name && o.metadata!.generateName) (o.metadata as WritableMeta).name = this.freeName(kind, o);
    const key = storedKeyInKind(o);
    if (this.lookup(kind, key) !== undefined) throw new ApiError(409, `${o.kind} "${o.metadata?.name}" already exists`);
    const meta = o.metadata as WritableMeta;
    meta.uid ??= this.opts.uuidRandom ? randomUUID(this.opts.uuidRandom) : `${this.opts.uidPrefix ?? 'uid-'}${++this.uidCounter}`;
    meta.resourceVersion = this.nextRV();
    meta.creationTimestamp ??= rfc3339(this.opts.clock.now());
    if (o.kind === 'Job') generateJobSelector(o);
    this.putObject(key, o);
    this.emit({ type: 'ADDED', kind, object: o });
    return o as T;
  }

  /** Replaces an existing object (or creates it). */
  update<T extends KubeObject>(obj: T): T {
    const key = keyInKindOf(obj);
    const old = this.lookup(kindKeyOf(obj), key);
    if (!old) return this.create(obj);
    // Admission's fills happen on create only (a pod's or a group's priority never changes after).
    const kind = kindKeyOf(obj);
    const o = kind === 'Pod' ? cloneJSON(obj)
      : kind === 'PodGroup' || kind === 'CompositePodGroup' ? cloneJSON(this.withoutDisabledFields(kind, obj, old))
      : this.prepare(obj, old);
    return this.replaceExisting(key, old, o) as T;
  }

  /** Stores `o` (owned by the store from now on) in place of `old` and emits MODIFIED. */
  private replaceExisting(key: string, old: KubeObject, o: KubeObject): KubeObject {
    o.metadata ??= {};
    const meta = o.metadata as WritableMeta;
    meta.namespace = old.metadata?.namespace;
    meta.uid = old.metadata?.uid;
    meta.creationTimestamp = old.metadata?.creationTimestamp;
    meta.resourceVersion = this.nextRV();
    this.putObject(key, o);
    this.emit({ type: 'MODIFIED', kind: kindKeyOf(o), object: o, oldObject: old });
    return o;
  }

  private lookup(kind: string, key: string): KubeObject | undefined {
    return this.byKind.get(kind)?.get(key);
  }

  private putObject(key: string, o: KubeObject): void {
    const kind = kindKeyOf(o);
    let m = this.byKind.get(kind);
    if (!m) this.byKind.set(kind, (m = new Map()));
    m.set(key, o);
  }

  private deleteObject(key: string, o: KubeObject): void {
    this.byKind.get(kindKeyOf(o))?.delete(key);
  }

  /**
   * A copy of a stored pod that may be changed and stored again: stored objects are never
   * mutated, so only the parts a status or binding write touches are copied.
   */
  private static podForWrite(cur: Pod, conditions?: PodCondition[]): Pod {
    // spec and status get keys they may lack (nodeName, conditions): copies that can take them
    // without a hidden class per pod (util/shallow_copy.ts).
    const status: NonNullable<Pod['status']> = cur.status === undefined ? {} : shallowCopy(cur.status);
    status.conditions = conditions ?? [...(cur.status?.conditions ?? [])];
    return { ...cur, metadata: { ...cur.metadata }, spec: shallowCopy(cur.spec), status };
  }

  remove(kind: string, namespace: string, name: string): boolean {
    const key = keyInKind(kind, namespace, name);
    const old = this.lookup(kind, key);
    if (!old) return false;
    this.deleteObject(key, old);
    this.resourceVersion++;
    this.emit({ type: 'DELETED', kind, object: old, oldObject: old });
    // A CRD's deletion deletes its custom resources (the apiextensions finalizer's cleanup).
    const custom = kind === crdKind ? customKindOf(name) : undefined;
    if (custom !== undefined) for (const o of this.list(custom)) this.remove(custom, o.metadata?.namespace ?? '', o.metadata?.name ?? '');
    return true;
  }

  get<T extends KubeObject>(kind: string, namespace: string, name: string): T | undefined {
    return this.lookup(kind, keyInKind(kind, namespace, name)) as T | undefined;
  }

  list<T extends KubeObject>(kind: string): T[] {
    const m = this.byKind.get(kind);
    return m ? ([...m.values()] as T[]) : [];
  }

  get currentResourceVersion(): number {
    return this.resourceVersion;
  }

  /** Streams every later change with its version until the returned function is called. */
  subscribe(handler: VersionedHandler): () => void {
    if (!this.subscribers.includes(handler)) this.subscribers = [...this.subscribers, handler];
    return () => {
      this.subscribers = this.subscribers.filter((h) => h !== handler);
    };
  }

  /**
   * The changes made after version `rv`, oldest first; throws ApiError(410) when some of them
   * have been compacted away (as the watch cache does for a too old resourceVersion).
   */
  eventsSince(rv: number): VersionedEvent[] {
    if (rv < this.historyFloor) throw new ApiError(410, `too old resource version: ${rv} (${this.historyFloor})`);
    let lo = 0;
    let hi = this.history.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.history[mid]!.rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return this.history.slice(lo);
  }

  /** Forgets the changes at or below `rv` (default: all so far); watches from older versions get 410 Gone. */
  compactHistory(rv = this.resourceVersion): void {
    if (rv <= this.historyFloor) return;
    this.historyFloor = rv;
    this.history = this.history.filter((e) => e.rv > rv);
  }

  /** Throws the next armed fault of `op`, as the store's own bind/updatePodStatus/deletePod do. */
  consumeFault(op: FaultOp): void {
    this.checkFault(op);
  }

  /** Makes the next `times` calls of `op` fail with an API error. */
  injectFault(op: FaultOp, code: number, times = 1, message = 'injected fault'): void {
    this.faults.push({ op, remaining: times, code, message });
  }

  private checkFault(op: FaultOp): void {
    const f = this.faults.find((x) => x.op === op && x.remaining > 0);
    if (!f) return;
    f.remaining--;
    this.faults = this.faults.filter((x) => x.remaining > 0);
    throw new ApiError(f.code, f.message);
  }

  // ---- ClusterClient ----

  async start(handler: WatchHandler): Promise<void> {
    const order = initialListOrder;
    const all: KubeObject[] = [];
    for (const m of this.byKind.values()) for (const o of m.values()) if (!isTerminalPod(o)) all.push(o);
    const rank = (k: string | undefined) => {
      const i = order.indexOf(k ?? '');
      return i < 0 ? order.length : i;
    };
    all.sort((a, b) => rank(kindKeyOf(a)) - rank(kindKeyOf(b)) || Number(a.metadata?.resourceVersion) - Number(b.metadata?.resourceVersion));
    for (const o of all) handler({ type: 'ADDED', kind: kindKeyOf(o), object: o });
    if (!this.handlers.includes(handler)) this.handlers = [...this.handlers, handler];
  }

  stop(): void {
    this.handlers = [];
  }

  async bind(pod: Pod, nodeName: string): Promise<void> {
    this.checkFault('bind');
    const ns = pod.metadata.namespace ?? 'default';
    const name = pod.metadata.name ?? '';
    const key = keyInKind('Pod', ns, name);
    const cur = this.lookup('Pod', key) as Pod | undefined;
    if (!cur || (pod.metadata.uid && cur.metadata.uid !== pod.metadata.uid)) {
      throw new ApiError(404, `pods "${name}" not found`);
    }
    const refused = bindingRefusal(cur);
    if (refused !== null) throw new ApiError(409, `Operation cannot be fulfilled on pods/binding "${name}": ${refused}`);
    // A pod bound to a node deleted meanwhile is the pod garbage collector's to remove.
    const scheduled: PodCondition = { type: 'PodScheduled', status: 'True', lastTransitionTime: rfc3339(this.opts.clock.now()) };
    const next = MemoryCluster.podForWrite(cur, withCondition(asList(cur.status?.conditions), scheduled));
    next.spec.nodeName = nodeName;
    // Only when set: a delete turns the status object into a slow dictionary for every later read.
    if (this.clearsNominationOnBinding && next.status!.nominatedNodeName !== undefined) delete next.status!.nominatedNodeName;
    this.recordBinding(ns, name, nodeName);
    this.replaceExisting(key, cur, next);
  }

  async updatePodStatus(pod: Pod, patch: PodStatusPatch): Promise<void> {
    this.checkFault('updatePodStatus');
    const cur = this.get<Pod>('Pod', pod.metadata.namespace ?? 'default', pod.metadata.name ?? '');
    if (!cur) throw new ApiError(404, `pods "${pod.metadata.name}" not found`);
    const next = MemoryCluster.podForWrite(cur);
    next.status ??= {};
    if (patch.condition) setCondition(next, patch.condition);
    if (patch.disruptionTarget) setCondition(next, patch.disruptionTarget);
    if (patch.nominatedNodeName !== undefined) {
      if (patch.nominatedNodeName === '') delete next.status.nominatedNodeName;
      else next.status.nominatedNodeName = patch.nominatedNodeName;
    }
    if (patch.extendedResourceClaimStatus) next.status.extendedResourceClaimStatus = patch.extendedResourceClaimStatus;
    const errs = validatePodStatusNomination(cur, next, this.clearsNominationOnBinding);
    if (errs.length > 0) throw new ApiError(422, `Pod "${cur.metadata.name ?? ''}" is invalid: ${aggregateFieldErrors(errs)}`);
    this.replaceExisting(keyInKindOf(cur), cur, next);
  }

  /**
   * The resourceclaim controller's record of a pod's generated claims (a status apply of
   * status.resourceClaimStatuses upstream): the stored pod with that one field set, its other
   * parts shared rather than copied. A pod gone meanwhile is written as given, as `update` would.
   */
  setPodResourceClaimStatuses(pod: Pod, statuses: PodResourceClaimStatus[]): Pod {
    const cur = this.get<Pod>('Pod', pod.metadata.namespace ?? 'default', pod.metadata.name ?? '');
    if (cur === undefined) return this.update<Pod>({ ...pod, status: { ...pod.status, resourceClaimStatuses: statuses } });
    // Stored objects are never changed: the spec is shared, metadata copied for the new version.
    // Not `{ ...status, resourceClaimStatuses }`: a hidden class per pod (util/shallow_copy.ts).
    const status: NonNullable<Pod['status']> = cur.status === undefined ? {} : shallowCopy(cur.status);
    status.resourceClaimStatuses = statuses;
    const next: Pod = { ...cur, metadata: { ...cur.metadata }, status };
    return this.replaceExisting(keyInKindOf(cur), cur, next) as Pod;
  }

  /** Runs as a client's pod deletion arrives, before it is stored (the differential harness's timeline reads the gate then). */
  beforePodDelete: ((pod: Pod) => void) | null = null;

  async deletePod(pod: Pod): Promise<void> {
    this.checkFault('deletePod');
    this.beforePodDelete?.(pod);
    const ns = pod.metadata.namespace ?? 'default';
    if (!this.remove('Pod', ns, pod.metadata.name ?? '')) throw new ApiError(404, `pods "${pod.metadata.name}" not found`);
  }

  recordEvent(e: ClusterEventRecord): void {
    const limit = this.opts.recordedEventsLimit ?? 10_000;
    if (limit <= 0) return;
    const events = this.recordedEvents;
    events.push(e);
    // Dropped a batch at a time, as the watch history is: one copy per `limit` events.
    if (events.length > 2 * limit) events.splice(0, events.length - limit);
  }

  getPod(namespace: string, name: string): Pod | undefined {
    return this.get<Pod>('Pod', namespace, name);
  }

  async readPod(namespace: string, name: string): Promise<Pod | null> {
    this.checkFault('readPod');
    return this.get<Pod>('Pod', namespace, name) ?? null;
  }

  listNodes(): Node[] {
    return this.list<Node>('Node');
  }

  async updatePersistentVolume(pv: PersistentVolume): Promise<PersistentVolume> {
    return this.replaceChecked({ ...pv, kind: 'PersistentVolume' as const }, 'persistentvolumes');
  }

  async updatePersistentVolumeClaim(pvc: PersistentVolumeClaim): Promise<PersistentVolumeClaim> {
    return this.replaceChecked({ ...pvc, kind: 'PersistentVolumeClaim' as const }, 'persistentvolumeclaims');
  }

  async updateResourceClaimStatus(claim: ResourceClaim): Promise<ResourceClaim> {
    this.checkFault('updateResourceClaimStatus');
    return this.writeResourceClaimStatus(claim);
  }

  async updatePodGroupStatus(podGroup: PodGroup): Promise<PodGroup> {
    const cur = this.currentForUpdate({ ...podGroup, kind: 'PodGroup' as const }, 'podgroups.scheduling.k8s.io') as PodGroup;
    // The status strategy: spec and metadata stay as stored.
    // A copy that can take a status it lacks without a hidden class of its own (util/shallow_copy.ts).
    const next: PodGroup = shallowCopy(cur);
    next.metadata = { ...cur.metadata };
    if (podGroup.status === undefined) delete next.status;
    else next.status = cloneJSON(this.withoutDisabledFields('PodGroup', { ...next, status: podGroup.status }, cur, 'status').status);
    return this.replaceExisting(keyInKindOf(cur), cur, next) as PodGroup;
  }

  /** updateResourceClaimStatus without the armed faults (the embedded controllers' own writes). */
  writeResourceClaimStatus(claim: ResourceClaim): ResourceClaim {
    const cur = this.currentForUpdate({ ...claim, kind: 'ResourceClaim' as const }, 'resourceclaims.resource.k8s.io') as ResourceClaim;
    // The status strategy: spec and metadata stay as stored.
    // A copy that can take a status it lacks without a hidden class of its own (util/shallow_copy.ts).
    const next: ResourceClaim = shallowCopy(cur);
    next.metadata = { ...cur.metadata };
    if (claim.status === undefined) delete next.status;
    else next.status = cloneJSON(claim.status);
    applyResourceDefaults(next);
    dropDeallocatedStatusDevices(cur, next);
    MemoryCluster.refuseInvalid(cur, kindValidation('ResourceClaim')!.validateStatusUpdate!(cur, next));
    return this.replaceExisting(keyInKindOf(cur), cur, next) as ResourceClaim;
  }

  async updateResourceClaim(claim: ResourceClaim): Promise<ResourceClaim> {
    const cur = this.currentForUpdate({ ...claim, kind: 'ResourceClaim' as const }, 'resourceclaims.resource.k8s.io') as ResourceClaim;
    // The main resource's strategy: status stays as stored; deletion stays marked. The spec is
    // immutable: the stored one given back (PreBind's finalizer, the controller's) is kept as it
    // is, neither copied nor defaulted nor validated again (it was when stored, and is never changed).
    const sameSpec = claim.spec !== undefined && claim.spec === cur.spec;
    // Placeholders (null) keep the members' order as in `claim`.
    // Keys set on a copy, not `{ ...claim, status }`: a spread given a key the claim lacks makes a
    // hidden class per claim (util/shallow_copy.ts).
    const given = shallowCopy(claim) as unknown as Record<string, unknown>;
    given.kind = 'ResourceClaim';
    given.spec = sameSpec ? null : claim.spec;
    given.status = cur.status === undefined ? undefined : null;
    const next: ResourceClaim = cloneJSON(given) as unknown as ResourceClaim;
    if (sameSpec) next.spec = cur.spec;
    if (cur.status !== undefined) next.status = cur.status;
    if (!sameSpec) applyResourceDefaults(next);
    const meta = next.metadata as WritableMeta;
    meta.deletionTimestamp = cur.metadata.deletionTimestamp;
    if (meta.deletionTimestamp === undefined) delete meta.deletionTimestamp;
    const k = kindValidation('ResourceClaim')!;
    MemoryCluster.refuseInvalid(cur, sameSpec ? validateObjectMeta(next.metadata, true, nameIsDNSSubdomain) : [...k.validate(next), ...k.validateUpdate!(cur, next)]);
    if (meta.deletionTimestamp !== undefined && (meta.finalizers ?? []).length === 0) {
      // The last finalizer of an object being deleted is gone: the object goes.
      this.remove('ResourceClaim', cur.metadata.namespace ?? 'default', cur.metadata.name ?? '');
      return { ...next, metadata: { ...next.metadata, resourceVersion: String(this.resourceVersion) } };
    }
    return this.replaceExisting(keyInKindOf(cur), cur, next) as ResourceClaim;
  }

  async createResourceClaim(claim: ResourceClaim): Promise<ResourceClaim> {
    const obj: ResourceClaim = shallowCopy(claim);
    obj.kind = 'ResourceClaim';
    obj.metadata = shallowCopy(claim.metadata);
    // As the API server: the name is generated before validation.
    if (!obj.metadata.name && obj.metadata.generateName) (obj.metadata as WritableMeta).name = this.freeName('ResourceClaim', obj);
    MemoryCluster.refuseInvalid(obj, kindValidation('ResourceClaim')!.validate(obj));
    return this.create<ResourceClaim>(obj);
  }

  /** ApiError(422) with the API server's wording when validation found something. */
  private static refuseInvalid(obj: ResourceClaim, errs: readonly FieldError[]): void {
    if (errs.length > 0) throw new ApiError(422, `ResourceClaim.resource.k8s.io "${obj.metadata.name ?? ''}" is invalid: ${aggregateFieldErrors(errs)}`);
  }

  /** Deletes a claim; one with finalizers is only marked (deletionTimestamp) until they are removed. */
  async deleteResourceClaim(namespace: string, name: string): Promise<void> {
    const cur = this.get<ResourceClaim>('ResourceClaim', namespace, name);
    if (!cur) throw new ApiError(404, `resourceclaims.resource.k8s.io "${name}" not found`);
    if ((cur.metadata.finalizers ?? []).length === 0) {
      this.remove('ResourceClaim', namespace, name);
      return;
    }
    if (cur.metadata.deletionTimestamp) return;
    const next: ResourceClaim = { ...cur, metadata: { ...cur.metadata, deletionTimestamp: rfc3339(this.opts.clock.now()) } };
    this.replaceExisting(keyInKindOf(cur), cur, next);
  }

  /** An update (PUT) of an existing object: 404 when missing, 409 when its resourceVersion is stale. */
  private replaceChecked<T extends KubeObject>(obj: T, resource: string): T {
    const cur = this.currentForUpdate(obj, resource);
    return this.replaceExisting(keyInKindOf(cur), cur, cloneJSON(obj)) as T;
  }

  /** The stored version `obj` replaces: ApiError(404) when missing, 409 when `obj`'s resourceVersion is stale. */
  private currentForUpdate(obj: KubeObject, resource: string): KubeObject {
    const name = obj.metadata?.name ?? '';
    const cur = this.lookup(kindKeyOf(obj), keyInKindOf(obj));
    if (!cur) throw new ApiError(404, `${resource} "${name}" not found`);
    const rv = obj.metadata?.resourceVersion;
    if (rv && rv !== cur.metadata?.resourceVersion) {
      throw new ApiError(409, `Operation cannot be fulfilled on ${resource} "${name}": the object has been modified; please apply your changes to the latest version and try again`);
    }
    return cur;
  }
}

/** Sets or replaces a pod condition by type; keeps lastTransitionTime when the status is unchanged. */
function isTerminalPod(o: KubeObject): boolean {
  const phase = o.kind === 'Pod' ? (o as Pod).status?.phase : undefined;
  return phase === 'Succeeded' || phase === 'Failed';
}

/**
 * The change as the scheduler's pod informer sees it: it watches only pods that have not finished
 * (field selector status.phase!=Succeeded,status.phase!=Failed, as `run` does), so a pod that
 * finishes leaves with a DELETED event and finished pods are not seen at all.
 */
function schedulerView(e: WatchEvent): WatchEvent | null {
  if (e.kind !== 'Pod') return e;
  const now = isTerminalPod(e.object);
  const before = e.oldObject !== undefined && isTerminalPod(e.oldObject);
  if (e.type === 'MODIFIED') {
    if (now && !before) return { type: 'DELETED', kind: e.kind, object: e.object, oldObject: e.oldObject };
    if (!now && before) return { type: 'ADDED', kind: e.kind, object: e.object };
    return now ? null : e;
  }
  return now ? null : e;
}

/** A stored list as podForWrite's copy would read it (any other iterable spread), without copying an array. */
function asList(list: readonly PodCondition[] | null | undefined): readonly PodCondition[] | null | undefined {
  return list === undefined || list === null || Array.isArray(list) ? list : [...list];
}

/**
 * Why the binding subresource refuses to bind `pod` (a Conflict), in its order, or null
 * (pod/storage BindingREST.setPodNodeAndMetadata). The node is not looked up: any name binds.
 */
export function bindingRefusal(pod: Pod): string | null {
  const name = pod.metadata.name ?? '';
  if (pod.metadata.deletionTimestamp) return `pod ${name} is being deleted, cannot be assigned to a host`;
  if (pod.spec.nodeName) return `pod ${name} is already assigned to node "${pod.spec.nodeName}"`;
  if ((pod.spec.schedulingGates?.length ?? 0) > 0) return `pod ${name} has non-empty .spec.schedulingGates`;
  return null;
}

export function setCondition(pod: Pod, cond: PodCondition): void {
  pod.status ??= {};
  pod.status.conditions = withCondition(pod.status.conditions, cond);
}

/**
 * A new list: `list` with `cond` set or replaced by type (lastTransitionTime kept when the status
 * is unchanged). Sized exactly (a push would give the stored pod's list room for 16 more).
 */
function withCondition(list: readonly PodCondition[] | null | undefined, cond: PodCondition): PodCondition[] {
  if (list === undefined || list === null) return [cond];
  const idx = list.findIndex((c) => c.type === cond.type);
  if (idx < 0) return list.concat([cond]);
  const prev = list[idx]!;
  const out = list.slice();
  out[idx] = { ...cond, lastTransitionTime: prev.status === cond.status ? prev.lastTransitionTime : cond.lastTransitionTime };
  return out;
}

