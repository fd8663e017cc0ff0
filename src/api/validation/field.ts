// Field errors as apimachinery builds and prints them (util/validation/field/errors.go, path.go):
// "<path>: Invalid value: -1: must be ...". Object validation, the API server's Status causes,
// configuration and plugin-args validation all render through this one module.
import { goQuote } from '../labels.js';

type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'InternalError';

export interface FieldError {
  readonly type: FieldErrorType;
  /** The field path as field.Path prints it: `spec.containers[0].resources.requests[cpu]`. */
  readonly field: string;
  /** The bad value; `undefined` leaves it out, `null` prints as null (Go's nil). */
  readonly value?: unknown;
  readonly detail?: string;
}

/** A bad value printed as is, the way Go prints a value with a String method. */
export class Unquoted {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const typeText: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
  InternalError: 'Internal error',
};

/** Types whose body never shows the value (field.Error.ErrorBody). */
const valueless = new Set<FieldErrorType>(['FieldValueRequired', 'FieldValueForbidden', 'FieldValueTooLong', 'InternalError']);

/** Long values (a whole object given where a string belongs) are cut, so a message stays one line. */
const maxValueText = 120;

/** Prints a bad value the way field.Error does: strings quoted, numbers and booleans plain. */
export function formatBadValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Unquoted) return value.text;
  switch (typeof value) {
    case 'string':
      return goQuote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : value > 0 ? '+Inf' : value < 0 ? '-Inf' : 'NaN';
    case 'boolean':
    case 'bigint':
      return String(value);
    default: {
      let text: string;
      try {
        text = JSON.stringify(value) ?? String(value);
      } catch {
        text = Array.isArray(value) ? '[...]' : '{...}';
      }
      return text.length > maxValueText ? `${text.slice(0, maxValueText)}...` : text;
    }
  }
}

/** The part after "<path>: " (field.Error.ErrorBody). */
export function fieldErrorBody(e: FieldError): string {
  let s = typeText[e.type];
  if (!valueless.has(e.type) && e.value !== undefined) s += `: ${formatBadValue(e.value)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

/** field.Error.Error(): "<path>: <body>". */
export function fieldErrorString(e: FieldError): string {
  return e.field === '' ? fieldErrorBody(e) : `${e.field}: ${fieldErrorBody(e)}`;
}

/** ErrorList.ToAggregate().Error(): one message as is, several deduplicated in brackets. */
export function aggregateFieldErrors(errs: readonly FieldError[]): string {
  const seen: string[] = [];
  for (const e of errs) {
    const m = fieldErrorString(e);
    if (!seen.includes(m)) seen.push(m);
  }
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}

// ---- constructors (field.Invalid, field.Required, ...)

export function invalid(field: string, value: unknown, detail?: string): FieldError {
  return { type: 'FieldValueInvalid', field, value: value ?? null, detail };
}

export function required(field: string, detail?: string): FieldError {
  return { type: 'FieldValueRequired', field, detail };
}

export function forbidden(field: string, detail?: string): FieldError {
  return { type: 'FieldValueForbidden', field, detail };
}

export function duplicate(field: string, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field, value: value ?? null };
}

export function notFound(field: string, value: unknown, detail?: string): FieldError {
  return { type: 'FieldValueNotFound', field, value: value ?? null, detail };
}

/** field.NotSupported: the detail lists the supported values, quoted. */
export function notSupported(field: string, value: unknown, supported: readonly string[]): FieldError {
  const detail = supported.length > 0 ? `supported values: ${supported.map((s) => goQuote(s)).join(', ')}` : undefined;
  return { type: 'FieldValueNotSupported', field, value: value ?? null, detail };
}

export function tooLong(field: string, max: number): FieldError {
  return { type: 'FieldValueTooLong', field, detail: `may not be more than ${max} bytes` };
}

/** A value of the wrong JSON type where the API decodes a typed field. */
export function typeInvalid(field: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueTypeInvalid', field, value: value ?? null, detail };
}

// ---- field.Path

export function child(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

export function index(path: string, i: number): string {
  return `${path}[${i}]`;
}

/** field.Path.Key: map keys print in brackets, unquoted. */
export function key(path: string, k: string): string {
  return `${path}[${k}]`;
}
