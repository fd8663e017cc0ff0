// Field errors worded as apimachinery's field.Error (util/validation/field/errors.go), so
// messages read "<path>: Invalid value: -1: must be ...". Config and plugin args validation share them.
import { qualifiedNameErrors } from './labels.js';
import { formatBadValue } from './validation/field.js';

/** A validation problem at a field path, e.g. `profiles[0].pluginConfig[1].args.hardPodAffinityWeight`. */
export interface FieldError {
  readonly path: string;
  readonly message: string;
}

/** One printer of bad values for every field error: object validation's. */
export { formatBadValue, Unquoted } from './validation/field.js';

const withDetail = (body: string, detail: string | undefined): string => (detail ? `${body}: ${detail}` : body);

export function fieldInvalid(path: string, value: unknown, detail?: string): FieldError {
  return { path, message: withDetail(`Invalid value: ${formatBadValue(value)}`, detail) };
}

export function fieldRequired(path: string, detail?: string): FieldError {
  return { path, message: withDetail('Required value', detail) };
}

export function fieldDuplicate(path: string, value: unknown): FieldError {
  return { path, message: `Duplicate value: ${formatBadValue(value)}` };
}

export function fieldNotSupported(path: string, value: unknown, supported: readonly string[]): FieldError {
  const list = supported.map((s) => JSON.stringify(s)).join(', ');
  return { path, message: withDetail(`Unsupported value: ${formatBadValue(value)}`, list ? `supported values: ${list}` : undefined) };
}

export function fieldForbidden(path: string, detail?: string): FieldError {
  return { path, message: withDetail('Forbidden', detail) };
}

/** Field paths are rendered as apimachinery's field.Path, shared with the selector errors. */
export { childPath, indexPath } from './labels.js';

/** metav1validation.ValidateLabelName: one Invalid error per problem. */
export function validateLabelName(value: string, path: string): FieldError[] {
  return qualifiedNameErrors(value).map((msg) => fieldInvalid(path, value, msg));
}
