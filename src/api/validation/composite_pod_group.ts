// A Workload's composite template tree and scheduling.k8s.io/v1alpha3 CompositePodGroup as the API
// server validates them (pkg/apis/scheduling/validation/validation.go ValidateWorkloadSpec and
// ValidateCompositePodGroup*, with the declarative rules of pkg/apis/scheduling/v1alpha3/
// zz_generated.validations.go).
import { dns1123SubdomainErrors } from '../labels.js';
import type { CompositePodGroup, CompositePodGroupTemplate, Workload } from '../scheduling.js';
import { child, duplicate, index, invalid, required, type FieldError } from './field.js';
import { nameIsDNSSubdomain, validateObjectMeta } from './meta.js';
import { internalCompositeTemplatesValue, versionedCompositeTemplateValue } from './scheduling_values.js';
import {
  longName, shortName, validateConstraints, validateDisruption, validatePodGroupTemplateList, validatePolicy, validatePriorityFields, validateTemplateList,
} from './scheduling_fields.js';

/** Composite templates nest at most this deep (WorkloadMaxTemplateDepth). */
const maxTemplateDepth = 4;

function validateCompositeTemplate(t: CompositePodGroupTemplate, path: string): FieldError[] {
  return [
    ...validatePolicy(t.schedulingPolicy, child(path, 'schedulingPolicy'), 'minGroupCount'),
    ...validateConstraints(t.schedulingConstraints, child(path, 'schedulingConstraints')),
    ...validateDisruption(t.disruptionMode, child(path, 'disruptionMode')),
    ...validatePriorityFields(t, path),
    ...validatePodGroupTemplateList(t.podGroupTemplates, child(path, 'podGroupTemplates')),
    ...validateCompositeTemplateList(t.compositePodGroupTemplates, child(path, 'compositePodGroupTemplates')),
  ];
}

/** A list of composite templates, each with its subtree. */
export function validateCompositeTemplateList(templates: readonly CompositePodGroupTemplate[] | undefined, path: string): FieldError[] {
  return validateTemplateList(templates, path, validateCompositeTemplate, versionedCompositeTemplateValue);
}

/**
 * Names already used elsewhere in the tree: a composite list is checked against every name seen
 * before it (the Workload's pod group templates first), then each composite's own children.
 */
function uniqueTreeNames(templates: readonly CompositePodGroupTemplate[], path: string, names: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const listPath = child(path, 'compositePodGroupTemplates');
  templates.forEach((t, i) => {
    if (names.has(t.name)) errs.push(duplicate(child(index(listPath, i), 'name'), t.name));
  });
  for (const t of templates) names.add(t.name);
  templates.forEach((t, i) => {
    const p = index(listPath, i);
    const children = t.podGroupTemplates ?? [];
    children.forEach((c, j) => {
      if (names.has(c.name)) errs.push(duplicate(child(index(child(p, 'podGroupTemplates'), j), 'name'), c.name));
    });
    for (const c of children) names.add(c.name);
    errs.push(...uniqueTreeNames(t.compositePodGroupTemplates ?? [], p, names));
  });
  return errs;
}

/** Whether the subtree under `t` (at `depth`) stays within the depth limit. */
function withinDepth(t: CompositePodGroupTemplate, depth: number): boolean {
  if (depth === maxTemplateDepth) return false;
  return (t.compositePodGroupTemplates ?? []).every((c) => withinDepth(c, depth + 1));
}

interface PriorityOf { readonly priorityClassName?: string; readonly priority?: number }

/** Every template of the tree, composite or not, names the same priority class and priority. */
function samePriority(spec: Workload['spec'], path: string): FieldError[] {
  let first: PriorityOf | undefined;
  const agrees = (t: PriorityOf): boolean => {
    if (first === undefined) {
      first = t;
      return true;
    }
    return (first.priorityClassName ?? '') === (t.priorityClassName ?? '') && first.priority === t.priority;
  };
  if (!(spec.podGroupTemplates ?? []).every(agrees)) return [invalid(path, null, 'detected multiple priority configurations')];
  const treeAgrees = (c: CompositePodGroupTemplate): boolean =>
    agrees(c) && (c.compositePodGroupTemplates ?? []).every(treeAgrees) && (c.podGroupTemplates ?? []).every(agrees);
  if (!(spec.compositePodGroupTemplates ?? []).every(treeAgrees)) {
    return [invalid(path, null, 'all priority and priorityClassName values must be identical, detected multiple values')];
  }
  return [];
}

function atLeastOneChild(t: CompositePodGroupTemplate, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if ((t.podGroupTemplates ?? []).length === 0 && (t.compositePodGroupTemplates ?? []).length === 0) {
    errs.push(invalid(path, t.name, 'must have at least one child PodGroupTemplate or CompositePodGroupTemplate'));
  }
  (t.compositePodGroupTemplates ?? []).forEach((c, i) => errs.push(...atLeastOneChild(c, index(child(path, 'compositePodGroupTemplates'), i))));
  return errs;
}

/**
 * ValidateWorkloadSpec's rules over the whole template tree: names unique across it, at most four
 * levels of composites, one priority for all, and no composite without children.
 */
export function validateWorkloadTree(spec: Workload['spec'], path: string): FieldError[] {
  const composites = spec.compositePodGroupTemplates ?? [];
  const cpath = child(path, 'compositePodGroupTemplates');
  const errs = uniqueTreeNames(composites, path, new Set((spec.podGroupTemplates ?? []).map((t) => t.name)));
  composites.forEach((c, i) => {
    if (!withinDepth(c, 1)) {
      errs.push(invalid(index(cpath, i), internalCompositeTemplatesValue(c.compositePodGroupTemplates), `maximum template hierarchy depth is ${maxTemplateDepth}`));
    }
  });
  errs.push(...samePriority(spec, path));
  composites.forEach((c, i) => errs.push(...atLeastOneChild(c, index(cpath, i))));
  return errs;
}

export function validateCompositePodGroup(cpg: CompositePodGroup): FieldError[] {
  const errs = validateObjectMeta(cpg.metadata ?? {}, true, nameIsDNSSubdomain);
  const spec = cpg.spec;
  if (spec === undefined) return [...errs, required('spec.workloadRef'), required('spec.schedulingPolicy')];
  const parent = spec.parentCompositePodGroupName;
  if (parent !== undefined) for (const m of dns1123SubdomainErrors(parent)) errs.push(invalid('spec.parentCompositePodGroupName', parent, m));
  if (spec.workloadRef === undefined) errs.push(required('spec.workloadRef'));
  else {
    errs.push(...longName('spec.workloadRef.workloadName', spec.workloadRef.workloadName));
    errs.push(...shortName('spec.workloadRef.templateName', spec.workloadRef.templateName));
  }
  errs.push(...validatePolicy(spec.schedulingPolicy, 'spec.schedulingPolicy', 'minGroupCount'));
  errs.push(...validateConstraints(spec.schedulingConstraints, 'spec.schedulingConstraints'));
  // Required, but defaulting (before validation) gives a group without one {single: {}}.
  errs.push(...validateDisruption(spec.disruptionMode, 'spec.disruptionMode'));
  errs.push(...validatePriorityFields(spec, 'spec'));
  return errs;
}

const immutableSpecFields = [
  'parentCompositePodGroupName', 'workloadRef', 'schedulingPolicy', 'schedulingConstraints', 'disruptionMode', 'priorityClassName', 'priority', 'preemptionPolicy',
] as const;

/** Each field of a CompositePodGroup's spec is immutable (+k8s:immutable). */
export function validateCompositePodGroupUpdate(oldCpg: CompositePodGroup, newCpg: CompositePodGroup): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of immutableSpecFields) {
    if (JSON.stringify(oldCpg.spec?.[f]) !== JSON.stringify(newCpg.spec?.[f])) errs.push(invalid(child('spec', f), null, 'field is immutable'));
  }
  return errs;
}
