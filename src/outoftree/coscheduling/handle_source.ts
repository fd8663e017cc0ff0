// Coscheduling's PodGroups and member pods read from the scheduler's informers through the
// plugin contract (scheduler-plugins: the scheduling.x-k8s.io PodGroup informer and the pod
// informer's lister), in every mode: scenarios, the embedded API server and `run`.
import type { Handle, KubeObject, Pod } from '../../plugin.js';
import type { CoschedulingSource } from './manager.js';
import { PodGroupLabel, type CoschedulingPodGroup } from './types.js';

/** The kinds table's key of scheduler-plugins' PodGroup (group-qualified: scheduling.k8s.io has a PodGroup too). */
export const PodGroupKind = 'PodGroup.scheduling.x-k8s.io';

/** PodGroups and pods as the Handle's object lister holds them: pods not finished, scheduled or not. */
export function handleSource(handle: Handle): CoschedulingSource {
  const objects = handle.objects();
  return {
    podGroup: (namespace, name) => objects.get<KubeObject>(PodGroupKind, namespace, name) as CoschedulingPodGroup | undefined,
    memberPods: (namespace, name) => objects.list<Pod>('Pod', namespace).filter((p) => p.metadata.labels?.[PodGroupLabel] === name),
  };
}
