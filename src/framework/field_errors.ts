// Field errors worded as apimachinery's field.Error (util/validation/field/errors.go), so
// messages read "<path>: Invalid value: -1: must be ...". Config and plugin args validation share them.
import { qualifiedNameErrors } from '../api/labels.js';
import type { FieldError } from './registry.js';

/** A bad value printed as is (Go prints fmt.Stringer values such as durations unquoted). */
export class Unquoted {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** Prints a bad value the way field.Error does: strings quoted, numbers and booleans plain. */
export function formatBadValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Unquoted) return value.text;
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    default:
      return JSON.stringify(value) ?? String(value);
  }
}

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
export { childPath, indexPath } from '../api/labels.js';

/** metav1validation.ValidateLabelName: one Invalid error per problem. */
export function validateLabelName(value: string, path: string): FieldError[] {
  return qualifiedNameErrors(value).map((msg) => fieldInvalid(path, value, msg));
}
