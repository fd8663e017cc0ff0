// The pod fields kube-apiserver drops on create while their feature gate is off at its v1.37
// default (pkg/api/pod/util.go dropDisabledFields): only those the scheduler reads; and the
// PodGroup's and Workload's fields of the workload gates that are off.
import type { PodGroup, PodGroupTemplate, Workload } from '../scheduling.js';
import type { Container, Pod } from '../types.js';

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

/**
 * The Workload strategy's PrepareForCreate / PrepareForUpdate (pkg/registry/scheduling/workload/
 * strategy.go dropDisabledWorkloadFields): each pod group template loses the fields of gates that
 * are off unless the stored template at the same index uses them. The input is not changed.
 */
export function dropDisabledWorkloadFields(w: Workload, gates: PodGroupFieldGates, old?: Workload): Workload {
  const oldTemplates = old?.spec.podGroupTemplates ?? [];
  const templates = w.spec.podGroupTemplates;
  if (!Array.isArray(templates)) return w;
  return {
    ...w,
    spec: {
      ...w.spec,
      podGroupTemplates: templates.map((t, i) => {
        const next: PodGroupTemplate = { ...t };
        dropGroupFields(next, oldTemplates[i], gates);
        return next;
      }),
    },
  };
}
