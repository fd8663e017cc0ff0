// The features a node may declare and what a pod needs of them, as v1.37.2's registry infers
// them for scheduling (k8s.io/component-helpers nodedeclaredfeatures: features/registry.go,
// framework.go InferForPodScheduling, types.go TryMap). None has a MaxVersion, so the scheduler's
// version filters nothing out.
import type { Container, PodSpec, VolumeMount } from '../../api/types.js';

interface Feature {
  readonly name: string;
  /** Whether a pod with this spec may only run on nodes declaring the feature. */
  readonly inferForScheduling: (spec: PodSpec) => boolean;
}

const never = (): boolean => false;

function restartsAllContainers(containers: readonly Container[] | undefined): boolean {
  for (const c of containers ?? []) {
    for (const rule of c.restartPolicyRules ?? []) if (rule.action === 'RestartAllContainers') return true;
  }
  return false;
}

function hasBindMountOptions(containers: readonly { volumeMounts?: VolumeMount[] }[] | undefined): boolean {
  for (const c of containers ?? []) {
    for (const m of c.volumeMounts ?? []) if ((m.bindMountOptions?.length ?? 0) > 0) return true;
  }
  return false;
}

/**
 * Every registered feature, sorted by name as the framework sorts them: a feature's index is its
 * bit in a FeatureSet. Those that only pod updates (resizes) need never ask anything of a new pod.
 */
const registry: readonly Feature[] = [
  { name: 'DRANodeAllocatableResources', inferForScheduling: never },
  { name: 'DRAOptionalNodeOperations', inferForScheduling: never },
  { name: 'ExtendWebSocketsToKubelet', inferForScheduling: never },
  { name: 'InPlacePodLevelResourcesVerticalScaling', inferForScheduling: never },
  { name: 'InPlacePodVerticalScalingInitContainers', inferForScheduling: never },
  { name: 'InPlacePodVerticalScalingMemoryBackedVolumes', inferForScheduling: never },
  {
    name: 'RestartAllContainersOnContainerExits',
    inferForScheduling: (spec) => restartsAllContainers(spec.containers) || restartsAllContainers(spec.initContainers),
  },
  // Host network with user namespaces (hostUsers: false).
  { name: 'UserNamespacesHostNetworkSupport', inferForScheduling: (spec) => spec.hostNetwork === true && spec.hostUsers === false },
  {
    name: 'VolumeBindMountOptions',
    inferForScheduling: (spec) =>
      hasBindMountOptions(spec.containers) || hasBindMountOptions(spec.initContainers) ||
      hasBindMountOptions(spec.ephemeralContainers as { volumeMounts?: VolumeMount[] }[] | undefined),
  },
];

/** The registered features' names, sorted. */
export const registeredFeatures: readonly string[] = registry.map((f) => f.name);

/**
 * A set of registered features as a bitmask (bit i: registry[i]); the registry has far fewer
 * than 31 features, so one number holds any set.
 */
export type FeatureSet = number;

/** InferForPodScheduling: the features a pod with this spec requires of its node. */
export function inferForPodScheduling(spec: PodSpec): FeatureSet {
  let set = 0;
  for (let i = 0; i < registry.length; i++) if (registry[i]!.inferForScheduling(spec)) set |= 1 << i;
  return set;
}

/**
 * TryMap: the registered features among a node's declared ones, unknown names ignored. Both lists
 * are walked in step, as upstream does: the list is expected sorted (the API server insists), and
 * one out of order may hide a feature exactly as it does upstream.
 */
export function mapDeclaredFeatures(declared: readonly string[] | undefined): FeatureSet {
  if (declared === undefined || declared.length === 0) return 0;
  let set = 0;
  let i = 0;
  let j = 0;
  while (i < declared.length && j < registry.length) {
    const d = declared[i]!;
    const r = registry[j]!.name;
    if (d === r) {
      set |= 1 << j;
      i++;
      j++;
    } else if (d < r) {
      i++;
    } else {
      j++;
    }
  }
  return set;
}

/** The names of a set's features, sorted (FeatureMapper.Unmap). */
export function featureNames(set: FeatureSet): string[] {
  const out: string[] = [];
  for (let i = 0; i < registry.length; i++) if ((set & (1 << i)) !== 0) out.push(registry[i]!.name);
  return out;
}
