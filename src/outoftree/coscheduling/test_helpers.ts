// What the Coscheduling tests share: PodGroups, queued pods and a source over fixed objects.
import type { Pod, QueuedPodInfo } from '../../plugin.js';
import { PodInfo } from '../../plugin.js';
import type { CoschedulingSource } from './manager.js';
import { PodGroupAPIVersion, podGroupLabel, type CoschedulingPodGroup } from './types.js';

export function makePodGroup(name: string, o: { namespace?: string; minMember?: number; minResources?: Record<string, string>; created?: string; scheduleTimeoutSeconds?: number } = {}): CoschedulingPodGroup {
  return {
    apiVersion: PodGroupAPIVersion,
    kind: 'PodGroup',
    metadata: { name, namespace: o.namespace ?? 'default', ...(o.created !== undefined ? { creationTimestamp: o.created } : {}) },
    spec: {
      ...(o.minMember !== undefined ? { minMember: o.minMember } : {}),
      ...(o.minResources !== undefined ? { minResources: o.minResources } : {}),
      ...(o.scheduleTimeoutSeconds !== undefined ? { scheduleTimeoutSeconds: o.scheduleTimeoutSeconds } : {}),
    },
  };
}

/** PodGroups and pods as the informers would hold them. */
export function fixedSource(pgs: readonly CoschedulingPodGroup[], pods: readonly Pod[]): CoschedulingSource {
  return {
    podGroup: (ns, name) => pgs.find((pg) => pg.metadata.namespace === ns && pg.metadata.name === name),
    memberPods: (ns, name) => pods.filter((p) => p.metadata.namespace === ns && podGroupLabel(p) === name),
  };
}

export function queued(pod: Pod, initialAttemptTimestamp: number | null = null): QueuedPodInfo {
  return {
    podInfo: new PodInfo(pod),
    timestamp: 0,
    attempts: 0,
    initialAttemptTimestamp,
    unschedulablePlugins: new Set(),
    pendingPlugins: new Set(),
    gatingPlugin: null,
  };
}
