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
  return establishPriority(pod.spec?.priorityClassName, classes);
}

/** establishPriority: the named class, or the global default class when no name is given. */
function establishPriority(name: string | undefined, classes: readonly PriorityClass[]): ResolvedPriority | { readonly error: string } {
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

/** What Priority admission reads and fills in a PodGroup's (or CompositePodGroup's) spec. */
interface GroupPriorityFields {
  readonly priorityClassName?: string;
  readonly priority?: number;
  readonly preemptionPolicy?: string;
}

/** The fields admission sets on a new group, each to stand in its spec. */
export interface AdmittedGroupPriority {
  readonly priorityClassName: string | undefined;
  readonly priority: number;
  /** Set only with PodGroupPreemptionPolicy on. */
  readonly preemptionPolicy: 'PreemptLowerPriority' | 'Never' | undefined;
}

/**
 * admitPodGroup and admitCompositePodGroup (GenericWorkload, CompositePodGroup): a new group's
 * priority comes from its class, or from the global default class, as a pod's does. A stated
 * priority or (with PodGroupPreemptionPolicy) preemption policy must be the computed one;
 * `noun` is "pod group" or "composite pod group", as upstream's messages name it. With
 * PodGroupPreemptionPolicy, v1beta1/v1alpha3 defaulting has already given a group without a
 * policy PreemptLowerPriority when admission runs: a group of a class whose policy is Never must
 * state Never, or it is refused (as kube-apiserver v1.37.2 does).
 */
export function admitGroupPriority(
  spec: GroupPriorityFields,
  classes: readonly PriorityClass[],
  o: { readonly noun: 'pod group' | 'composite pod group'; readonly preemptionPolicy: boolean },
): AdmittedGroupPriority | { readonly error: string } {
  const r = establishPriority(spec.priorityClassName, classes);
  if ('error' in r) return r;
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== r.priority) {
    return { error: `priority set in the ${o.noun} (${spec.priority}) must match the priority computed (${r.priority}) based on the priority class set in the spec` };
  }
  let preemptionPolicy: AdmittedGroupPriority['preemptionPolicy'];
  if (o.preemptionPolicy) {
    // Defaulting gives every stored class a policy; with no default class upstream computes this one.
    const computed = r.preemptionPolicy ?? 'PreemptLowerPriority';
    if (computed !== 'PreemptLowerPriority' && computed !== 'Never') {
      return { error: `preemptionPolicy set in the PriorityClass object (${computed}) must match one of the allowed values of PreemptionPolicy type in ${o.noun}` };
    }
    const stated = spec.preemptionPolicy ?? 'PreemptLowerPriority';
    if (stated !== computed) {
      return { error: `the string value of PreemptionPolicy (${stated}) must not be provided in ${o.noun} spec; priority admission controller computed ${computed} from the given PriorityClass name` };
    }
    preemptionPolicy = computed;
  }
  return { priorityClassName: r.priorityClassName, priority: r.priority, preemptionPolicy };
}
