// What the embedded cluster's workload controllers need of the store: list, read, write, watch,
// and the clock for run times; generated names come from the store (generateName).
import type { PodGroup, Workload } from '../../../api/scheduling.js';
import type { KubeObject, Pod } from '../../../api/types.js';
import type { Clock } from '../../../util/clock.js';
import type { VersionedEvent } from '../versioned_event.js';

export interface ControllerStore {
  list<T extends KubeObject>(kind: string): T[];
  get<T extends KubeObject>(kind: string, namespace: string, name: string): T | undefined;
  create<T extends KubeObject>(obj: T): T;
  update<T extends KubeObject>(obj: T): T;
  remove(kind: string, namespace: string, name: string): boolean;
  subscribe(handler: (e: VersionedEvent) => void): () => void;
}

export interface ControllerContext {
  readonly store: ControllerStore;
  readonly clock: Clock;
  /** The pods whose controller is the object with this uid (kept current as pods change). */
  podsOf(ownerUid: string): readonly Pod[];
  /** WorkloadWithJob: the Job controller makes a Workload and a PodGroup for a Job. */
  readonly workloadWithJob: boolean;
  /** Workloads whose spec.controllerRef names the batch Job namespace/name (the Job controller's workloadByJobName index). */
  workloadsOfJob(namespace: string, name: string): readonly Workload[];
  /** PodGroups whose spec.workloadRef names the Workload namespace/name (its podGroupByWorkloadName index). */
  podGroupsOfWorkload(namespace: string, name: string): readonly PodGroup[];
}
