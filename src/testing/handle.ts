// A framework Handle for plugin unit tests: a fixed snapshot, objects, a recording client.
import type { KubeObject, Node, Pod } from '../api/types.js';
import { Snapshot } from '../cache/snapshot.js';
import type { Handle, PodNominatorReader, WaitingPod } from '../framework/interfaces.js';
import type { PodInfo } from '../framework/pod_info.js';
import { MapObjectLister } from '../framework/object_lister.js';
import { defaultFeatures, type Features } from '../framework/features.js';
import type { SharedDRAManager } from '../framework/shared_dra_manager.js';
import { newSharedDRAManager } from '../plugins/dynamicresources/shared_dra_manager.js';

export interface TestHandleOptions {
  nodes?: Node[];
  pods?: Pod[];
  objects?: KubeObject[];
  snapshot?: Snapshot;
  nominated?: Map<string, PodInfo[]>;
  now?: number;
  random?: () => number;
  overrides?: Partial<Handle>;
  /** The feature gates' values that shape the handle's DRA manager (the pinned release's by default). */
  features?: Features;
}

export interface RecordedCalls {
  binds: { pod: string; node: string }[];
  deletes: string[];
  events: { reason: string; message: string }[];
}

export function newTestHandle(opts: TestHandleOptions = {}): Handle & { calls: RecordedCalls; snapshot: Snapshot } {
  const snapshot = opts.snapshot ?? Snapshot.fromObjects(opts.pods ?? [], opts.nodes ?? []);
  const objects = new MapObjectLister(opts.objects ?? []);
  const calls: RecordedCalls = { binds: [], deletes: [], events: [] };
  let draManager: SharedDRAManager | undefined;
  const nominator: PodNominatorReader = { nominatedPodsForNode: (n) => opts.nominated?.get(n) ?? [] };
  const notAvailable = (what: string) => () => {
    throw new Error(`${what} is not available in the test handle`);
  };
  const base: Handle & { calls: RecordedCalls; snapshot: Snapshot } = {
    calls,
    snapshot,
    profileName: 'default-scheduler',
    parallelism: 16,
    snapshotSharedLister: () => snapshot,
    objects: () => objects,
    client: () => ({
      bind: async (pod, node) => {
        calls.binds.push({ pod: `${pod.metadata.namespace}/${pod.metadata.name}`, node });
      },
      deletePod: async (pod) => {
        calls.deletes.push(`${pod.metadata.namespace}/${pod.metadata.name}`);
      },
      clearNominatedNodeName: async () => {},
    }),
    eventRecorder: () => ({ event: (_o, _t, reason, _a, message) => calls.events.push({ reason, message }) }),
    nominator: () => nominator,
    now: () => opts.now ?? 0,
    random: opts.random ?? (() => 0),
    getWaitingPod: (): WaitingPod | undefined => undefined,
    iterateOverWaitingPods: () => {},
    rejectWaitingPod: () => false,
    runFilterPluginsWithNominatedPods: notAvailable('runFilterPluginsWithNominatedPods'),
    runPreFilterExtensionAddPod: notAvailable('runPreFilterExtensionAddPod'),
    runPreFilterExtensionRemovePod: notAvailable('runPreFilterExtensionRemovePod'),
    // As a scheduler's: one manager over the handle's objects, built on first use.
    sharedDRAManager: () => (draManager ??= newSharedDRAManager(objects, opts.features ?? defaultFeatures)),
  };
  return Object.assign(base, opts.overrides ?? {});
}
