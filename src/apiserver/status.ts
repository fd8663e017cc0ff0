// metav1.Status errors with upstream's shapes and messages
// (staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go, util/validation/field/errors.go).
import { aggregateFieldErrors, fieldErrorBody, type FieldError } from '../api/validation/field.js';
import type { Resource } from './resources.js';

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: { reason?: string; message?: string; field?: string }[];
  retryAfterSeconds?: number;
}

export interface StatusObject {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** An error the embedded API server answers with a Status object and its code (the client side receives one as cluster/kube's StatusError). */
export class ServedStatusError extends Error {
  override name = 'ServedStatusError';
  constructor(readonly status: StatusObject) {
    super(status.message ?? '');
  }

  get code(): number {
    return this.status.code;
  }
}

function failure(code: number, reason: string, message: string, details?: StatusDetails): ServedStatusError {
  const status: StatusObject = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) status.details = details;
  return new ServedStatusError(status);
}

export function successStatus(code: number, details?: StatusDetails): StatusObject {
  const status: StatusObject = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code };
  if (details) status.details = details;
  return status;
}

/** "pods" for the core group, "leases.coordination.k8s.io" otherwise (schema.GroupResource.String()). */
function qualifiedResource(r: Pick<Resource, 'group' | 'name'>, subresource = ''): string {
  const name = subresource ? `${r.name}/${subresource}` : r.name;
  return r.group ? `${name}.${r.group}` : name;
}

function qualifiedKind(r: Pick<Resource, 'group' | 'kind'>): string {
  return r.group ? `${r.kind}.${r.group}` : r.kind;
}

export function notFound(r: Pick<Resource, 'group' | 'name'>, name: string): ServedStatusError {
  return failure(404, 'NotFound', `${qualifiedResource(r)} "${name}" not found`, { name, group: r.group, kind: r.name });
}

export function alreadyExists(r: Pick<Resource, 'group' | 'name'>, name: string): ServedStatusError {
  return failure(409, 'AlreadyExists', `${qualifiedResource(r)} "${name}" already exists`, { name, group: r.group, kind: r.name });
}

export function conflict(r: Pick<Resource, 'group' | 'name'>, name: string, why: string, subresource = ''): ServedStatusError {
  return failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(r, subresource)} "${name}": ${why}`,
    { name, group: r.group, kind: subresource ? `${r.name}/${subresource}` : r.name });
}

/** The message storage gives an update whose resourceVersion is not the stored one. */
export const OptimisticLockErrorMsg = 'the object has been modified; please apply your changes to the latest version and try again';

export function badRequest(message: string): ServedStatusError {
  return failure(400, 'BadRequest', message);
}

export function methodNotSupported(r: Pick<Resource, 'group' | 'name'>, action: string): ServedStatusError {
  return failure(405, 'MethodNotAllowed', `${action} is not supported on resources of kind "${qualifiedResource(r)}"`, { group: r.group, kind: r.name });
}

export function expired(message: string): ServedStatusError {
  return failure(410, 'Expired', message);
}

export function unsupportedMediaType(accepted: readonly string[]): ServedStatusError {
  return failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
}

export function tooLargeResourceVersion(rv: number, current: number): ServedStatusError {
  return failure(504, 'Timeout', `Timeout: Too large resource version: ${rv}, current: ${current}`,
    { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
}

export function internalError(message: string): ServedStatusError {
  return failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}

/** The route exists on no resource (the mux's 404 page, as JSON). */
export function pathNotFound(): ServedStatusError {
  return failure(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** Maps an error of the embedded store (ApiError code and message) onto a Status. */
export function fromStoreError(code: number, message: string): ServedStatusError {
  const reasons: Record<number, string> = { 400: 'BadRequest', 404: 'NotFound', 409: 'Conflict', 410: 'Expired', 422: 'Invalid', 429: 'TooManyRequests', 500: 'InternalError', 503: 'ServiceUnavailable', 504: 'Timeout' };
  return failure(code, reasons[code] ?? '', message);
}

// ---- field.ErrorList ----

export type { FieldError } from '../api/validation/field.js';

/** 403 Forbidden, as admission refuses an object (errors.NewForbidden). */
export function forbidden(r: Pick<Resource, 'group' | 'name'>, name: string, reason: string): ServedStatusError {
  return failure(403, 'Forbidden', `${qualifiedResource(r)} "${name}" is forbidden: ${reason}`, { name, group: r.group, kind: r.name });
}

/** 422 Invalid with one cause per field error (errors.NewInvalid). */
export function invalid(r: Pick<Resource, 'group' | 'kind'>, name: string, errs: readonly FieldError[]): ServedStatusError {
  return failure(422, 'Invalid', `${qualifiedKind(r)} "${name}" is invalid: ${aggregateFieldErrors(errs)}`, {
    name,
    group: r.group,
    kind: r.kind,
    causes: errs.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field })),
  });
}
