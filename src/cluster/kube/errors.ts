// What an answer of the API server or a failed connection means to a retrying client: the Status
// error with its reason, causes and Retry-After (apimachinery/pkg/api/errors), and the connection
// errors client-go sorts with utilnet.IsConnectionRefused / IsProbableEOF.
import { ApiError } from '../types.js';

export interface StatusCause {
  readonly reason?: string;
  readonly message?: string;
  readonly field?: string;
}

/** A non-2xx answer (or a watch ERROR event) carrying the server's metav1.Status. */
export class StatusError extends ApiError {
  override name = 'StatusError';
  constructor(
    code: number,
    message: string,
    readonly reason: string = '',
    readonly causes: readonly StatusCause[] = [],
    /** The answer's Retry-After header, in seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(code, message);
  }
}

interface StatusBody {
  kind?: unknown;
  code?: unknown;
  message?: unknown;
  reason?: unknown;
  details?: { causes?: unknown };
}

/** The StatusError for an HTTP answer: its Status body when it has one, else a generic message. */
export function statusErrorOf(httpCode: number, body: unknown, fallbackMessage: string, retryAfterHeader?: string): StatusError {
  const s = (body && typeof body === 'object' && (body as StatusBody).kind === 'Status' ? body : {}) as StatusBody;
  const code = typeof s.code === 'number' && s.code > 0 ? s.code : httpCode;
  const message = typeof s.message === 'string' && s.message ? s.message : fallbackMessage;
  const causes = Array.isArray(s.details?.causes) ? (s.details.causes as StatusCause[]) : [];
  // Only the header counts, as in client-go's checkWait; the body's retryAfterSeconds is advice.
  const retryAfter = retryAfterHeader !== undefined && /^\d+$/.test(retryAfterHeader.trim()) ? Number(retryAfterHeader.trim()) : undefined;
  return new StatusError(code, message, typeof s.reason === 'string' ? s.reason : '', causes, retryAfter);
}

const codeOf = (err: unknown): unknown => (err as { code?: unknown } | null)?.code;

/** 410: the resourceVersion asked for is older than the server keeps (isExpiredError). */
export const isExpired = (err: unknown): boolean => err instanceof ApiError && err.code === 410;

/** The resourceVersion asked for is newer than the server has seen, e.g. after it lost its data. */
export function isTooLargeResourceVersion(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err instanceof StatusError && err.causes.some((c) => c.reason === 'ResourceVersionTooLarge')) return true;
  if (err.code !== 504) return false;
  if (err instanceof StatusError && err.causes.some((c) => c.message === 'Too large resource version')) return true;
  return err.message.includes('Too large resource version');
}

export const isTooManyRequests = (err: unknown): boolean => err instanceof ApiError && err.code === 429;
export const isNotFound = (err: unknown): boolean => err instanceof ApiError && err.code === 404;

/** Nothing listens at the address: the server is down or restarting, so retrying the same request makes sense. */
export const isConnectionRefused = (err: unknown): boolean => !(err instanceof ApiError) && codeOf(err) === 'ECONNREFUSED';

/** The connection broke under a request or stream (the server went away or restarted). */
export function isProbableEOF(err: unknown): boolean {
  if (err instanceof ApiError) return false;
  const code = codeOf(err);
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE') return true;
  const message = err instanceof Error ? err.message : '';
  return message === 'socket hang up' || message === 'aborted';
}

/** The seconds a 429 or 5xx answer asks the client to wait before retrying (client-go's checkWait). */
export function retryAfterSeconds(err: unknown): number | undefined {
  if (!(err instanceof StatusError) || err.retryAfterSeconds === undefined) return undefined;
  return err.code === 429 || err.code >= 500 ? err.retryAfterSeconds : undefined;
}
