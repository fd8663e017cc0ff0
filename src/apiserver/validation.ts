// The validation the embedded API server applies on create and update: object names, the pod
// fields the scheduler relies on, and pod spec immutability
// (pkg/apis/core/validation/validation.go ValidateObjectMeta, ValidatePod, ValidatePodUpdate).
import type { Container, KubeObject, Pod } from '../api/types.js';
import type { FieldError } from './status.js';

const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const labelMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

function nameErrors(value: string, field: string, label: boolean): FieldError[] {
  const max = label ? 63 : 253;
  const out: FieldError[] = [];
  if (value.length > max) out.push({ type: 'FieldValueInvalid', field, value, detail: `must be no more than ${max} characters` });
  if (!(label ? dns1123Label : dns1123Subdomain).test(value)) out.push({ type: 'FieldValueInvalid', field, value, detail: label ? labelMsg : subdomainMsg });
  return out;
}

/** Kinds whose names are DNS labels; the others take DNS subdomains; events take any path segment. */
const labelNamedKinds = new Set(['Namespace', 'Service']);

export function validateObjectMeta(kind: string, obj: KubeObject): FieldError[] {
  const name = obj.metadata?.name ?? '';
  if (name === '') return [{ type: 'FieldValueRequired', field: 'metadata.name', detail: 'name or generateName is required' }];
  if (kind === 'Event') {
    return name === '.' || name === '..' || name.includes('/') || name.includes('%')
      ? [{ type: 'FieldValueInvalid', field: 'metadata.name', value: name, detail: 'may not contain \'/\' or \'%\'' }]
      : [];
  }
  return nameErrors(name, 'metadata.name', labelNamedKinds.has(kind));
}

function containerErrors(list: Container[] | undefined, field: string, required: boolean): FieldError[] {
  const out: FieldError[] = [];
  if (required && (!list || list.length === 0)) return [{ type: 'FieldValueRequired', field }];
  const seen = new Set<string>();
  (list ?? []).forEach((c, i) => {
    const f = `${field}[${i}]`;
    if (!c.name) out.push({ type: 'FieldValueRequired', field: `${f}.name` });
    else if (seen.has(c.name)) out.push({ type: 'FieldValueDuplicate', field: `${f}.name`, value: c.name });
    else out.push(...nameErrors(c.name, `${f}.name`, true));
    seen.add(c.name ?? '');
    if (!c.image) out.push({ type: 'FieldValueRequired', field: `${f}.image` });
  });
  return out;
}

export function validatePod(pod: Pod): FieldError[] {
  return [...containerErrors(pod.spec?.containers, 'spec.containers', true), ...containerErrors(pod.spec?.initContainers, 'spec.initContainers', false)];
}

const podUpdateMessage = 'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

type SpecRecord = Record<string, unknown>;

/** Requests default to limits on decode; an update's containers get the same before comparing. */
function defaultRequests(containers: Container[] | undefined): void {
  for (const c of containers ?? []) {
    const limits = c.resources?.limits;
    if (!limits) continue;
    c.resources!.requests ??= {};
    for (const [k, v] of Object.entries(limits)) if (c.resources!.requests[k] === undefined) c.resources!.requests[k] = v;
  }
}

/**
 * Fills what the update omits from the stored spec (the fields defaulting and admission set), so a
 * client that sends back a spec without them does not change them.
 */
export function defaultPodUpdate(oldPod: Pod, newPod: Pod): void {
  const oldSpec = oldPod.spec as unknown as SpecRecord;
  const newSpec = newPod.spec as unknown as SpecRecord;
  if (!newSpec) return;
  for (const [k, v] of Object.entries(oldSpec)) if (newSpec[k] === undefined && k !== 'activeDeadlineSeconds' && k !== 'schedulingGates') newSpec[k] = v;
  defaultRequests(newPod.spec.containers);
  defaultRequests(newPod.spec.initContainers);
}

/** What a pod update may change of the spec (ValidatePodUpdate, PodSchedulingReadiness). */
export function validatePodUpdate(oldPod: Pod, newPod: Pod): FieldError[] {
  const errs: FieldError[] = [];
  const oldGates = (oldPod.spec.schedulingGates ?? []).map((g) => g.name);
  for (const g of newPod.spec.schedulingGates ?? []) {
    if (!oldGates.includes(g.name)) errs.push({ type: 'FieldValueForbidden', field: 'spec.schedulingGates', detail: `only deletion is allowed, but found new scheduling gate '${g.name}'` });
  }
  const a = structuredClone(oldPod.spec) as unknown as SpecRecord;
  const b = structuredClone(newPod.spec) as unknown as SpecRecord;
  for (const s of [a, b]) {
    for (const c of (s.containers as Container[] | undefined) ?? []) c.image = '';
    for (const c of (s.initContainers as Container[] | undefined) ?? []) c.image = '';
    delete s.activeDeadlineSeconds;
    delete s.terminationGracePeriodSeconds;
    delete s.schedulingGates;
  }
  // Tolerations may only be added: a superset of the old ones compares as the old ones.
  const newTolerations = (b.tolerations as unknown[] | undefined) ?? [];
  const oldTolerations = (a.tolerations as unknown[] | undefined) ?? [];
  if (oldTolerations.every((t) => newTolerations.some((n) => jsonEqual(n, t)))) b.tolerations = a.tolerations;
  if (oldGates.length > 0) {
    b.nodeSelector = a.nodeSelector;
    b.affinity = a.affinity;
  }
  if (JSON.stringify(sortKeys(a)) !== JSON.stringify(sortKeys(b))) errs.push({ type: 'FieldValueForbidden', field: 'spec', detail: podUpdateMessage });
  return errs;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined) out[k] = sortKeys(x);
  }
  return out;
}

/** Deep equality of two JSON values, ignoring key order and undefined members. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}
