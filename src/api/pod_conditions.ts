// The generation a pod condition records (pkg/api/v1/pod/util.go CalculatePodConditionObservedGeneration,
// with PodObservedGenerationTracking, GA and locked on since v1.35).
import type { Pod, PodCondition } from './types.js';

/** `observedGeneration` for a condition written on `pod`: its generation, none when it has none. */
export function observedGenerationOf(pod: Pod): Pick<PodCondition, 'observedGeneration'> {
  const generation = pod.metadata.generation;
  return generation ? { observedGeneration: generation } : {};
}
