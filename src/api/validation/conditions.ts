// metav1 Conditions as apimachinery's ValidateConditions checks them
// (staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go).
import type { CompositePodGroup, PodGroup } from '../scheduling.js';
import { child, duplicate, index, invalid, notSupported, required, tooLong, type FieldError } from './field.js';
import { validateLabelName } from './meta.js';

interface ConditionView {
  readonly type?: string;
  readonly status?: string;
  readonly observedGeneration?: number;
  readonly lastTransitionTime?: string;
  readonly reason?: string;
  readonly message?: string;
}

const reasonPattern = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;
const reasonMessage = "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')";

function validateCondition(c: ConditionView, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!c.type) errs.push(required(child(path, 'type'), 'is required'));
  else errs.push(...validateLabelName(c.type, child(path, 'type')));
  if (!c.status) errs.push(required(child(path, 'status')));
  else if (c.status !== 'True' && c.status !== 'False' && c.status !== 'Unknown') errs.push(notSupported(child(path, 'status'), c.status, ['False', 'True', 'Unknown']));
  if ((c.observedGeneration ?? 0) < 0) errs.push(invalid(child(path, 'observedGeneration'), c.observedGeneration, 'must be greater than or equal to zero'));
  if (!c.lastTransitionTime) errs.push(required(child(path, 'lastTransitionTime')));
  if (!c.reason) {
    errs.push(required(child(path, 'reason')));
  } else {
    if (!reasonPattern.test(c.reason)) errs.push(invalid(child(path, 'reason'), c.reason, reasonMessage));
    if (Buffer.byteLength(c.reason) > 1024) errs.push(tooLong(child(path, 'reason'), 1024));
  }
  if (Buffer.byteLength(c.message ?? '') > 32 * 1024) errs.push(tooLong(child(path, 'message'), 32 * 1024));
  return errs;
}

function validateConditions(conditions: readonly ConditionView[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const at = index(path, i);
    if (seen.has(c.type ?? '')) errs.push(duplicate(at, c.type));
    else seen.add(c.type ?? '');
    errs.push(...validateCondition(c, at));
  });
  return errs;
}

/** ValidateCompositePodGroupStatusUpdate: the conditions only. */
export function validateCompositePodGroupStatusUpdate(_old: CompositePodGroup, cpg: CompositePodGroup): FieldError[] {
  return validateConditions(cpg.status?.conditions, 'status.conditions');
}

/** ValidatePodGroupStatusUpdate beyond metadata: the conditions, and claim statuses naming the spec's claims. */
export function validatePodGroupStatusUpdate(_oldPg: PodGroup, pg: PodGroup): FieldError[] {
  const errs = validateConditions(pg.status?.conditions, 'status.conditions');
  const claims = new Set((pg.spec.resourceClaims ?? []).map((c) => c.name));
  (pg.status?.resourceClaimStatuses ?? []).forEach((s, i) => {
    if (!claims.has(s.name)) errs.push(invalid(`status.resourceClaimStatuses[${i}].name`, s.name, 'must match the name of an entry in `spec.resourceClaims`'));
  });
  return errs;
}
