// Workloads and PodGroups as the API server validates them (pkg/apis/scheduling/validation and the
// declarative rules of pkg/apis/scheduling/v1beta1/zz_generated.validations.go): the rules a
// scenario or a client can break, with their messages. A Workload's composite template tree and
// the CompositePodGroup kind are in composite_pod_group.ts.
import { dns1123SubdomainErrors } from '../labels.js';
import type { PodGroup, Workload } from '../scheduling.js';
import { invalid, required, type FieldError } from './field.js';
import { nameIsDNSSubdomain, validateObjectMeta } from './meta.js';
import { validateCompositeTemplateList, validateWorkloadTree } from './composite_pod_group.js';
import { exactlyOne, longName, validateGroupFields, validatePodGroupTemplateList } from './scheduling_fields.js';

export function validatePodGroup(pg: PodGroup): FieldError[] {
  const errs = validateObjectMeta(pg.metadata ?? {}, true, nameIsDNSSubdomain);
  const spec = pg.spec;
  if (spec === undefined) return [...errs, required('spec.schedulingPolicy')];
  // The strategy drops parentCompositePodGroupName while CompositePodGroup is off, so what
  // reaches validation is allowed (pkg/registry/scheduling/podgroup/strategy.go).
  const parent = spec.parentCompositePodGroupName;
  if (parent !== undefined) {
    for (const m of dns1123SubdomainErrors(parent)) errs.push(invalid('spec.parentCompositePodGroupName', parent, m));
    if (spec.workloadRef === undefined) errs.push(required('spec.workloadRef', 'must be set when parentCompositePodGroupName is set'));
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

const nonEmpty = (v: unknown): boolean => Array.isArray(v) && v.length > 0;

export function validateWorkload(w: Workload): FieldError[] {
  const errs = validateObjectMeta(w.metadata ?? {}, true, nameIsDNSSubdomain);
  const spec = w.spec ?? {};
  // The strategy drops compositePodGroupTemplates while CompositePodGroup is off.
  errs.push(...validateWorkloadTree(spec, 'spec'));
  errs.push(...exactlyOne('spec', spec, ['podGroupTemplates', 'compositePodGroupTemplates'], nonEmpty));
  errs.push(...validatePodGroupTemplateList(spec.podGroupTemplates, 'spec.podGroupTemplates'));
  errs.push(...validateCompositeTemplateList(spec.compositePodGroupTemplates, 'spec.compositePodGroupTemplates'));
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
