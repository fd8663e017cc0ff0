// Object metadata, names, labels, annotations and label selectors as the API server validates them
// (apimachinery api/validation/objectmeta.go, generic.go, apis/meta/v1/validation/validation.go,
// util/validation/validation.go).
import { dns1123SubdomainErrors, labelValueErrors, qualifiedNameErrors } from '../labels.js';
import type { LabelSelector, ObjectMeta } from '../types.js';
import { child, duplicate, forbidden, index, invalid, required, tooLong, type FieldError } from './field.js';

const dns1123LabelRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1035LabelRe = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const dns1123LabelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const dns1035LabelMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/** validation.IsDNS1123Label. */
export function dns1123LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1123LabelRe.test(value)) errs.push(dns1123LabelMsg);
  return errs;
}

/** validation.IsDNS1035Label. */
function dns1035LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1035LabelRe.test(value)) errs.push(dns1035LabelMsg);
  return errs;
}

/** How a kind's names are checked (ValidateNameFunc); `prefix` is for generateName. */
export type NameValidator = (name: string, prefix: boolean) => string[];

/** A generateName may end with '-': it is checked as if a letter followed (maskTrailingDash). */
function masked(name: string, prefix: boolean): string {
  return prefix && name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
}

export const nameIsDNSSubdomain: NameValidator = (name, prefix) => dns1123SubdomainErrors(masked(name, prefix));
/** Also ValidateNamespaceName: namespaces are DNS labels. */
export const nameIsDNSLabel: NameValidator = (name, prefix) => dns1123LabelErrors(masked(name, prefix));
export const nameIsDNS1035Label: NameValidator = (name, prefix) => dns1035LabelErrors(masked(name, prefix));

/** path.ValidatePathSegmentName: what any object name must satisfy (events and leases). */
export const nameIsPathSegment: NameValidator = (name, prefix) => {
  if (prefix) return /[/%]/.test(name) ? [`may not contain '/' or '%'`] : [];
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return /[/%]/.test(name) ? [`may not contain '/' or '%'`] : [];
};

export function validateLabelName(name: string, path: string): FieldError[] {
  return qualifiedNameErrors(name).map((m) => invalid(path, name, m));
}

/** ValidateLabels: every key a qualified name, every value a label value; errors at the map's path. */
export function validateLabels(labels: Readonly<Record<string, string>> | undefined, path: string): FieldError[] {
  if (!labels) return [];
  const errs: FieldError[] = [];
  for (const k of Object.keys(labels)) {
    errs.push(...validateLabelName(k, path));
    for (const m of labelValueErrors(labels[k]!)) errs.push(invalid(path, labels[k], m));
  }
  return errs;
}

const totalAnnotationSizeLimit = 256 * 1024;

export function validateAnnotations(annotations: Readonly<Record<string, string>> | undefined, path: string): FieldError[] {
  if (!annotations) return [];
  const errs: FieldError[] = [];
  let size = 0;
  for (const k of Object.keys(annotations)) {
    // Annotation keys are qualified names compared without case.
    for (const m of qualifiedNameErrors(k.toLowerCase())) errs.push(invalid(path, k, m));
    size += k.length + annotations[k]!.length;
  }
  if (size > totalAnnotationSizeLimit) errs.push(tooLong(path, totalAnnotationSizeLimit));
  return errs;
}

/** ValidateLabelSelector with invalid label values rejected (the default for new objects). */
export function validateLabelSelector(sel: LabelSelector | null | undefined, path: string): FieldError[] {
  if (!sel) return [];
  const errs = validateLabels(sel.matchLabels, child(path, 'matchLabels'));
  const exprs = sel.matchExpressions ?? [];
  for (let i = 0; i < exprs.length; i++) {
    const e = exprs[i]!;
    const p = index(child(path, 'matchExpressions'), i);
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(required(child(p, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(forbidden(child(p, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(invalid(child(p, 'operator'), e.operator ?? '', 'not a valid selector operator'));
    }
    errs.push(...validateLabelName(e.key ?? '', child(p, 'key')));
    for (let j = 0; j < values.length; j++) {
      for (const m of labelValueErrors(values[j]!)) errs.push(invalid(index(child(p, 'values'), j), values[j], m));
    }
  }
  return errs;
}

/** Finalizer names that need no domain prefix (helper.IsStandardFinalizerName). */
const standardFinalizers = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

function validateFinalizers(finalizers: readonly string[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (let i = 0; i < (finalizers?.length ?? 0); i++) {
    const f = finalizers![i]!;
    const p = index(path, i);
    const nameErrs = qualifiedNameErrors(f);
    for (const m of nameErrs) errs.push(invalid(p, f, m));
    if (nameErrs.length === 0 && !f.includes('/') && !standardFinalizers.has(f)) {
      errs.push(invalid(p, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  }
  return errs;
}

function validateOwnerReferences(meta: ObjectMeta, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let controller = '';
  for (const ref of meta.ownerReferences ?? []) {
    const version = (ref.apiVersion ?? '').split('/').pop() ?? '';
    if (version === '') errs.push(invalid(child(path, 'apiVersion'), ref.apiVersion ?? '', 'version must not be empty'));
    if (!ref.kind) errs.push(invalid(child(path, 'kind'), ref.kind ?? '', 'must not be empty'));
    if (!ref.name) errs.push(invalid(child(path, 'name'), ref.name ?? '', 'must not be empty'));
    if (!ref.uid) errs.push(invalid(child(path, 'uid'), ref.uid ?? '', 'must not be empty'));
    if (ref.controller) {
      const name = `${ref.kind}/${ref.name}`;
      if (controller !== '') {
        errs.push(invalid(path, meta.ownerReferences, `Only one reference can have Controller set to true. Found "true" in references for ${controller} and ${name}`));
      } else {
        controller = name;
      }
    }
  }
  return errs;
}

/**
 * ValidateObjectMeta for a create: name (or generateName) by the kind's rule, the namespace when
 * the kind is namespaced (and none otherwise), labels, annotations, owners and finalizers.
 */
export function validateObjectMeta(meta: ObjectMeta, namespaced: boolean, nameFn: NameValidator, path = 'metadata'): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.generateName) {
    for (const m of nameFn(meta.generateName, true)) errs.push(invalid(child(path, 'generateName'), meta.generateName, m));
  }
  if (!meta.name) errs.push(required(child(path, 'name'), 'name or generateName is required'));
  else for (const m of nameFn(meta.name, false)) errs.push(invalid(child(path, 'name'), meta.name, m));
  if (namespaced) {
    if (!meta.namespace) errs.push(required(child(path, 'namespace')));
    else for (const m of nameIsDNSLabel(meta.namespace, false)) errs.push(invalid(child(path, 'namespace'), meta.namespace, m));
  } else if (meta.namespace) {
    errs.push(forbidden(child(path, 'namespace'), 'not allowed on this type'));
  }
  if (meta.generation !== undefined && meta.generation < 0) errs.push(invalid(child(path, 'generation'), meta.generation, 'must be greater than or equal to 0'));
  errs.push(...validateLabels(meta.labels, child(path, 'labels')));
  errs.push(...validateAnnotations(meta.annotations, child(path, 'annotations')));
  errs.push(...validateOwnerReferences(meta, child(path, 'ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, child(path, 'finalizers')));
  return errs;
}

/** The metadata of a pod template: only labels and annotations mean something there. */
export function validateTemplateMeta(meta: ObjectMeta | undefined, path: string): FieldError[] {
  return [...validateLabels(meta?.labels, child(path, 'labels')), ...validateAnnotations(meta?.annotations, child(path, 'annotations'))];
}

/** Names that must be unique in a list (containers, volumes, ...): Duplicate from the second on. */
export function uniqueNames(names: readonly string[], pathOf: (i: number) => string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < names.length; i++) {
    const n = names[i]!;
    if (n === '') continue;
    if (seen.has(n)) errs.push(duplicate(pathOf(i), n));
    seen.add(n);
  }
  return errs;
}
