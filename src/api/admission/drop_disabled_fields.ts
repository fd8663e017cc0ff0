// The pod fields kube-apiserver drops on create while their feature gate is off at its v1.37
// default (pkg/api/pod/util.go dropDisabledFields): only those the scheduler reads; and a new
// PodGroup's fields of the workload gates that are off.
import type { PodGroup } from '../scheduling.js';
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

/** The gates whose fields the PodGroup strategy drops while they are off. */
interface PodGroupFieldGates {
  readonly topologyAwareWorkloadScheduling: boolean;
  readonly draWorkloadResourceClaims: boolean;
  readonly podGroupPreemptionPolicy: boolean;
  readonly compositePodGroup: boolean;
}

/**
 * The PodGroup strategy's PrepareForCreate (pkg/registry/scheduling/podgroup/strategy.go
 * dropDisabledPodGroupSpecFields): a new group loses the fields of gates that are off, before
 * validation sees them. The input is not changed.
 */
export function dropDisabledPodGroupFields(pg: PodGroup, gates: PodGroupFieldGates): PodGroup {
  const spec: PodGroup['spec'] = { ...pg.spec };
  if (!gates.topologyAwareWorkloadScheduling) delete spec.schedulingConstraints;
  if (!gates.draWorkloadResourceClaims) delete spec.resourceClaims;
  if (!gates.podGroupPreemptionPolicy) delete spec.preemptionPolicy;
  if (!gates.compositePodGroup) delete spec.parentCompositePodGroupName;
  const out: PodGroup = { ...pg, spec };
  // The status's claim statuses go with the claims (dropDisabledPodGroupStatusFields).
  if (!gates.draWorkloadResourceClaims && pg.status?.resourceClaimStatuses !== undefined) {
    const { resourceClaimStatuses: _dropped, ...status } = pg.status;
    out.status = status;
  }
  return out;
}
