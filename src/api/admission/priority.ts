// The Priority admission plugin (plugin/pkg/admission/priority/admission.go): a new pod's priority
// comes from the PriorityClass it names, or from the global default class; a name that resolves to
// no class, or a priority that disagrees with the class, is refused. The built-in system classes
// resolve even when no object stands for them.
import type { Pod, PriorityClass } from '../types.js';
import { systemPriorityClasses } from '../validation/policy.js';

/** What admission sets on a pod: its priority, and the class and policy it came from. */
export interface ResolvedPriority {
  readonly priority: number;
  readonly priorityClassName: string | undefined;
  readonly preemptionPolicy: string | undefined;
}

/** The class named `name` among `classes`, or the built-in system class of that name. */
function findClass(name: string, classes: readonly PriorityClass[]): PriorityClass | undefined {
  const found = classes.find((c) => c.metadata?.name === name);
  if (found) return found;
  const value = systemPriorityClasses[name];
  return value === undefined ? undefined : { metadata: { name }, value };
}

/** The global default class; when several claim it (a race), the lowest value wins, as upstream. */
function defaultClass(classes: readonly PriorityClass[]): PriorityClass | undefined {
  let best: PriorityClass | undefined;
  for (const c of classes) if (c.globalDefault && (best === undefined || (c.value ?? 0) < (best.value ?? 0))) best = c;
  return best;
}

/** The priority a new pod gets, or the Forbidden reason when its class does not exist. */
export function resolvePodPriority(pod: Pod, classes: readonly PriorityClass[]): ResolvedPriority | { readonly error: string } {
  const name = pod.spec?.priorityClassName;
  if (!name) {
    const pc = defaultClass(classes);
    return { priority: pc?.value ?? 0, priorityClassName: pc?.metadata?.name, preemptionPolicy: pc?.preemptionPolicy };
  }
  const pc = findClass(name, classes);
  if (!pc) return { error: `no PriorityClass with name ${name} was found` };
  return { priority: pc.value ?? 0, priorityClassName: name, preemptionPolicy: pc.preemptionPolicy };
}

/**
 * Why admission refuses to create `pod` (Forbidden), or null: its class must exist, and a
 * priority or preemption policy it states must be the one its class gives.
 */
export function priorityAdmissionError(pod: Pod, classes: readonly PriorityClass[]): string | null {
  const r = resolvePodPriority(pod, classes);
  if ('error' in r) return r.error;
  const given = pod.spec?.priority;
  if (given !== undefined && given !== null && given !== r.priority) {
    return `the integer value of priority (${given}) must not be provided in pod spec; priority admission controller computed ${r.priority} from the given PriorityClass name`;
  }
  const policy = pod.spec?.preemptionPolicy;
  if (r.preemptionPolicy !== undefined && policy !== undefined && policy !== r.preemptionPolicy) {
    return `the string value of PreemptionPolicy (${policy}) must not be provided in pod spec; priority admission controller computed ${r.preemptionPolicy} from the given PriorityClass name`;
  }
  return null;
}

/** Why admission refuses a new PriorityClass: only one class may be the global default. */
export function priorityClassAdmissionError(pc: PriorityClass, classes: readonly PriorityClass[]): string | null {
  if (!pc.globalDefault) return null;
  const other = classes.find((c) => c.globalDefault && c.metadata?.name !== pc.metadata?.name);
  return other ? `PriorityClass ${other.metadata?.name ?? ''} is already marked as default. Only one default can exist` : null;
}
