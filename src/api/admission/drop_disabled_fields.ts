// The pod fields kube-apiserver drops on create while their feature gate is off at its v1.37
// default (pkg/api/pod/util.go dropDisabledFields): only those the scheduler reads; and the
// PodGroup's and Workload's fields of the workload gates that are off.
import type { CompositePodGroup, CompositePodGroupTemplate, PodGroup, PodGroupTemplate, Workload } from '../scheduling.js';
import type { Container, KubeObject, Pod } from '../types.js';

function hasBindMountOptions(containers: readonly Container[] | undefined): boolean {
  return (containers ?? []).some((c) => (c.volumeMounts ?? []).some((m) => m.bindMountOptions !== undefined));
}

function withoutBindMountOptions(containers: Container[] | undefined): Container[] | undefined {
  if (containers === undefined) return undefined;
  return containers.map((c) => c.volumeMounts === undefined ? c : { ...c, volumeMounts: c.volumeMounts.map(({ bindMountOptions: _dropped, ...m }) => m) });
}

/**
 * Returns `pod` without `volumeMounts[].bindMountOptions` (VolumeBindMountOptions, alpha, off),
 * which NodeDeclaredFeatures would otherwise require nodes to declare. The input is not changed.
 */
export function dropDisabledPodFields(pod: Pod): Pod {
  const spec = pod.spec;
  const ephemeral = spec.ephemeralContainers as Container[] | undefined;
  if (!hasBindMountOptions(spec.containers) && !hasBindMountOptions(spec.initContainers) && !hasBindMountOptions(ephemeral)) return pod;
  const out: Pod['spec'] = { ...spec, containers: withoutBindMountOptions(spec.containers)! };
  if (spec.initContainers !== undefined) out.initContainers = withoutBindMountOptions(spec.initContainers);
  if (ephemeral !== undefined) out.ephemeralContainers = withoutBindMountOptions(ephemeral) as Pod['spec']['ephemeralContainers'];
  return { ...pod, spec: out };
}

/** The gates whose fields the PodGroup and Workload strategies drop while they are off. */
export interface PodGroupFieldGates {
  readonly topologyAwareWorkloadScheduling: boolean;
  readonly draWorkloadResourceClaims: boolean;
  readonly podGroupPreemptionPolicy: boolean;
  readonly compositePodGroup: boolean;
}

type GroupFields = Pick<PodGroup['spec'], 'schedulingConstraints' | 'resourceClaims' | 'preemptionPolicy'>;

/**
 * Deletes from `next` (a fresh copy) the gated fields of a group spec or template, except those
 * `old` already uses: an update keeps what was stored before the gate went off.
 */
function dropGroupFields(next: GroupFields, old: GroupFields | undefined, gates: PodGroupFieldGates): void {
  if (!gates.topologyAwareWorkloadScheduling && old?.schedulingConstraints === undefined) delete next.schedulingConstraints;
  if (!gates.draWorkloadResourceClaims && (old?.resourceClaims ?? []).length === 0) delete next.resourceClaims;
  if (!gates.podGroupPreemptionPolicy && old?.preemptionPolicy === undefined) delete next.preemptionPolicy;
}

/**
 * The PodGroup strategy's PrepareForCreate / PrepareForUpdate (pkg/registry/scheduling/podgroup/
 * strategy.go dropDisabledPodGroupFields): the group loses the fields of gates that are off,
 * unless the stored `old` group already uses them, before validation sees them. The input is not
 * changed.
 */
export function dropDisabledPodGroupFields(pg: PodGroup, gates: PodGroupFieldGates, old?: PodGroup): PodGroup {
  const spec: PodGroup['spec'] = { ...pg.spec };
  dropGroupFields(spec, old?.spec, gates);
  if (!gates.compositePodGroup && old?.spec.parentCompositePodGroupName === undefined) delete spec.parentCompositePodGroupName;
  const out: PodGroup = { ...pg, spec };
  if (pg.status?.resourceClaimStatuses !== undefined) {
    const status = dropDisabledPodGroupStatusFields(pg.status, gates, old);
    if (status !== pg.status) out.status = status;
  }
  return out;
}

/**
 * The PodGroup status strategy's PrepareForUpdate (dropDisabledPodGroupStatusFields): the claim
 * statuses go with the claims while DRAWorkloadResourceClaims is off and the stored group has none.
 * Returns `status` itself when nothing is dropped.
 */
export function dropDisabledPodGroupStatusFields(status: NonNullable<PodGroup['status']>, gates: PodGroupFieldGates, old?: PodGroup): NonNullable<PodGroup['status']> {
  if (gates.draWorkloadResourceClaims || (old?.spec.resourceClaims ?? []).length > 0 || status.resourceClaimStatuses === undefined) return status;
  const { resourceClaimStatuses: _dropped, ...rest } = status;
  return rest;
}

/** Each pod group template (matched to the stored one at the same index) loses the fields of gates that are off. */
function dropTemplateFields(templates: readonly PodGroupTemplate[], oldTemplates: readonly PodGroupTemplate[], gates: PodGroupFieldGates): PodGroupTemplate[] {
  return templates.map((t, i) => {
    const next: PodGroupTemplate = { ...t };
    dropGroupFields(next, oldTemplates[i], gates);
    return next;
  });
}

/**
 * dropDisabledCompositePodGroupTemplatesFields: composite templates (matched to the stored ones
 * by name) lose preemptionPolicy with its gate, and their composite children while
 * CompositePodGroup is off; their pod group templates as dropTemplateFields says.
 */
function dropCompositeTemplateFields(templates: readonly CompositePodGroupTemplate[], oldTemplates: readonly CompositePodGroupTemplate[],
  gates: PodGroupFieldGates): CompositePodGroupTemplate[] {
  const oldByName = new Map(oldTemplates.map((t) => [t.name, t]));
  return templates.map((t) => {
    const old = oldByName.get(t.name);
    const next: CompositePodGroupTemplate = { ...t };
    if (!gates.podGroupPreemptionPolicy && old?.preemptionPolicy === undefined) delete next.preemptionPolicy;
    if (next.compositePodGroupTemplates !== undefined) {
      if (!gates.compositePodGroup && (old?.compositePodGroupTemplates ?? []).length === 0) delete next.compositePodGroupTemplates;
      else next.compositePodGroupTemplates = dropCompositeTemplateFields(next.compositePodGroupTemplates, old?.compositePodGroupTemplates ?? [], gates);
    }
    if (next.podGroupTemplates !== undefined) next.podGroupTemplates = dropTemplateFields(next.podGroupTemplates, old?.podGroupTemplates ?? [], gates);
    return next;
  });
}

/**
 * The Workload strategy's PrepareForCreate / PrepareForUpdate (pkg/registry/scheduling/workload/
 * strategy.go dropDisabledWorkloadFields): each pod group template loses the fields of gates that
 * are off unless the stored template at the same index uses them; the composite templates go
 * while CompositePodGroup is off unless the stored Workload has some. The input is not changed.
 */
export function dropDisabledWorkloadFields(w: Workload, gates: PodGroupFieldGates, old?: Workload): Workload {
  if (w.spec === null || typeof w.spec !== 'object') return w;
  const spec: Workload['spec'] = { ...w.spec };
  if (Array.isArray(spec.podGroupTemplates)) spec.podGroupTemplates = dropTemplateFields(spec.podGroupTemplates, old?.spec.podGroupTemplates ?? [], gates);
  if (spec.compositePodGroupTemplates !== undefined) {
    if (!gates.compositePodGroup && (old?.spec.compositePodGroupTemplates ?? []).length === 0) delete spec.compositePodGroupTemplates;
    else if (Array.isArray(spec.compositePodGroupTemplates)) {
      spec.compositePodGroupTemplates = dropCompositeTemplateFields(spec.compositePodGroupTemplates, old?.spec.compositePodGroupTemplates ?? [], gates);
    }
  }
  return { ...w, spec };
}

/**
 * The CompositePodGroup strategy's PrepareForCreate / PrepareForUpdate (pkg/registry/scheduling/
 * compositepodgroup/strategy.go): preemptionPolicy goes while PodGroupPreemptionPolicy is off,
 * unless the stored group has one. The input is not changed.
 */
export function dropDisabledCompositePodGroupFields(cpg: CompositePodGroup, gates: PodGroupFieldGates, old?: CompositePodGroup): CompositePodGroup {
  if (gates.podGroupPreemptionPolicy || old?.spec.preemptionPolicy !== undefined || cpg.spec?.preemptionPolicy === undefined) return cpg;
  const { preemptionPolicy: _dropped, ...spec } = cpg.spec;
  return { ...cpg, spec };
}

/**
 * The scheduling kinds' strategies by kind key, the one dispatch every writer goes through:
 * `obj` without the fields of gates that are off, except those the stored `old` uses. A
 * PodGroup's `status` subresource drops only the claim statuses; the other kinds have no
 * strategy for a subresource. Other kinds, and objects whose spec is not an object (validation
 * names that), come back as they are.
 */
export function dropDisabledFields(kindKey: string, obj: KubeObject, gates: PodGroupFieldGates, old?: KubeObject, subresource = ''): KubeObject {
  const spec = (obj as { spec?: unknown }).spec;
  if (typeof spec !== 'object' || spec === null) return obj;
  switch (kindKey) {
    case 'PodGroup': {
      const prev = old as PodGroup | undefined;
      if (subresource !== 'status') return dropDisabledPodGroupFields(obj as PodGroup, gates, prev);
      const status = (obj as PodGroup).status;
      return status === undefined || prev === undefined ? obj : { ...obj, status: dropDisabledPodGroupStatusFields(status, gates, prev) } as PodGroup;
    }
    case 'CompositePodGroup':
      return subresource === '' ? dropDisabledCompositePodGroupFields(obj as CompositePodGroup, gates, old as CompositePodGroup | undefined) : obj;
    case 'Workload':
      return subresource === '' ? dropDisabledWorkloadFields(obj as unknown as Workload, gates, old as unknown as Workload | undefined) as unknown as KubeObject : obj;
    default:
      return obj;
  }
}
