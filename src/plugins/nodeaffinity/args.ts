// NodeAffinityArgs: shape, defaulting and validation (apis/config/types_pluginargs.go,
// validation/validation_pluginargs.go ValidateNodeAffinityArgs).
import type { NodeAffinity } from '../../api/types.js';
import type { FieldError } from '../../framework/registry.js';
import { childPath } from '../../api/field_errors.js';
import { validateNodeSelector, validatePreferredSchedulingTerms } from './validation.js';

export interface NodeAffinityArgs {
  /** Node affinity the scheduler adds to every pod of the profile; null when none. */
  readonly addedAffinity: NodeAffinity | null;
}

const allowedFields = ['apiVersion', 'kind', 'addedAffinity'];

/** NodeAffinityArgs has no defaults; this checks the shape and drops apiVersion/kind. */
export function defaultNodeAffinityArgs(given: Record<string, unknown>): NodeAffinityArgs {
  for (const k of Object.keys(given)) {
    if (!allowedFields.includes(k)) throw new Error(`NodeAffinityArgs: unknown field "${k}"`);
  }
  const added = given.addedAffinity;
  if (added === undefined || added === null) return { addedAffinity: null };
  if (typeof added !== 'object' || Array.isArray(added)) {
    throw new Error(`NodeAffinityArgs: addedAffinity: expected an object, got ${JSON.stringify(added)}`);
  }
  return { addedAffinity: added as NodeAffinity };
}

/** Every parse error of the added affinity, with its field path under `path`. */
export function validateNodeAffinityArgs(args: NodeAffinityArgs, path: string): FieldError[] {
  const affinity = args.addedAffinity;
  if (affinity === null) return [];
  const base = childPath(path, 'addedAffinity');
  const errs: FieldError[] = [];
  const required = affinity.requiredDuringSchedulingIgnoredDuringExecution;
  if (required) errs.push(...validateNodeSelector(required, childPath(base, 'requiredDuringSchedulingIgnoredDuringExecution')));
  const preferred = affinity.preferredDuringSchedulingIgnoredDuringExecution;
  if (preferred && preferred.length > 0) {
    errs.push(...validatePreferredSchedulingTerms(preferred, childPath(base, 'preferredDuringSchedulingIgnoredDuringExecution')));
  }
  return errs;
}
