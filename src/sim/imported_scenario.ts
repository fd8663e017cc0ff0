// A scenario from the objects read from a live cluster: every object admitted and validated as the
// scenario loader does for a dump, bound pods as existing load, unbound pods of this scheduler's
// profiles pending in creation order (pods of other schedulers are not ours to place).
import type { KubeObject, Pod } from '../api/types.js';
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
  return { scenario, otherSchedulersPods };
}
