// The resourceclaim controller of the embedded cluster, as kube-controller-manager's
// (pkg/controller/resourceclaim/controller.go): claims from templates for a pod's entries, the
// pod's status.resourceClaimStatuses, reservations of bound pods, release of claims when pods go;
// with DRAWorkloadResourceClaims, claims from templates for a PodGroup's entries, recorded in the
// group's status and shared by the members whose entries match the group's.
import type { PodGroup } from '../../api/scheduling.js';
import type { KubeObject, Pod, PodResourceClaimStatus } from '../../api/types.js';
import { bindTo, ClaimFinalizer, claimIsNotForPod, type ClaimName, claimIsNotForPodGroup, isPodGroupReference, podClaimName, podGroupClaimName, isReservedForPod as isReservedForPodOrGroup, SchedulingGroup } from '../../api/resourceclaim.js';
import type { PodResourceClaim, ResourceClaim, ResourceClaimConsumerReference, ResourceClaimStatus, ResourceClaimTemplate } from '../../api/dra_types.js';
import type { Clock } from '../../util/clock.js';
import { ApiError, type ClusterEventRecord } from '../types.js';
import type { VersionedEvent } from './versioned_event.js';

/** The annotation naming the pod entry a generated claim was made for (resourceapi.PodResourceClaimAnnotation). */
export const PodResourceClaimAnnotation = 'resource.kubernetes.io/pod-claim-name';
/** At most this many consumers may reserve one claim (resourceapi.ResourceClaimReservedForMaxSize). */
const ResourceClaimReservedForMaxSize = 256;

/** The store operations the controller uses (MemoryCluster's). */
export interface ResourceClaimControllerStore {
  list<T extends KubeObject>(kind: string): T[];
  get<T extends KubeObject>(kind: string, namespace: string, name: string): T | undefined;
  update<T extends KubeObject>(obj: T): T;
  /** Sets a stored pod's status.resourceClaimStatuses (the controller's status apply). */
  setPodResourceClaimStatuses(pod: Pod, statuses: PodResourceClaimStatus[]): Pod;
  subscribe(handler: (e: VersionedEvent) => void): () => void;
  createResourceClaim(claim: ResourceClaim): Promise<ResourceClaim>;
  /** The status write without the faults tests arm for the scheduler's writes. */
  writeResourceClaimStatus(claim: ResourceClaim): ResourceClaim;
  updateResourceClaim(claim: ResourceClaim): Promise<ResourceClaim>;
  deleteResourceClaim(namespace: string, name: string): Promise<void>;
  recordEvent(e: ClusterEventRecord): void;
  /** GenericWorkload and DRAWorkloadResourceClaims, as the controller manager's gates. */
  readonly gates: { readonly genericWorkload?: boolean; readonly draWorkloadResourceClaims?: boolean };
}

/** How many deleted pods the controller remembers. */
const deletedPodsRemembered = 10_000;

const key = (namespace: string | undefined, name: string | undefined): string => `${namespace ?? 'default'}/${name ?? ''}`;

/** None of the pod's containers runs or will run again (isPodDone). */
function isPodDone(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || (!!pod.metadata.deletionTimestamp && !pod.spec.nodeName);
}

/** The pod that owns (controls) a generated claim, if any. */
function owningPod(claim: ResourceClaim): { name: string; uid: string } | undefined {
  for (const o of claim.metadata.ownerReferences ?? []) {
    if (o.apiVersion === 'v1' && o.kind === 'Pod' && o.controller) return { name: o.name, uid: o.uid };
  }
  return undefined;
}

/** The PodGroup that owns (controls) a generated claim, if any (claimPodGroupOwnerIndexFunc). */
function owningPodGroup(claim: ResourceClaim): { name: string; uid: string } | undefined {
  for (const o of claim.metadata.ownerReferences ?? []) {
    if (o.apiVersion.startsWith(`${SchedulingGroup}/`) && o.kind === 'PodGroup' && o.controller) return { name: o.name, uid: o.uid };
  }
  return undefined;
}

/** The PodGroup a pod names, as "namespace/name"; undefined outside any group. */
const groupKeyOf = (pod: Pod): string | undefined => {
  const name = pod.spec.schedulingGroup?.podGroupName;
  return name === undefined ? undefined : key(pod.metadata.namespace, name);
};

/**
 * Works like the real controller on the store's changes: once per microtask after pods, claims or
 * templates change, it syncs the pods and claims those changes touch, in the order they changed,
 * so runs are deterministic and follow the writes that caused them.
 */
export class ResourceClaimController {
  private readonly dirtyPods = new Set<string>();
  private readonly dirtyClaims = new Set<string>();
  private readonly dirtyGroups = new Set<string>();
  /** The members with claims of each PodGroup ("namespace/name"), so a group's change finds them without a scan. */
  private readonly podsByGroup = new Map<string, Set<string>>();
  /** UIDs of recently deleted PodGroups: their reservations go without asking the store. */
  private readonly deletedGroups = new Set<string>();
  /** The pods naming each claim ("namespace/name"), so a claim's change finds its pods without a scan. */
  private readonly podsByClaim = new Map<string, Set<string>>();
  /** The generated claims of each pod UID, so a pod's end finds its claims without a scan. */
  private readonly claimsByOwner = new Map<string, Set<string>>();
  /** UIDs of recently deleted pods: their reservations go without asking the store (deletedObjects, an LRU upstream). */
  private readonly deletedPods = new Set<string>();
  private scheduled = false;
  private running: Promise<void> = Promise.resolve();
  private started = false;

  constructor(
    private readonly store: ResourceClaimControllerStore,
    private readonly clock: Clock,
  ) {}

  /** Watches the store from now on, for the life of the store. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.store.subscribe((e) => this.onChange(e));
  }

  /**
   * Resolves once the work the changes so far caused is done, including what that work caused in
   * turn (at most 100 rounds): for callers that act on a pod right after creating it (explain).
   */
  async idle(): Promise<void> {
    for (let i = 0; i < 100 && (this.scheduled || this.dirtyPods.size > 0 || this.dirtyClaims.size > 0 || this.dirtyGroups.size > 0); i++) {
      await Promise.resolve();
      await this.running;
    }
  }

  private onChange(ve: VersionedEvent): void {
    const e = ve.event;
    switch (e.kind) {
      case 'Pod':
        this.onPod(e.object as Pod, e.type === 'DELETED');
        break;
      case 'ResourceClaim':
        this.onClaim(e.object as ResourceClaim, e.type === 'DELETED');
        break;
      case 'ResourceClaimTemplate':
        if (e.type !== 'DELETED') this.onTemplate(e.object as ResourceClaimTemplate);
        break;
      case 'PodGroup':
        this.onPodGroup(e.object as PodGroup, e.type === 'DELETED');
        break;
      default:
        return;
    }
    // Most changes (pods without claims) leave nothing to do: no pass for them.
    if (this.dirtyPods.size > 0 || this.dirtyClaims.size > 0 || this.dirtyGroups.size > 0) this.schedule();
  }

  private get workloadClaims(): boolean {
    return this.store.gates.draWorkloadResourceClaims === true;
  }

  /**
   * enqueuePodGroup: a group with claims gets them made; a deleted one releases its reservations
   * and its generated claims; its members are looked at again (the group's status names claims).
   */
  private onPodGroup(pg: PodGroup, deleted: boolean): void {
    const groupKey = key(pg.metadata.namespace, pg.metadata.name);
    const claims = pg.spec.resourceClaims ?? [];
    if (deleted) {
      this.deletedGroups.add(pg.metadata.uid ?? '');
      if (this.deletedGroups.size > deletedPodsRemembered) this.deletedGroups.delete(this.deletedGroups.values().next().value!);
      for (const entry of claims) {
        const n = podGroupClaimName(pg, entry);
        if (typeof n !== 'string' && n.name) this.dirtyClaims.add(key(pg.metadata.namespace, n.name));
      }
      for (const k of this.claimsByOwner.get(pg.metadata.uid ?? '') ?? []) this.dirtyClaims.add(k);
    } else if (claims.length > 0 && this.workloadClaims && !pg.metadata.deletionTimestamp) {
      this.dirtyGroups.add(groupKey);
    }
    for (const p of this.podsByGroup.get(groupKey) ?? []) this.dirtyPods.add(p);
  }

  /** enqueuePod: a pod that will not run releases its claims; one that may run gets its claims made and reserved. */
  private onPod(pod: Pod, deleted: boolean): void {
    // The claim the scheduler made for the pod's extended resources goes with the pod too.
    const extendedClaim = pod.status?.extendedResourceClaimStatus?.resourceClaimName;
    if ((pod.spec.resourceClaims?.length ?? 0) === 0 && !extendedClaim) return;
    const podKey = key(pod.metadata.namespace, pod.metadata.name);
    const claimKeys: string[] = [];
    for (const entry of pod.spec.resourceClaims ?? []) {
      const n = podClaimName(pod, entry);
      if (typeof n !== 'string' && n.name) claimKeys.push(key(pod.metadata.namespace, n.name));
    }
    if (extendedClaim) claimKeys.push(key(pod.metadata.namespace, extendedClaim));
    const groupKey = groupKeyOf(pod);
    if (groupKey !== undefined && (pod.spec.resourceClaims?.length ?? 0) > 0) {
      indexSet(this.podsByGroup, groupKey, podKey, deleted);
    }
    for (const k of claimKeys) indexSet(this.podsByClaim, k, podKey, deleted);
    if (deleted) {
      this.deletedPods.add(pod.metadata.uid ?? '');
      if (this.deletedPods.size > deletedPodsRemembered) this.deletedPods.delete(this.deletedPods.values().next().value!);
    }
    if (deleted || isPodDone(pod)) {
      for (const k of claimKeys) this.dirtyClaims.add(k);
      // Generated claims are deleted with their pod, as the garbage collector would.
      for (const k of this.claimsByOwner.get(pod.metadata.uid ?? '') ?? []) this.dirtyClaims.add(k);
    }
    if (!deleted && !pod.metadata.deletionTimestamp) this.dirtyPods.add(podKey);
  }

  /** enqueueResourceClaim: the claim itself, and the pods that use it (a deleted generated claim is made again). */
  private onClaim(claim: ResourceClaim, deleted: boolean): void {
    const claimKey = key(claim.metadata.namespace, claim.metadata.name);
    const groupOwner = owningPodGroup(claim);
    // A group's generated claim that is deleted is made again (enqueueResourceClaim).
    if (groupOwner !== undefined && deleted && this.workloadClaims) this.dirtyGroups.add(key(claim.metadata.namespace, groupOwner.name));
    const owner = (owningPod(claim) ?? groupOwner)?.uid;
    if (owner !== undefined) indexSet(this.claimsByOwner, owner, claimKey, deleted);
    if (!deleted) this.dirtyClaims.add(claimKey);
    for (const p of this.podsByClaim.get(claimKey) ?? []) this.dirtyPods.add(p);
  }

  /** enqueueResourceClaimTemplate: pods and PodGroups waiting for the template. */
  private onTemplate(t: ResourceClaimTemplate): void {
    for (const p of this.store.list<Pod>('Pod')) {
      if (p.metadata.namespace !== t.metadata.namespace) continue;
      if ((p.spec.resourceClaims ?? []).some((entry) => entry.resourceClaimTemplateName === t.metadata.name)) this.dirtyPods.add(key(p.metadata.namespace, p.metadata.name));
    }
    if (!this.workloadClaims) return;
    for (const pg of this.store.list<PodGroup>('PodGroup')) {
      if (pg.metadata.namespace !== t.metadata.namespace) continue;
      if ((pg.spec.resourceClaims ?? []).some((entry) => entry.resourceClaimTemplateName === t.metadata.name)) this.dirtyGroups.add(key(pg.metadata.namespace, pg.metadata.name));
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      // Passes run one after another; an error that is not the store refusing a write is a bug
      // and surfaces as an uncaught exception, as the PV controller's do.
      this.running = this.running.then(() => this.sync()).catch((err: unknown) => queueMicrotask(() => {
        throw err;
      }));
    });
  }

  /** One pass: the dirty groups, pods, then claims, each in the order it became dirty. */
  private async sync(): Promise<void> {
    const groups = [...this.dirtyGroups];
    this.dirtyGroups.clear();
    for (const k of groups) await this.guarded(() => this.syncPodGroup(k));
    const pods = [...this.dirtyPods];
    this.dirtyPods.clear();
    for (const k of pods) await this.guarded(() => this.syncPod(k));
    const claims = [...this.dirtyClaims];
    this.dirtyClaims.clear();
    for (const k of claims) await this.guarded(() => this.syncClaim(k));
  }

  /** A write the store refuses (a conflict, a vanished object) waits for the next change, as a requeue would. */
  private async guarded(fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }

  private splitKey(k: string): [string, string] {
    const i = k.indexOf('/');
    return [k.slice(0, i), k.slice(i + 1)];
  }

  /** syncPod: generate missing claims and record them in the pod's status; reserve claims for a bound pod. */
  private async syncPod(k: string): Promise<void> {
    const [ns, name] = this.splitKey(k);
    const pod = this.store.get<Pod>('Pod', ns, name);
    if (!pod || pod.metadata.deletionTimestamp || isPodDone(pod)) return;
    const generated = await this.generateClaims('Pod', pod, pod.spec.resourceClaims, (entry) => this.handleClaim(pod, entry));
    if (generated === null) return;
    let current = pod;
    if (generated.size > 0) current = this.recordGenerated(pod, generated);
    if (!current.spec.nodeName) return;
    for (const entry of current.spec.resourceClaims ?? []) {
      const n = podClaimName(current, entry);
      if (typeof n === 'string' || !n.name) continue;
      const claim = this.store.get<ResourceClaim>('ResourceClaim', ns, n.name);
      if (!claim || (n.mustCheckOwner && claimIsNotForPod(current, claim, this.workloadClaims) !== null)) continue;
      if (claim.status?.allocation && !this.isReservedForPod(current, claim) && (claim.status.reservedFor?.length ?? 0) < ResourceClaimReservedForMaxSize) {
        const ref: ResourceClaimConsumerReference = { resource: 'pods', name: current.metadata.name ?? '', uid: current.metadata.uid ?? '' };
        this.store.writeResourceClaimStatus({ ...claim, status: { ...claim.status, reservedFor: [...(claim.status.reservedFor ?? []), ref] } });
      }
    }
  }

  /**
   * An entry needs no claim made when its template intentionally made none, or when the claim
   * recorded for it exists and, if generated, belongs to the owner (`isOwners`).
   */
  private needsNoClaim(ns: string, recorded: ClaimName | string, isOwners: (claim: ResourceClaim) => boolean): boolean {
    if (typeof recorded === 'string') return false;
    if (recorded.name === null) return true;
    const existing = this.store.get<ResourceClaim>('ResourceClaim', ns, recorded.name);
    return existing !== undefined && (!recorded.mustCheckOwner || isOwners(existing));
  }

  /**
   * handleClaim: the name of the claim generated now (or found orphaned) for a template entry,
   * or null when there is nothing to record; throws when the template is missing.
   */
  private async handleClaim(pod: Pod, entry: PodResourceClaim): Promise<string | null> {
    const ns = pod.metadata.namespace ?? 'default';
    if (this.needsNoClaim(ns, podClaimName(pod, entry), (claim) => claimIsNotForPod(pod, claim, this.workloadClaims) === null)) return null;
    if (entry.resourceClaimTemplateName === undefined) return null;
    // A member's entry the group lists too uses the group's claim, made by syncPodGroup.
    const bound = bindTo(pod, this.podGroupOf(pod), entry);
    if (typeof bound === 'string') throw new Error(bound);
    if (isPodGroupReference(bound)) {
      if (!this.workloadClaims) throw new Error(`claim ${entry.name} is a PodGroup claim but the DRAWorkloadResourceClaims feature is disabled`);
      return this.findPodGroupClaim(ns, bound.uid, entry.name)?.metadata.name ?? null;
    }
    // A claim made for this entry but not recorded yet (findPodResourceClaim).
    for (const k of this.claimsByOwner.get(pod.metadata.uid ?? '') ?? []) {
      const [cns, cname] = this.splitKey(k);
      const c = this.store.get<ResourceClaim>('ResourceClaim', cns, cname);
      if (c && c.metadata.annotations?.[PodResourceClaimAnnotation] === entry.name) return c.metadata.name ?? null;
    }
    const podName = pod.metadata.name ?? '';
    const owner = { apiVersion: 'v1', kind: 'Pod', name: podName, uid: pod.metadata.uid ?? '', controller: true };
    const claim = this.claimFromTemplate(ns, entry, generateNameFor(podName, entry.name), owner);
    const created = await this.store.createResourceClaim(claim);
    return created.metadata.name ?? null;
  }

  /**
   * The pod's PodGroup (getPodGroup): null outside a group; throws while the group is missing.
   * With GenericWorkload off the pod counts as outside any group: kube-apiserver would have
   * dropped its schedulingGroup, which our admission keeps.
   */
  private podGroupOf(pod: Pod): PodGroup | null {
    const name = pod.spec.schedulingGroup?.podGroupName;
    if (name === undefined || this.store.gates.genericWorkload !== true) return null;
    const pg = this.store.get<PodGroup>('PodGroup', pod.metadata.namespace ?? 'default', name);
    if (pg === undefined) throw new Error(`podgroup.scheduling.k8s.io ${JSON.stringify(name)} not found`);
    return pg;
  }

  /** resourceclaim.IsReservedForPod with the group's reservation counting when DRAWorkloadResourceClaims is on. */
  private isReservedForPod(pod: Pod, claim: ResourceClaim): boolean {
    return isReservedForPodOrGroup(pod, claim, this.workloadClaims);
  }

  /** The claim generated for the group's entry, by owner UID and annotation (findPodGroupResourceClaim). */
  private findPodGroupClaim(ns: string, groupUID: string, entryName: string): ResourceClaim | undefined {
    for (const k of this.claimsByOwner.get(groupUID) ?? []) {
      const [cns, cname] = this.splitKey(k);
      if (cns !== ns) continue;
      const c = this.store.get<ResourceClaim>('ResourceClaim', cns, cname);
      if (c && c.metadata.annotations?.[PodResourceClaimAnnotation] === entryName) return c;
    }
    return undefined;
  }

  /** syncPodGroup: generate the group's missing claims and record them in its status. */
  private async syncPodGroup(k: string): Promise<void> {
    const [ns, name] = this.splitKey(k);
    const pg = this.store.get<PodGroup>('PodGroup', ns, name);
    if (!pg || pg.metadata.deletionTimestamp) return;
    const generated = await this.generateClaims('PodGroup', pg, pg.spec.resourceClaims, (entry) => this.handlePodGroupClaim(pg, entry));
    if (generated === null || generated.size === 0) return;
    const current = this.store.get<PodGroup>('PodGroup', ns, name) ?? pg;
    this.store.update<PodGroup>({ ...current, status: { ...current.status, resourceClaimStatuses: mergedClaimStatuses(current.status?.resourceClaimStatuses, generated) } });
  }

  /**
   * Runs `handle` for each entry of a pod or PodGroup: the claims made or found, by entry name;
   * null after the first failure, recorded as a FailedResourceClaimCreation event on the object.
   */
  private async generateClaims(
    kind: 'Pod' | 'PodGroup',
    obj: Pod | PodGroup,
    entries: readonly PodResourceClaim[] | undefined,
    handle: (entry: PodResourceClaim) => Promise<string | null>,
  ): Promise<Map<string, string> | null> {
    const generated = new Map<string, string>();
    for (const entry of entries ?? []) {
      try {
        const claimName = await handle(entry);
        if (claimName !== null) generated.set(entry.name, claimName);
      } catch (err) {
        const m = obj.metadata;
        this.store.recordEvent({
          regarding: { kind, namespace: m.namespace ?? 'default', name: m.name ?? '', uid: m.uid },
          type: 'Warning',
          reason: 'FailedResourceClaimCreation',
          action: '',
          note: `${kind}ResourceClaim ${entry.name}: ${(err as Error).message}`,
          time: this.clock.now(),
        });
        return null;
      }
    }
    return generated;
  }

  /**
   * handlePodGroupClaim: the name of the claim generated now (or found orphaned) for a group's
   * template entry, or null when there is nothing to record; throws when the template is missing.
   */
  private async handlePodGroupClaim(pg: PodGroup, entry: PodResourceClaim): Promise<string | null> {
    const ns = pg.metadata.namespace ?? 'default';
    if (this.needsNoClaim(ns, podGroupClaimName(pg, entry), (claim) => claimIsNotForPodGroup(pg, claim) === null)) return null;
    if (entry.resourceClaimTemplateName === undefined) return null;
    const orphan = this.findPodGroupClaim(ns, pg.metadata.uid ?? '', entry.name);
    if (orphan) return orphan.metadata.name ?? null;
    const groupName = pg.metadata.name ?? '';
    const owner = { apiVersion: pg.apiVersion ?? `${SchedulingGroup}/v1beta1`, kind: 'PodGroup', name: groupName, uid: pg.metadata.uid ?? '', controller: true };
    const created = await this.store.createResourceClaim(this.claimFromTemplate(ns, entry, generateNameFor(groupName, entry.name), owner));
    return created.metadata.name ?? null;
  }

  /** A claim from the entry's template, owned by `owner`; throws when the template is missing. */
  private claimFromTemplate(ns: string, entry: PodResourceClaim, generateName: string, owner: NonNullable<ResourceClaim['metadata']['ownerReferences']>[number]): ResourceClaim {
    const templateName = entry.resourceClaimTemplateName!;
    const template = this.store.get<ResourceClaimTemplate>('ResourceClaimTemplate', ns, templateName);
    if (!template) {
      throw new Error(`resource claim template ${JSON.stringify(templateName)}: resourceclaimtemplate.resource.k8s.io ${JSON.stringify(templateName)} not found`);
    }
    return {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: {
        namespace: ns,
        generateName,
        ownerReferences: [owner],
        annotations: { ...template.spec.metadata?.annotations, [PodResourceClaimAnnotation]: entry.name },
        ...(template.spec.metadata?.labels ? { labels: { ...template.spec.metadata.labels } } : {}),
      },
      spec: structuredClone(template.spec.spec),
    };
  }

  /** Merges the generated claims into status.resourceClaimStatuses, sorted by entry name (the controller's apply). */
  private recordGenerated(pod: Pod, generated: ReadonlyMap<string, string>): Pod {
    return this.store.setPodResourceClaimStatuses(pod, mergedClaimStatuses(pod.status?.resourceClaimStatuses, generated));
  }

  /**
   * syncClaim: drop reservations of pods that are gone or done, deallocate a claim no one reserves
   * any more (and drop its finalizer), delete a generated claim whose pod will not run.
   */
  private async syncClaim(k: string): Promise<void> {
    const [ns, name] = this.splitKey(k);
    let claim = this.store.get<ResourceClaim>('ResourceClaim', ns, name);
    if (!claim) return;
    const reservedFor = claim.status?.reservedFor ?? [];
    const remaining = reservedFor.filter((r) => !(r.resource === 'pods' && !r.apiGroup && this.podGone(ns, r)) && !(this.workloadClaims && isPodGroupReference(r) && this.podGroupGone(ns, r)));
    const hasFinalizer = (claim.metadata.finalizers ?? []).includes(ClaimFinalizer);
    if (remaining.length < reservedFor.length) {
      const { reservedFor: _old, allocation, ...rest } = claim.status ?? {};
      // The last consumer gone: the claim is deallocated so a later one may get other devices.
      const status: ResourceClaimStatus = remaining.length > 0 ? { ...rest, allocation, reservedFor: remaining } : hasFinalizer ? rest : { ...rest, allocation };
      if (status.allocation === undefined) delete status.allocation;
      claim = this.store.writeResourceClaimStatus({ ...claim, status });
      if (claim.status?.allocation === undefined) claim = await this.dropFinalizer(claim);
    } else if (hasFinalizer && claim.metadata.deletionTimestamp && remaining.length === 0) {
      if (claim.status?.allocation !== undefined) {
        const status = { ...claim.status };
        delete status.allocation;
        claim = this.store.writeResourceClaimStatus({ ...claim, status });
      }
      claim = await this.dropFinalizer(claim);
    }
    if (remaining.length > 0 || !this.store.get('ResourceClaim', ns, name)) return;
    const groupOwner = owningPodGroup(claim);
    if (groupOwner !== undefined) {
      // A group's claim goes with its group, as the garbage collector would.
      const pg = this.store.get<PodGroup>('PodGroup', ns, groupOwner.name);
      if ((!pg || pg.metadata.uid !== groupOwner.uid) && !claim.metadata.deletionTimestamp) await this.store.deleteResourceClaim(ns, name);
      return;
    }
    const owner = owningPod(claim);
    if (!owner) return;
    const pod = this.store.get<Pod>('Pod', ns, owner.name);
    // No garbage collector runs here: a claim whose pod is gone goes now.
    if ((!pod || pod.metadata.uid !== owner.uid || isPodDone(pod)) && !claim.metadata.deletionTimestamp) {
      await this.store.deleteResourceClaim(ns, name);
    }
  }

  private podGroupGone(ns: string, ref: ResourceClaimConsumerReference): boolean {
    if (this.deletedGroups.has(ref.uid)) return true;
    const pg = this.store.get<PodGroup>('PodGroup', ns, ref.name);
    return !pg || pg.metadata.uid !== ref.uid;
  }

  private podGone(ns: string, ref: ResourceClaimConsumerReference): boolean {
    if (this.deletedPods.has(ref.uid)) return true;
    const pod = this.store.get<Pod>('Pod', ns, ref.name);
    return !pod || pod.metadata.uid !== ref.uid || isPodDone(pod);
  }

  private async dropFinalizer(claim: ResourceClaim): Promise<ResourceClaim> {
    const finalizers = claim.metadata.finalizers ?? [];
    if (!finalizers.includes(ClaimFinalizer)) return claim;
    const rest = finalizers.filter((f) => f !== ClaimFinalizer);
    const { finalizers: _old, ...others } = claim.metadata;
    const metadata = rest.length > 0 ? { ...others, finalizers: rest } : others;
    return this.store.updateResourceClaim({ ...claim, metadata });
  }
}

/** Adds `value` to the set at `k`, or with `remove` takes it out (and the set once empty). */
function indexSet(index: Map<string, Set<string>>, k: string, value: string, remove: boolean): void {
  let set = index.get(k);
  if (remove) {
    set?.delete(value);
    if (set?.size === 0) index.delete(k);
    return;
  }
  if (!set) index.set(k, (set = new Set()));
  set.add(value);
}

/** The recorded claim statuses with the generated ones merged in, sorted by entry name (the controller's apply). */
function mergedClaimStatuses(recorded: readonly { name: string; resourceClaimName?: string }[] | undefined, generated: ReadonlyMap<string, string>): { name: string; resourceClaimName: string }[] {
  const merged = new Map<string, string>();
  for (const s of recorded ?? []) if (s.resourceClaimName !== undefined) merged.set(s.name, s.resourceClaimName);
  for (const [n, c] of generated) merged.set(n, c);
  return [...merged.keys()].sort().map((n) => ({ name: n, resourceClaimName: merged.get(n)! }));
}

/** `<pod>-<entry>-`, both parts shortened in proportion when longer than 57 characters (as upstream). */
export function generateNameFor(podName: string, entryName: string): string {
  const base = `${podName}-${entryName}-`;
  const maxBaseLen = 57;
  if (base.length <= maxBaseLen) return base;
  return `${podName.slice(0, Math.floor((podName.length * maxBaseLen) / base.length))}-${entryName.slice(0, Math.floor((entryName.length * maxBaseLen) / base.length))}`;
}
