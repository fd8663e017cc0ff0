// Workloads and PodGroups as the API server validates them (pkg/apis/scheduling/validation and the
// declarative rules of pkg/apis/scheduling/v1beta1/zz_generated.validations.go): the rules a
// scenario or a client can break, with their messages.
import { dns1123SubdomainErrors, qualifiedNameErrors } from '../labels.js';
import type {
  DisruptionMode, PodGroup, PodGroupResourceClaim, PodGroupSchedulingConstraints, PodGroupSchedulingPolicy, PodGroupTemplate, Workload,
} from '../scheduling.js';
import { child, duplicate, forbidden, index, invalid, notSupported, required, type FieldError } from './field.js';
import { nameIsDNSSubdomain, validateObjectMeta } from './meta.js';

const maxPodGroupTemplates = 8;
const maxResourceClaims = 4;
const maxTopologyConstraints = 1;
const preemptionPolicies = ['PreemptLowerPriority', 'Never'];

function tooMany(field: string, n: number, max: number): FieldError {
  return { type: 'FieldValueTooMany', field, value: n, detail: `must have at most ${max} items` };
}

/** validate.Union over members set in `obj`: exactly one must be. */
function exactlyOne(path: string, obj: object | undefined, members: readonly string[]): FieldError[] {
  const rec = (obj ?? {}) as Record<string, unknown>;
  const set = members.filter((m) => rec[m] !== undefined && rec[m] !== null);
  const all = members.map((m) => `\`${m}\``).join(', ');
  if (set.length === 0) return [invalid(path, '', `must specify one of: ${all}`)];
  if (set.length > 1) return [invalid(path, `{${set.map((m) => `\`${m}\``).join(', ')}}`, `must specify exactly one of: ${all}`)];
  return [];
}

function longName(path: string, v: string | undefined): FieldError[] {
  if (v === undefined || v === '') return [required(path)];
  return dns1123SubdomainErrors(v).map((m) => invalid(path, v, m));
}

function validatePolicy(p: PodGroupSchedulingPolicy | undefined, path: string): FieldError[] {
  if (p === undefined) return [required(path)];
  const errs = exactlyOne(path, p, ['basic', 'gang']);
  const min = p.gang?.minCount;
  if (p.gang && (min === undefined || min < 1)) errs.push(invalid(child(child(path, 'gang'), 'minCount'), min ?? 0, 'must be greater than or equal to 1'));
  return errs;
}

function validateConstraints(c: PodGroupSchedulingConstraints | undefined, path: string): FieldError[] {
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

function validateDisruption(d: DisruptionMode | undefined, path: string): FieldError[] {
  return d === undefined ? [] : exactlyOne(path, d, ['single', 'all']);
}

/** The fields a PodGroupTemplate and a PodGroup's spec share. */
function validateGroupFields(s: Omit<PodGroupTemplate, 'name'>, path: string): FieldError[] {
  const errs = [
    ...validatePolicy(s.schedulingPolicy, child(path, 'schedulingPolicy')),
    ...validateConstraints(s.schedulingConstraints, child(path, 'schedulingConstraints')),
    ...validateClaims(s.resourceClaims, child(path, 'resourceClaims')),
    ...validateDisruption(s.disruptionMode, child(path, 'disruptionMode')),
  ];
  if (s.priorityClassName) errs.push(...longName(child(path, 'priorityClassName'), s.priorityClassName));
  if (s.preemptionPolicy !== undefined && !preemptionPolicies.includes(s.preemptionPolicy)) {
    errs.push(notSupported(child(path, 'preemptionPolicy'), s.preemptionPolicy, preemptionPolicies));
  }
  return errs;
}

export function validatePodGroup(pg: PodGroup): FieldError[] {
  const errs = validateObjectMeta(pg.metadata ?? {}, true, nameIsDNSSubdomain);
  const spec = pg.spec;
  if (spec === undefined) return [...errs, required('spec.schedulingPolicy')];
  if (spec.parentCompositePodGroupName !== undefined) {
    errs.push(forbidden('spec.parentCompositePodGroupName', ''));
  }
  if (spec.workloadRef) {
    errs.push(...longName('spec.workloadRef.workloadName', spec.workloadRef.workloadName));
    errs.push(...longName('spec.workloadRef.templateName', spec.workloadRef.templateName));
  }
  errs.push(...validateGroupFields(spec, 'spec'));
  return errs;
}

/** A PodGroup's spec cannot change once created. */
export function validatePodGroupUpdate(oldPg: PodGroup, newPg: PodGroup): FieldError[] {
  return JSON.stringify(oldPg.spec) === JSON.stringify(newPg.spec) ? [] : [invalid('spec', null, 'field is immutable')];
}

export function validateWorkload(w: Workload): FieldError[] {
  const errs = validateObjectMeta(w.metadata ?? {}, true, nameIsDNSSubdomain);
  const templates = w.spec?.podGroupTemplates ?? [];
  const path = 'spec.podGroupTemplates';
  if (templates.length === 0) errs.push(required(path));
  if (templates.length > maxPodGroupTemplates) errs.push(tooMany(path, templates.length, maxPodGroupTemplates));
  const seen = new Set<string>();
  templates.forEach((t, i) => {
    const p = index(path, i);
    errs.push(...longName(child(p, 'name'), t.name));
    if (seen.has(t.name)) errs.push(duplicate(child(p, 'name'), t.name));
    seen.add(t.name);
    errs.push(...validateGroupFields(t, p));
  });
  const ref = w.spec?.controllerRef;
  if (ref) {
    if (!ref.kind) errs.push(required('spec.controllerRef.kind'));
    if (!ref.name) errs.push(required('spec.controllerRef.name'));
  }
  return errs;
}

/** The templates and the controller reference cannot change. */
export function validateWorkloadUpdate(oldW: Workload, newW: Workload): FieldError[] {
  return JSON.stringify(oldW.spec) === JSON.stringify(newW.spec) ? [] : [invalid('spec', null, 'field is immutable')];
}
