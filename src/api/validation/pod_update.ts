// What an update may change of a pod's spec (pkg/apis/core/validation/validation.go
// ValidatePodUpdate, validateOnlyAddedTolerations, validateOnlyDeletedSchedulingGates).
import type { Container, Pod } from '../types.js';
import { forbidden, type FieldError } from './field.js';

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

/**
 * The nomination rule of ValidatePodStatusUpdate with ClearingNominatedNodeNameAfterBinding: a
 * bound pod may keep or drop its nominatedNodeName, never get a new one.
 */
export function validatePodStatusNomination(oldPod: Pod, newPod: Pod, clearingNominatedNodeNameAfterBinding: boolean): FieldError[] {
  const next = newPod.status?.nominatedNodeName ?? '';
  if (!clearingNominatedNodeNameAfterBinding || !oldPod.spec.nodeName || next === '' || next === (oldPod.status?.nominatedNodeName ?? '')) return [];
  return [forbidden('status.nominatedNodeName', 'may not be set on pods that are already bound to a node')];
}

/** The spec rules of ValidatePodUpdate (the new pod's own validity is checked as for a create). */
export function validatePodUpdate(oldPod: Pod, newPod: Pod): FieldError[] {
  const errs: FieldError[] = [];
  const oldGates = (oldPod.spec?.schedulingGates ?? []).map((g) => g.name);
  (newPod.spec?.schedulingGates ?? []).forEach((g, i) => {
    if (!oldGates.includes(g.name)) errs.push(forbidden(`spec.schedulingGates[${i}].name`, `only deletion is allowed, but found new scheduling gate '${g.name}'`));
  });
  const a = structuredClone(oldPod.spec ?? {}) as unknown as SpecRecord;
  const b = structuredClone(newPod.spec ?? {}) as unknown as SpecRecord;
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
  if (!jsonEqual(a, b)) errs.push(forbidden('spec', podUpdateMessage));
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
  // The same object (an update giving back what is stored) needs no printing, nor do plain values.
  if (a === b) return true;
  return plainEqual(a, b) ?? printedEqual(a, b);
}

/** jsonEqual by printing both values key-sorted: the definition plainEqual must never contradict. */
export function printedEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

/**
 * jsonEqual's answer without printing both values (key-sorted JSON of a claim's allocation, each
 * time a status write re-sends one, was 2% of a shared claim's pods): true when two plain JSON values are
 * equal member by member, ignoring key order and undefined members; false when they differ as JSON;
 * undefined for anything JSON prints some other way (non-finite numbers, undefined in an array,
 * objects that are not plain), which printedEqual then decides.
 */
export function plainEqual(a: unknown, b: unknown): boolean | undefined {
  if (a === b) return typeof a === 'number' && !Number.isFinite(a) ? undefined : true;
  const ta = typeof a;
  if (ta !== typeof b || a === null || b === null) return mixedEqual(a, b);
  if (ta === 'string' || ta === 'boolean') return false;
  if (ta === 'number') return Number.isFinite(a) && Number.isFinite(b) ? false : undefined;
  if (ta !== 'object') return undefined;
  const arrayA = Array.isArray(a);
  if (arrayA !== Array.isArray(b)) return false;
  if (arrayA) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) {
      if (x[i] === undefined || y[i] === undefined) return undefined;
      const e = plainEqual(x[i], y[i]);
      if (e !== true) return e;
    }
    return true;
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return undefined;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let defined = 0;
  for (const k in x) {
    const v = x[k];
    if (v === undefined) continue;
    defined++;
    const e = plainEqual(v, y[k]);
    if (e !== true) return e;
  }
  for (const k in y) {
    const v = y[k];
    if (v === undefined) continue;
    // JSON drops these members: let printedEqual count them.
    if (typeof v === 'function' || typeof v === 'symbol') return undefined;
    defined--;
  }
  return defined === 0;
}

/** Values of different kinds (or null): different as JSON unless JSON prints one as the other. */
function mixedEqual(a: unknown, b: unknown): boolean | undefined {
  const plain = (v: unknown): boolean => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'object' && (Array.isArray(v) || isPlainObject(v)));
  return plain(a) && plain(b) ? false : undefined;
}

function isPlainObject(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}
