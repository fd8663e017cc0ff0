// The pod fields kube-apiserver drops on create while their feature gate is off at its v1.37
// default (pkg/api/pod/util.go dropDisabledFields): only those the scheduler reads.
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
