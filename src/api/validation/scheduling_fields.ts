// The fields every scheduling.k8s.io group and template shares, as the API server validates them
// (the declarative rules of pkg/apis/scheduling/v1beta1 and v1alpha3 zz_generated.validations.go):
// used by the PodGroup and Workload rules (scheduling.ts) and the composite ones (composite_pod_group.ts).
import { dns1123SubdomainErrors, qualifiedNameErrors } from '../labels.js';
import type {
  DisruptionMode, PodGroupResourceClaim, PodGroupSchedulingConstraints, PodGroupTemplate,
} from '../scheduling.js';
import { child, duplicate, index, invalid, notSupported, required, type FieldError, type Unquoted } from './field.js';
import { dns1123LabelErrors } from './meta.js';
import { versionedPodGroupTemplateValue } from './scheduling_values.js';

/** Each template list of a Workload holds at most this many (WorkloadMaxPodGroupTemplates). */
const maxPodGroupTemplates = 8;
const maxResourceClaims = 4;
const maxTopologyConstraints = 1;
const preemptionPolicies = ['PreemptLowerPriority', 'Never'];
/** The highest priority a group may state (declarative +k8s:maximum, HighestUserDefinablePriority). */
const maxGroupPriority = 1_000_000_000;

function tooMany(field: string, n: number, max: number): FieldError {
  return { type: 'FieldValueTooMany', field, value: n, detail: `must have at most ${max} ${max === 1 ? 'item' : 'items'}` };
}

const isPresent = (v: unknown): boolean => v !== undefined && v !== null;

/** validate.Union over members set in `obj`: exactly one must be. */
export function exactlyOne(path: string, obj: object | undefined, members: readonly string[], isSet = isPresent): FieldError[] {
  const rec = (obj ?? {}) as Record<string, unknown>;
  const set = members.filter((m) => isSet(rec[m]));
  const all = members.map((m) => `\`${m}\``).join(', ');
  if (set.length === 0) return [invalid(path, '', `must specify one of: ${all}`)];
  if (set.length > 1) return [invalid(path, `{${set.join(', ')}}`, `must specify exactly one of: ${all}`)];
  return [];
}

export function longName(path: string, v: string | undefined): FieldError[] {
  if (v === undefined || v === '') return [required(path)];
  return dns1123SubdomainErrors(v).map((m) => invalid(path, v, m));
}

/**
 * RequiredValue then ShortName: a template's name is a DNS label, checked as declarative
 * validation's content.IsDNS1123Label does (a valid subdomain fails for its dots alone).
 */
export function shortName(path: string, v: string | undefined): FieldError[] {
  if (v === undefined || v === '') return [required(path)];
  const msgs = dns1123LabelErrors(v);
  const pattern = msgs.length > 0 && msgs[msgs.length - 1] !== tooLongLabel ? msgs.length - 1 : -1;
  if (pattern >= 0 && v.length <= 253 && dns1123SubdomainErrors(v).length === 0) msgs[pattern] = 'must not contain dots';
  return msgs.map((m) => invalid(path, v, m));
}

const tooLongLabel = 'must be no more than 63 characters';

/**
 * A scheduling policy: exactly one of basic and gang, and a gang's count (`minCount` of a
 * PodGroup, `minGroupCount` of a CompositePodGroup) at least 1.
 */
export function validatePolicy<F extends 'minCount' | 'minGroupCount'>(
  p: { readonly gang?: Partial<Record<F, number>> | null } | undefined,
  path: string,
  countField: F,
): FieldError[] {
  if (p === undefined) return [required(path)];
  const errs = exactlyOne(path, p, ['basic', 'gang']);
  if (p.gang === undefined || p.gang === null) return errs;
  const mpath = child(child(path, 'gang'), countField);
  const min = p.gang[countField];
  // +k8s:required on an int32: zero is "not set".
  if (min === undefined || min === 0) errs.push(required(mpath));
  else if (min < 1) errs.push(invalid(mpath, min, 'must be greater than or equal to 1'));
  return errs;
}

export function validateConstraints(c: PodGroupSchedulingConstraints | undefined, path: string): FieldError[] {
  const topology = c?.topology ?? [];
  const tpath = child(path, 'topology');
  if (topology.length > maxTopologyConstraints) return [tooMany(tpath, topology.length, maxTopologyConstraints)];
  const errs: FieldError[] = [];
  topology.forEach((t, i) => {
    const kpath = child(index(tpath, i), 'key');
    if (!t.key) errs.push(required(kpath));
    else for (const m of qualifiedNameErrors(t.key)) errs.push(invalid(kpath, t.key, m));
  });
  return errs;
}

function validateClaims(claims: readonly PodGroupResourceClaim[] | undefined, path: string): FieldError[] {
  if (!claims) return [];
  if (claims.length > maxResourceClaims) return [tooMany(path, claims.length, maxResourceClaims)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  claims.forEach((c, i) => {
    const p = index(path, i);
    errs.push(...longName(child(p, 'name'), c.name));
    if (seen.has(c.name)) errs.push(duplicate(child(p, 'name'), c.name));
    seen.add(c.name);
    errs.push(...exactlyOne(p, c, ['resourceClaimName', 'resourceClaimTemplateName']));
  });
  return errs;
}

export function validateDisruption(d: DisruptionMode | undefined, path: string): FieldError[] {
  return d === undefined ? [] : exactlyOne(path, d, ['single', 'all']);
}

/** priorityClassName, priority and preemptionPolicy, which every group and template carries. */
export function validatePriorityFields(s: { priorityClassName?: string; priority?: number; preemptionPolicy?: string }, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (s.priorityClassName) errs.push(...longName(child(path, 'priorityClassName'), s.priorityClassName));
  if (s.priority !== undefined && s.priority > maxGroupPriority) errs.push(invalid(child(path, 'priority'), s.priority, `must be less than or equal to ${maxGroupPriority}`));
  if (s.preemptionPolicy !== undefined && !preemptionPolicies.includes(s.preemptionPolicy)) {
    errs.push(notSupported(child(path, 'preemptionPolicy'), s.preemptionPolicy, preemptionPolicies));
  }
  return errs;
}

/** The fields a PodGroupTemplate and a PodGroup's spec share. */
export function validateGroupFields(s: Omit<PodGroupTemplate, 'name'>, path: string): FieldError[] {
  return [
    ...validatePolicy(s.schedulingPolicy, child(path, 'schedulingPolicy'), 'minCount'),
    ...validateConstraints(s.schedulingConstraints, child(path, 'schedulingConstraints')),
    ...validateClaims(s.resourceClaims, child(path, 'resourceClaims')),
    ...validateDisruption(s.disruptionMode, child(path, 'disruptionMode')),
    ...validatePriorityFields(s, path),
  ];
}

/**
 * A list of templates (pod group or composite, of a Workload or of a composite template): at most
 * 8, each named by a DNS label unique in the list (declarative validation reports a repeat with
 * the item's JSON), each valid by `validateTemplate`.
 */
export function validateTemplateList<T extends { readonly name: string }>(templates: readonly T[] | undefined, path: string,
  validateTemplate: (t: T, path: string) => FieldError[], printed: (t: T) => Unquoted): FieldError[] {
  if (templates === undefined) return [];
  if (templates.length > maxPodGroupTemplates) return [tooMany(path, templates.length, maxPodGroupTemplates)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  templates.forEach((t, i) => {
    const p = index(path, i);
    errs.push(...shortName(child(p, 'name'), t.name));
    if (seen.has(t.name)) errs.push(duplicate(p, printed(t)));
    seen.add(t.name);
    errs.push(...validateTemplate(t, p));
  });
  return errs;
}

/** A list of pod group templates. */
export function validatePodGroupTemplateList(templates: readonly PodGroupTemplate[] | undefined, path: string): FieldError[] {
  return validateTemplateList(templates, path, validateGroupFields, versionedPodGroupTemplateValue);
}
