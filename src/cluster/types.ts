// The ClusterClient boundary: everything the scheduler reads from or writes to a cluster. The
// embedded store (memory/) and a real API server (kube/) are two implementations of it.
import type { KubeObject, Node, PersistentVolume, PersistentVolumeClaim, Pod, PodCondition, PodExtendedResourceClaimStatus } from '../api/types.js';
import type { ResourceClaim } from '../api/dra_types.js';

type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface WatchEvent {
  readonly type: WatchEventType;
  readonly kind: string;
  readonly object: KubeObject;
  /** The previous version, for MODIFIED and DELETED. */
  readonly oldObject?: KubeObject;
}

export type WatchHandler = (e: WatchEvent) => void;

export interface PodStatusPatch {
  /** The PodScheduled condition to set. */
  condition?: PodCondition;
  /** Sets (string) or clears ('') status.nominatedNodeName; undefined leaves it. */
  nominatedNodeName?: string;
  /** Sets the DisruptionTarget condition (preemption victims). */
  disruptionTarget?: PodCondition;
  /** Sets status.extendedResourceClaimStatus (DynamicResources' claim for extended resources). */
  extendedResourceClaimStatus?: PodExtendedResourceClaimStatus;
}

export interface ClusterEventRecord {
  readonly regarding: { kind: string; namespace: string; name: string; uid?: string };
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly action: string;
  readonly note: string;
  readonly time: number;
}

/** An API error with an HTTP-like status code (409 conflict, 404 not found, 5xx...). */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The API server answered and refused the request (4xx other than 408 Request Timeout), so it
 * wrote nothing. Anything else (no answer, a timeout, a 5xx, a lost answer) leaves the outcome
 * of a write unknown. 429 counts as a refusal: the server turns it away before handling it.
 */
export function isRefusal(err: unknown): boolean {
  return err instanceof ApiError && err.code >= 400 && err.code < 500 && err.code !== 408;
}

export interface ClusterClient {
  /**
   * Lists every object of the kinds the scheduler uses, delivering them as ADDED, then streams
   * changes. Resolves once the initial list has been delivered (caches synced).
   */
  start(handler: WatchHandler): Promise<void>;
  stop(): void;
  /** Binds the pod through pods/binding; rejects with ApiError(409) when already bound. */
  bind(pod: Pod, nodeName: string): Promise<void>;
  updatePodStatus(pod: Pod, patch: PodStatusPatch): Promise<void>;
  deletePod(pod: Pod, opts?: { disruptionReason?: string; message?: string }): Promise<void>;
  recordEvent(e: ClusterEventRecord): void;
  /** The latest version of a pod the client has seen (the informer cache). */
  getPod(namespace: string, name: string): Pod | undefined;
  /**
   * Reads the pod from the API server itself, not the informer cache (a binding whose answer was
   * lost is confirmed this way); null when it does not exist, rejects when the read fails.
   */
  readPod(namespace: string, name: string): Promise<Pod | null>;
  /** Every node the client has seen. */
  listNodes(): Node[];
  /** Replaces a PersistentVolume (PUT, VolumeBinding's PreBind); resolves with the stored object. */
  updatePersistentVolume?(pv: PersistentVolume): Promise<PersistentVolume>;
  /** Replaces a PersistentVolumeClaim (PUT, VolumeBinding's PreBind); resolves with the stored object. */
  updatePersistentVolumeClaim?(pvc: PersistentVolumeClaim): Promise<PersistentVolumeClaim>;
  /** Writes a ResourceClaim's status subresource (PUT resourceclaims/status): spec and metadata stay as stored; 409 when stale. */
  updateResourceClaimStatus?(claim: ResourceClaim): Promise<ResourceClaim>;
  /** Replaces a ResourceClaim (PUT): status stays as stored; 409 when stale. */
  updateResourceClaim?(claim: ResourceClaim): Promise<ResourceClaim>;
  /** Creates a ResourceClaim (POST, generateName honoured); resolves with the stored object. */
  createResourceClaim?(claim: ResourceClaim): Promise<ResourceClaim>;
  /** Deletes a ResourceClaim (DELETE); rejects with ApiError(404) when missing. */
  deleteResourceClaim?(namespace: string, name: string): Promise<void>;
}
