// Workload controllers as the API server validates them: what the scheduler reads of them is their
// selector and pod template (pkg/apis/apps/validation/validation.go, pkg/apis/batch/validation/
// validation.go, ValidateReplicationController in pkg/apis/core/validation).
import { Selector, SelectorError } from '../labels.js';
import type { LabelSelector, ObjectMeta, PodSpec } from '../types.js';
import { child, invalid, notSupported, required, forbidden, type FieldError } from './field.js';
import { nameIsDNSSubdomain, validateLabelSelector, validateLabels, validateObjectMeta, validateTemplateMeta } from './meta.js';
import { validatePodSpec } from './pod.js';
import { validatePersistentVolumeClaimSpec } from './volumes.js';

interface Template {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

interface WorkloadSpec {
  replicas?: number;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  selector?: LabelSelector | Record<string, string>;
  template?: Template;
  [field: string]: unknown;
}

interface Workload {
  metadata?: ObjectMeta;
  spec?: WorkloadSpec;
}

function nonNegative(value: number | undefined, path: string): FieldError[] {
  return value !== undefined && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** ValidatePodTemplateSpec: the template's labels, annotations and pod spec. */
function validateTemplate(t: Template, path: string): FieldError[] {
  return [...validateTemplateMeta(t.metadata, child(path, 'metadata')), ...validatePodSpec(t.spec ?? ({} as PodSpec), null, child(path, 'spec'), { resourceIsPod: false })];
}

/** The selector must select the template's pods, or the controller would never own them. */
function selectorMatchesTemplate(selector: Selector, t: Template, path: string): FieldError[] {
  if (selector.isEverything || selector.matches(t.metadata?.labels)) return [];
  return [invalid(child(child(path, 'metadata'), 'labels'), t.metadata?.labels ?? {}, '`selector` does not match template `labels`')];
}

/** An apps/v1 selector: required, not empty, valid, and matching the template. */
function validateAppsSelector(spec: WorkloadSpec, path: string, kind: string): FieldError[] {
  const sel = spec.selector as LabelSelector | undefined;
  if (!sel) return [required(child(path, 'selector'))];
  const errs = validateLabelSelector(sel, child(path, 'selector'));
  if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
    errs.push(invalid(child(path, 'selector'), sel, `empty selector is invalid for ${kind}`));
  }
  if (errs.length > 0 || !spec.template) return errs;
  try {
    errs.push(...selectorMatchesTemplate(Selector.compile(sel), spec.template, child(path, 'template')));
  } catch (err) {
    if (!(err instanceof SelectorError)) throw err;
    errs.push(invalid(child(path, 'selector'), sel, `invalid label selector: ${err.message}`));
  }
  return errs;
}

/** The template a long-running controller needs: present, restartPolicy Always, no deadline. */
function validateServingTemplate(t: Template | undefined, path: string, kind: string): FieldError[] {
  if (!t) return [required(path)];
  const errs = validateTemplate(t, path);
  const restart = t.spec?.restartPolicy ?? 'Always';
  if (restart !== 'Always') errs.push(notSupported(child(child(path, 'spec'), 'restartPolicy'), restart, ['Always']));
  if (t.spec?.activeDeadlineSeconds !== undefined) errs.push(forbidden(child(child(path, 'spec'), 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kind} is not Supported`));
  return errs;
}

function validateCommonSpec(spec: WorkloadSpec): FieldError[] {
  return [
    ...nonNegative(spec.replicas, 'spec.replicas'),
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
  ];
}

/** ReplicaSet, Deployment, DaemonSet and StatefulSet. */
export function validateAppsWorkload(kind: 'ReplicaSet' | 'Deployment' | 'DaemonSet' | 'StatefulSet', w: Workload): FieldError[] {
  const spec = w.spec ?? {};
  const errs = [...validateObjectMeta(w.metadata ?? {}, true, nameIsDNSSubdomain), ...validateCommonSpec(spec)];
  errs.push(...validateAppsSelector(spec, 'spec', kind === 'ReplicaSet' ? 'deployment' : kind.toLowerCase()));
  errs.push(...validateServingTemplate(spec.template, 'spec.template', kind));
  if (kind === 'StatefulSet') {
    const policy = spec.podManagementPolicy as string | undefined;
    if (policy !== undefined && policy !== 'OrderedReady' && policy !== 'Parallel') errs.push(notSupported('spec.podManagementPolicy', policy, ['OrderedReady', 'Parallel']));
    const claims = (spec.volumeClaimTemplates as { metadata?: ObjectMeta; spec?: object }[] | undefined) ?? [];
    claims.forEach((c, i) => errs.push(...validatePersistentVolumeClaimSpec(c.spec ?? {}, `spec.volumeClaimTemplates[${i}].spec`)));
  }
  return errs;
}

/** ValidateReplicationController: a map selector that is not empty and matches the template. */
export function validateReplicationController(rc: Workload): FieldError[] {
  const spec = rc.spec ?? {};
  const errs = [...validateObjectMeta(rc.metadata ?? {}, true, nameIsDNSSubdomain), ...validateCommonSpec(spec)];
  const sel = (spec.selector ?? {}) as Record<string, string>;
  errs.push(...validateLabels(sel, 'spec.selector'));
  if (Object.keys(sel).length === 0) errs.push(required('spec.selector'));
  errs.push(...validateServingTemplate(spec.template, 'spec.template', 'ReplicationController'));
  if (spec.template && Object.keys(sel).length > 0) errs.push(...selectorMatchesTemplate(Selector.fromSet(sel), spec.template, 'spec.template'));
  return errs;
}

/** ValidateJob: counts not negative, a run-to-completion restart policy, the selector when manual. */
export function validateJob(job: Workload): FieldError[] {
  const spec = job.spec ?? {};
  const errs = validateObjectMeta(job.metadata ?? {}, true, nameIsDNSSubdomain);
  for (const field of ['parallelism', 'completions', 'backoffLimit'] as const) errs.push(...nonNegative(spec[field] as number | undefined, `spec.${field}`));
  const deadline = spec.activeDeadlineSeconds as number | undefined;
  if (deadline !== undefined && deadline <= 0) errs.push(invalid('spec.activeDeadlineSeconds', deadline, 'must be greater than zero'));
  if (spec.manualSelector) errs.push(...validateAppsSelector(spec, 'spec', 'job'));
  else if (spec.selector) errs.push(...validateLabelSelector(spec.selector as LabelSelector, 'spec.selector'));
  if (!spec.template) return [...errs, required('spec.template')];
  errs.push(...validateTemplate(spec.template, 'spec.template'));
  const restart = spec.template.spec?.restartPolicy ?? 'Always';
  if (restart !== 'OnFailure' && restart !== 'Never') errs.push(notSupported('spec.template.spec.restartPolicy', restart, ['OnFailure', 'Never']));
  errs.push(...validateJobGang(spec));
  return errs;
}

/** spec.scheduling's gang (WorkloadWithJob): a stated minCount is at least 1 and at most parallelism (validateGangMinCount). */
function validateJobGang(spec: NonNullable<Workload['spec']>): FieldError[] {
  const scheduling = spec.scheduling as { schedulingPolicy?: { gang?: { minCount?: number } } } | undefined;
  const minCount = scheduling?.schedulingPolicy?.gang?.minCount;
  if (minCount === undefined || minCount === null) return [];
  const path = 'spec.scheduling.schedulingPolicy.gang.minCount';
  if (minCount < 1) return [invalid(path, minCount, 'must be greater than or equal to 1')];
  const parallelism = (spec.parallelism as number | undefined) ?? 1;
  return minCount > parallelism ? [invalid(path, minCount, `must not be greater than parallelism (${parallelism})`)] : [];
}
