// The workload controllers a real cluster runs around the scheduler (kube-controller-manager's
// deployment, replicaset, statefulset, daemonset and job controllers, and the garbage collector
// for what they own), for the embedded cluster: they react to the store's changes once per
// microtask, syncing only the workloads a change concerns, in a fixed order, so a simulation
// stays deterministic for its seed and cheap at 100,000 pods.
import type { PodGroup, Workload as WorkloadObject } from '../../../api/scheduling.js';
import type { Pod } from '../../../api/types.js';
import { ApiError } from '../../types.js';
import type { Clock } from '../../../util/clock.js';
import type { VersionedEvent } from '../versioned_event.js';
import { syncDaemonSet } from './daemonset.js';
import { syncDeployment } from './deployment.js';
import { syncJob } from './job.js';
import { podGroupsByWorkload, workloadsByJob } from './job_scheduling.js';
import { ObjectIndex } from './object_index.js';
import { coschedulingPodGroupKind, coschedulingPodGroupLabel, reconcileCoschedulingStatus, type CoschedulingGroup } from './podgroup.js';
import { byCreation, controllerUid, isActive, type Workload } from './owned.js';
import { PodLifetimes } from './pod_lifetime.js';
import { syncReplicaSet } from './replicaset.js';
import { syncStatefulSet } from './statefulset.js';
import { isPodReady, writeStatus } from './status.js';
import type { ControllerContext, ControllerStore } from './store.js';

type Sync = (ctx: ControllerContext, w: Workload) => void;

/** Owners first, so a Deployment's new ReplicaSet is synced in the same pass. */
const controllers: readonly (readonly [kind: string, sync: Sync])[] = [
  ['Deployment', syncDeployment],
  ['ReplicaSet', syncReplicaSet],
  ['StatefulSet', syncStatefulSet],
  ['DaemonSet', syncDaemonSet],
  ['Job', syncJob],
];
const syncByKind = new Map(controllers);
/** Passes beyond this in one round mean controllers keep undoing each other: the rest waits for the next change. */
const maxPassesPerRound = 50;

const key = (kind: string, namespace: string, name: string) => `${kind}/${namespace}/${name}`;

/**
 * Whether a pod change can change what its controller does or reports: pods coming and going,
 * finishing or turning (un)ready always; a binding only for StatefulSets (the next ordinal waits for it) and DaemonSets (which
 * node a pod holds). Other updates (status writes by the scheduler) need no sync.
 */
function concernsOwner(ownerKind: string, pod: Pod, old: Pod | undefined, type: string): boolean {
  if (type !== 'MODIFIED' || old === undefined) return true;
  if (isActive(pod) !== isActive(old) || pod.status?.phase !== old.status?.phase || isPodReady(pod) !== isPodReady(old)) return true;
  return (ownerKind === 'StatefulSet' || ownerKind === 'DaemonSet') && pod.spec.nodeName !== old.spec.nodeName;
}

export class WorkloadControllers {
  private scheduled = false;
  private unsubscribe: (() => void) | null = null;
  /** Pods by their controller's uid, then by namespace/name. */
  private readonly podsByOwner = new Map<string, Map<string, Pod>>();
  /** Workloads to sync in the next pass, by kind/namespace/name. */
  private dirty = new Set<string>();
  /** Uids of deleted objects whose dependents the garbage collector removes. */
  private deletedOwners = new Set<string>();
  /** WorkloadWithJob's indexes: Workloads by the Job they name, PodGroups by their Workload. */
  private readonly workloadIndex = new ObjectIndex<WorkloadObject>(workloadsByJob);
  private readonly podGroupIndex = new ObjectIndex<PodGroup>(podGroupsByWorkload);
  /** scheduler-plugins' PodGroup controller: pods by their group label (of any namespace, as its list), and the groups to reconcile. */
  private readonly podsByGroupLabel = new ObjectIndex<Pod>((p) => p.metadata.labels?.[coschedulingPodGroupLabel] || undefined);
  private dirtyGroups = new Set<string>();
  private readonly ctx: ControllerContext;
  readonly lifetimes: PodLifetimes;

  /**
   * `workloads` turns the workload controllers on; pod run times are always followed. Off by
   * default for scenarios: a snapshot's pending pods are the ones to schedule, and a controller
   * topping up or trimming replicas would change that list.
   */
  constructor(store: ControllerStore, clock: Clock, private readonly workloads: boolean, workloadWithJob = false) {
    this.ctx = {
      store, clock, podsOf: (uid) => [...(this.podsByOwner.get(uid)?.values() ?? [])], workloadWithJob,
      workloadsOfJob: (ns, name) => this.workloadIndex.get(`${ns}/${name}`),
      podGroupsOfWorkload: (ns, name) => this.podGroupIndex.get(`${ns}/${name}`),
    };
    this.lifetimes = new PodLifetimes(this.ctx);
  }

  /** Indexes what the store holds, syncs every workload once, then follows changes. */
  start(): void {
    if (this.unsubscribe !== null) return;
    for (const p of this.ctx.store.list<Pod>('Pod')) {
      this.indexPod(p, true);
      this.podsByGroupLabel.observe(p, true);
      this.lifetimes.observe('ADDED', p);
    }
    if (this.ctx.workloadWithJob) {
      for (const w of this.ctx.store.list<WorkloadObject>('Workload')) this.workloadIndex.observe(w, true);
      for (const pg of this.ctx.store.list<PodGroup>('PodGroup')) this.podGroupIndex.observe(pg, true);
    }
    if (this.workloads) for (const [kind] of controllers) for (const w of this.ctx.store.list<Workload>(kind)) this.dirty.add(key(kind, w.metadata.namespace ?? 'default', w.metadata.name ?? ''));
    if (this.workloads) for (const g of this.ctx.store.list(coschedulingPodGroupKind)) this.dirtyGroups.add(`${g.metadata?.namespace ?? 'default'}/${g.metadata?.name ?? ''}`);
    this.unsubscribe = this.ctx.store.subscribe((e) => this.onChange(e));
    this.schedule();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.lifetimes.stop();
  }

  private indexPod(p: Pod, present: boolean): void {
    const uid = controllerUid(p);
    if (uid === undefined) return;
    const podKey = `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;
    let m = this.podsByOwner.get(uid);
    if (present) {
      if (m === undefined) this.podsByOwner.set(uid, (m = new Map()));
      m.set(podKey, p);
    } else if (m !== undefined) {
      m.delete(podKey);
      if (m.size === 0) this.podsByOwner.delete(uid);
    }
  }

  private onChange({ event }: VersionedEvent): void {
    const o = event.object;
    if (event.kind === 'Pod') {
      const pod = o as Pod;
      this.indexPod(pod, event.type !== 'DELETED');
      this.podsByGroupLabel.observe(pod, event.type !== 'DELETED');
      const group = pod.metadata.labels?.[coschedulingPodGroupLabel];
      if (group) this.markGroupDirty(`${pod.metadata.namespace ?? 'default'}/${group}`);
      this.lifetimes.observe(event.type, pod);
      const ref = pod.metadata.ownerReferences?.find((r) => r.controller === true);
      if (ref !== undefined && syncByKind.has(ref.kind) && concernsOwner(ref.kind, pod, event.oldObject as Pod | undefined, event.type)) {
        this.markDirty(key(ref.kind, pod.metadata.namespace ?? 'default', ref.name));
      }
    } else if (event.kind === 'Workload' || event.kind === 'PodGroup') {
      if (this.ctx.workloadWithJob) {
        if (event.kind === 'Workload') this.workloadIndex.observe(o as WorkloadObject, event.type !== 'DELETED');
        else this.podGroupIndex.observe(o as PodGroup, event.type !== 'DELETED');
      }
    } else if (event.kind === coschedulingPodGroupKind) {
      if (event.type !== 'DELETED') this.markGroupDirty(`${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? ''}`);
    } else if (event.kind === 'Node') {
      for (const ds of this.ctx.store.list<Workload>('DaemonSet')) this.markDirty(key('DaemonSet', ds.metadata.namespace ?? 'default', ds.metadata.name ?? ''));
    } else if (syncByKind.has(event.kind)) {
      this.markDirty(key(event.kind, o.metadata?.namespace ?? 'default', o.metadata?.name ?? ''));
      const owner = o.metadata?.ownerReferences?.find((r) => r.controller === true);
      if (owner !== undefined && syncByKind.has(owner.kind)) this.markDirty(key(owner.kind, o.metadata?.namespace ?? 'default', owner.name));
    }
    if (this.workloads && event.type === 'DELETED' && event.kind !== 'Node' && o.metadata?.uid !== undefined) {
      this.deletedOwners.add(o.metadata.uid);
      this.schedule();
    }
  }

  /** Resolves once the controllers have reacted to every change made so far (simulations await it before scheduling). */
  async settled(): Promise<void> {
    for (let i = 0; i < maxPassesPerRound && this.scheduled; i++) await Promise.resolve();
  }

  private markDirty(k: string): void {
    if (!this.workloads) return;
    this.dirty.add(k);
    this.schedule();
  }

  private markGroupDirty(k: string): void {
    if (!this.workloads) return;
    this.dirtyGroups.add(k);
    this.schedule();
  }

  /** One reconcile of each PodGroup a change concerned: its status written when it changes. */
  private reconcileGroups(): void {
    const due = this.dirtyGroups;
    this.dirtyGroups = new Set();
    for (const k of [...due].sort()) {
      const slash = k.indexOf('/');
      const pg = this.ctx.store.get<CoschedulingGroup>(coschedulingPodGroupKind, k.slice(0, slash), k.slice(slash + 1));
      if (pg === undefined) continue;
      const status = reconcileCoschedulingStatus(pg, this.podsByGroupLabel.get(pg.metadata?.name ?? ''));
      writeStatus(this.ctx, pg as unknown as Workload, status as Record<string, unknown>);
    }
  }

  private schedule(): void {
    if (this.scheduled || this.unsubscribe === null) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.runRound();
    });
  }

  /** Garbage collection, then the dirty workloads in kind order then creation order, until nothing is dirty. */
  private runRound(): void {
    for (let pass = 0; pass < maxPassesPerRound && (this.dirty.size > 0 || this.deletedOwners.size > 0 || this.dirtyGroups.size > 0); pass++) {
      if (this.deletedOwners.size > 0) {
        const uids = this.deletedOwners;
        this.deletedOwners = new Set();
        this.collectGarbage(uids);
      }
      if (this.dirtyGroups.size > 0) this.reconcileGroups();
      const dirty = this.dirty;
      this.dirty = new Set();
      for (const [kind, sync] of controllers) {
        const due: Workload[] = [];
        for (const k of dirty) {
          if (!k.startsWith(`${kind}/`)) continue;
          const [, ns, name] = k.split('/') as [string, string, string];
          const w = this.ctx.store.get<Workload>(kind, ns, name);
          if (w !== undefined) due.push(w);
        }
        for (const w of due.sort(byCreation)) {
          try {
            sync(this.ctx, w);
          } catch (err) {
            // A write the store refused (a name taken by an object this workload does not own):
            // as a controller's failed sync, it is retried on the workload's next change.
            if (!(err instanceof ApiError)) throw err;
          }
        }
      }
    }
  }

  /** Deletes the ReplicaSets and pods whose controller is gone (background propagation). */
  private collectGarbage(uids: ReadonlySet<string>): void {
    for (const rs of this.ctx.store.list<Workload>('ReplicaSet')) {
      const owner = controllerUid(rs);
      if (owner !== undefined && uids.has(owner)) this.ctx.store.remove('ReplicaSet', rs.metadata.namespace ?? 'default', rs.metadata.name ?? '');
    }
    for (const uid of uids) {
      for (const p of [...(this.podsByOwner.get(uid)?.values() ?? [])]) this.ctx.store.remove('Pod', p.metadata.namespace ?? 'default', p.metadata.name ?? '');
    }
  }
}

export { runDurationAnnotation } from './pod_lifetime.js';
