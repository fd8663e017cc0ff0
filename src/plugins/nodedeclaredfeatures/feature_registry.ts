// The features a node may declare and what a pod needs of them, as v1.37.2's registry infers
// them for scheduling (k8s.io/component-helpers nodedeclaredfeatures: features/registry.go,
// framework.go InferForPodScheduling, types.go TryMap). None has a MaxVersion, so the scheduler's
// version filters nothing out.
import type { Container, PodSpec, VolumeMount } from '../../api/types.js';

export interface Feature {
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
 * v1.37.2's registered features. Those that only pod updates (resizes) need never ask anything of
 * a new pod.
 */
const builtIn: readonly Feature[] = [
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

/**
 * The features a pod needs, as their indexes in the registry, ascending; one shared empty array
 * for the many pods that need none.
 */
export type FeatureSet = readonly number[];

const none: FeatureSet = [];

/**
 * A feature registry (upstream's framework over features.AllFeatures), sorted by name as the
 * framework sorts it. Upstream's benchmark swaps AllFeatures for mock features; so does ours.
 */
export class FeatureRegistry {
  private readonly features: readonly Feature[];
  /** The registered features' names, sorted. */
  readonly names: readonly string[];

  constructor(features: readonly Feature[]) {
    this.features = [...features].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.names = this.features.map((f) => f.name);
  }

  /** InferForPodScheduling: the features a pod with this spec requires of its node. */
  inferForPodScheduling(spec: PodSpec): FeatureSet {
    let set: number[] | null = null;
    for (let i = 0; i < this.features.length; i++) {
      if (this.features[i]!.inferForScheduling(spec)) (set ??= []).push(i);
    }
    return set ?? none;
  }

  /**
   * Whether a node declaring `declared` has every feature of `required`: TryMap then a subset
   * check, in one walk without allocating. Both lists are walked in step, as upstream's TryMap
   * does: the list is expected sorted (the API server insists), and a name out of order may hide
   * a feature exactly as it does upstream.
   */
  satisfies(required: FeatureSet, declared: readonly string[] | undefined): boolean {
    if (required.length === 0) return true;
    if (declared === undefined) return false;
    let k = 0;
    let i = 0;
    let j = 0;
    while (i < declared.length && j < this.names.length) {
      const d = declared[i]!;
      const r = this.names[j]!;
      if (d === r) {
        if (required[k] === j && ++k === required.length) return true;
        i++;
        j++;
      } else if (d < r) {
        i++;
      } else {
        j++;
      }
    }
    return false;
  }

  /** The registered features among a node's declared ones (TryMap), walked as `satisfies` walks them. */
  mapDeclaredFeatures(declared: readonly string[] | undefined): FeatureSet {
    const all = this.names.map((_, i) => i);
    return all.filter((i) => this.satisfies([i], declared));
  }

  /** The names of a set's features, sorted (FeatureMapper.Unmap). */
  featureNames(set: FeatureSet): string[] {
    return set.map((i) => this.names[i]!);
  }
}

/** The pinned release's registry. */
export const defaultFeatureRegistry = new FeatureRegistry(builtIn);

/** Whether two sets hold the same features. */
export function sameFeatures(a: FeatureSet, b: FeatureSet): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
