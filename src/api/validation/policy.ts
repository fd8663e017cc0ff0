// PriorityClasses and PodDisruptionBudgets as the API server validates them
// (pkg/apis/scheduling/validation/validation.go, pkg/apis/policy/validation/validation.go).
import type { PodDisruptionBudget, PriorityClass } from '../types.js';
import { forbidden, invalid, notSupported, type FieldError } from './field.js';
import { nameIsDNSSubdomain, validateLabelSelector, validateObjectMeta } from './meta.js';

/** The values of the PriorityClasses the API server creates at start-up (scheduling/v1 helpers.go). */
export const systemPriorityClasses: Readonly<Record<string, number>> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
};

const systemPriorityClassDescriptions: Readonly<Record<string, string>> = {
  'system-node-critical': 'Used for system critical pods that must not be moved from their current node.',
  'system-cluster-critical': 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
};

/** The built-in PriorityClass objects, as kube-apiserver's bootstrap hook creates them (defaulted). */
export function systemPriorityClassObjects(): PriorityClass[] {
  return Object.entries(systemPriorityClasses).map(([name, value]) => ({
    apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value,
    description: systemPriorityClassDescriptions[name], preemptionPolicy: 'PreemptLowerPriority',
  }));
}

/** HighestUserDefinablePriority. */
const highestUserDefinablePriority = 1000000000;

const preemptionPolicies = ['PreemptLowerPriority', 'Never'];

/** IsKnownSystemPriorityClass: the reason a system-prefixed class is not one of the built-in ones. */
function systemClassError(pc: PriorityClass): string | null {
  const name = pc.metadata?.name ?? '';
  const value = systemPriorityClasses[name];
  if (value === undefined) return `${name} is not a known system priority class`;
  if (pc.value !== value) return `value of ${name} PriorityClass must be ${value}`;
  if (pc.globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return null;
}

export function validatePriorityClass(pc: PriorityClass): FieldError[] {
  const errs = validateObjectMeta(pc.metadata ?? {}, false, nameIsDNSSubdomain);
  const name = pc.metadata?.name ?? '';
  if (name.startsWith('system-')) {
    const why = systemClassError(pc);
    if (why !== null) errs.push(forbidden('metadata.name', `priority class names with 'system-' prefix are reserved for system use only. error: ${why}`));
  } else if ((pc.value ?? 0) > highestUserDefinablePriority) {
    errs.push(forbidden('value', `maximum allowed value of a user defined priority is ${highestUserDefinablePriority}`));
  }
  if (pc.preemptionPolicy !== undefined && !preemptionPolicies.includes(pc.preemptionPolicy)) {
    errs.push(notSupported('preemptionPolicy', pc.preemptionPolicy, preemptionPolicies));
  }
  return errs;
}

/** ValidatePositiveIntOrPercent and IsNotMoreThan100Percent. */
function validateIntOrPercent(value: number | string, path: string): FieldError[] {
  if (typeof value === 'number') return value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
  const m = /^([0-9]+)%$/.exec(value);
  if (!m) return [invalid(path, value, "must be an integer or percentage (e.g '5%')")];
  return Number(m[1]) > 100 ? [invalid(path, value, 'must not be greater than 100%')] : [];
}

const evictionPolicies = ['AlwaysAllow', 'IfHealthyBudget'];

export function validatePodDisruptionBudget(pdb: PodDisruptionBudget): FieldError[] {
  const errs = validateObjectMeta(pdb.metadata ?? {}, true, nameIsDNSSubdomain);
  const spec = pdb.spec ?? {};
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    errs.push(invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  if (spec.minAvailable !== undefined) errs.push(...validateIntOrPercent(spec.minAvailable, 'spec.minAvailable'));
  if (spec.maxUnavailable !== undefined) errs.push(...validateIntOrPercent(spec.maxUnavailable, 'spec.maxUnavailable'));
  errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && !evictionPolicies.includes(policy)) errs.push(notSupported('spec.unhealthyPodEvictionPolicy', policy, evictionPolicies));
  return errs;
}
