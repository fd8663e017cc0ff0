// A scenario from the objects read from a live cluster: every object admitted and validated as the
// scenario loader does for a dump, bound pods as existing load, unbound pods of this scheduler's
// profiles pending in the order a starting kube-scheduler queues them (pods of other schedulers are
// not ours to place).
import type { KubeObject, Pod } from '../../api/types.js';
import { scenarioFromDocuments, type Scenario } from './scenario.js';

/** The scheduler name a pod gets when it names none (v1.DefaultSchedulerName). */
const defaultSchedulerName = 'default-scheduler';

export interface ImportedScenario {
  readonly scenario: Scenario;
  /** Unbound pods left out because another scheduler places them. */
  readonly otherSchedulersPods: number;
}

export function scenarioFromObjects(objects: readonly KubeObject[], source: string, schedulerNames: readonly string[]): ImportedScenario {
  const ours = new Set(schedulerNames);
  const kept: KubeObject[] = [];
  let otherSchedulersPods = 0;
  for (const o of objects) {
    if (o.kind === 'Pod') {
      const spec = (o as Pod).spec;
      if (!spec?.nodeName && !ours.has(spec?.schedulerName || defaultSchedulerName)) {
        otherSchedulersPods++;
        continue;
      }
    }
    kept.push(o);
  }
  const scenario = scenarioFromDocuments([{ apiVersion: 'v1', kind: 'List', items: kept }], source);
  scenario.metadata = { name: source };
  scenario.pending = inStartupQueueOrder(scenario.pending);
  return { scenario, otherSchedulersPods };
}

const storageKey = (p: Pod): string => `${p.metadata.namespace ?? 'default'}/${p.metadata.name ?? ''}`;

/**
 * Pods already pending when kube-scheduler starts reach its queue in the order its pod informer
 * delivers the initial state, each stamped with the time it was queued (the QueueSort's tie-break
 * after priority), so creation times play no part. A list answer comes in storage key order
 * (namespace/name, as bytes): the order upstream takes with the client feature gate
 * WatchListClient off. With it on (the default since v1.35) client-go gathers the streamed initial
 * state in a Go map first, and the order varies from one start to the next: key order is then one
 * of the orders upstream may take, and the only stable one.
 */
function inStartupQueueOrder(pending: readonly Pod[]): Pod[] {
  return pending.map((p) => ({ p, key: storageKey(p) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((x) => x.p);
}
