// With `controllers` off a scenario's workload objects make no pods: a Deployment whose pods (or
// ReplicaSets) the scenario does not hold would silently schedule nothing. Named here, for a warning.
import type { KubeObject } from '../../api/types.js';
import type { Scenario } from './scenario.js';

const workloadKinds = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicationController']);

/** "Deployment default/web" for each workload that nothing in the scenario stands for, with controllers off. */
export function idleWorkloads(sc: Scenario): string[] {
  if (sc.controllers === true) return [];
  const owned = new Set<string>();
  const note = (o: KubeObject) => {
    for (const r of o.metadata?.ownerReferences ?? []) owned.add(`${r.kind}/${o.metadata?.namespace ?? 'default'}/${r.name}`);
  };
  for (const o of [...sc.pods, ...sc.pending, ...sc.objects]) note(o);
  const out: string[] = [];
  for (const o of sc.objects) {
    if (!workloadKinds.has(o.kind ?? '')) continue;
    const ns = o.metadata?.namespace ?? 'default';
    if (!owned.has(`${o.kind}/${ns}/${o.metadata?.name ?? ''}`)) out.push(`${o.kind} ${ns}/${o.metadata?.name ?? ''}`);
  }
  return out;
}

/** The warning for them, or null when there are none. */
export function idleWorkloadsWarning(sc: Scenario): string | null {
  const idle = idleWorkloads(sc);
  if (idle.length === 0) return null;
  const more = idle.length > 3 ? ` and ${idle.length - 3} more` : '';
  return `${sc.source ?? sc.name}: controllers are off, so ${idle.slice(0, 3).join(', ')}${more} make no pods; ` +
    'set "controllers: true" in the scenario to run the workload controllers';
}
