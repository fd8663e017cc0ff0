// How the extender client reaches an extender: one JSON POST per call, over a keep-alive agent
// (pkg/scheduler/extender.go: makeTransport, NewHTTPExtender's http.Client, send).
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createSecureContext } from 'node:tls';
import { DurationError, formatDurationNanos, parseDurationNanos } from '../util/duration.js';
import type { Extender as ExtenderConfig, ExtenderTLSConfig } from '../config/types.js';

export interface TransportResponse {
  readonly status: number;
  readonly body: string;
}

/** POSTs `body` (JSON) to `url`; rejects only when no HTTP response arrives. */
export type ExtenderTransport = (url: string, body: string) => Promise<TransportResponse>;

/** Upstream's DefaultExtenderTimeout, taken when httpTimeout is unset or zero. */
export const DefaultExtenderTimeoutNanos = 5e9;

/** The longest delay setTimeout honours; a longer timeout is treated as none. */
const maxTimerMs = 2 ** 31 - 1;

/**
 * The request timeout in nanoseconds, or null for none: Go's http.Client ignores a negative
 * timeout, and NewHTTPExtender replaces only a zero one with the default.
 */
export function extenderTimeoutNanos(cfg: ExtenderConfig): number | null {
  let nanos: number;
  try {
    nanos = parseDurationNanos(cfg.httpTimeout ?? '0');
  } catch (err) {
    if (err instanceof DurationError) throw new Error(`extender ${cfg.urlPrefix}: httpTimeout: ${err.message}`);
    throw err;
  }
  if (nanos === 0) return DefaultExtenderTimeoutNanos;
  return nanos < 0 ? null : nanos;
}

const nonEmpty = (s: string | undefined): boolean => s !== undefined && s !== '';

/** The *Data field (base64 PEM) if set, else the *File's contents, else null (dataFromSliceOrFile). */
function pemData(prefix: string, data: string | undefined, file: string | undefined, fileField: string): Buffer | null {
  if (nonEmpty(data)) {
    const bytes = Buffer.from(data!, 'base64');
    if (bytes.length > 0) return bytes;
  }
  if (!nonEmpty(file)) return null;
  try {
    return readFileSync(file!);
  } catch (err) {
    throw new Error(`extender ${prefix}: reading tlsConfig.${fileField}: ${(err as Error).message}`);
  }
}

/** Fails as client-go's rootCertPool does when the CA bundle holds no usable certificate. */
function checkRootCAs(prefix: string, pem: Buffer): void {
  const blocks = pem.toString('latin1').match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  let parseError: string | null = null;
  for (const block of blocks) {
    try {
      new X509Certificate(block);
      return;
    } catch (err) {
      parseError ??= (err as Error).message;
    }
  }
  let why = 'no valid certificate authority data seen';
  if (parseError !== null) why = `failed to parse certificate: ${parseError}`;
  else if (!pem.includes('-----BEGIN ')) why = 'unable to parse bytes as PEM block';
  throw new Error(`extender ${prefix}: unable to load root certificates: ${why}`);
}

/**
 * The TLS options of the extender's agent, or null when none is asked for (client-go's
 * TLSConfigFor). Files are read and checked now, so a bad one fails start-up.
 */
export function tlsOptionsFor(cfg: ExtenderConfig): https.AgentOptions | null {
  const prefix = cfg.urlPrefix;
  const t: ExtenderTLSConfig = cfg.tlsConfig ?? {};
  const ca = pemData(prefix, t.caData, t.caFile, 'caFile');
  const cert = pemData(prefix, t.certData, t.certFile, 'certFile');
  const key = pemData(prefix, t.keyData, t.keyFile, 'keyFile');
  const hasCA = ca !== null;
  const hasCertAuth = cert !== null && key !== null;
  // makeTransport: HTTPS without a CA to check the extender against does not verify it.
  const insecure = t.insecure === true || (cfg.enableHTTPS === true && !hasCA);
  const serverName = t.serverName ?? '';
  if (!hasCA && !hasCertAuth && !insecure && serverName === '') return null;
  if (hasCA && insecure) {
    throw new Error(`extender ${prefix}: specifying a root certificates file with the insecure flag is not allowed`);
  }
  const options: https.AgentOptions = { rejectUnauthorized: !insecure };
  if (serverName !== '') options.servername = serverName;
  // An empty bundle leaves the system roots in place, as client-go's rootCertPool does.
  if (ca !== null && ca.length > 0) {
    checkRootCAs(prefix, ca);
    options.ca = ca;
  }
  if (hasCertAuth) {
    try {
      createSecureContext({ cert: cert!, key: key! });
    } catch (err) {
      throw new Error(`extender ${prefix}: loading the client certificate and key: ${(err as Error).message}`);
    }
    options.cert = cert!;
    options.key = key!;
  }
  return options;
}

/** The transport of a real extender: http or https by the URL's scheme, TLS and timeout from `cfg`. */
export function httpTransport(cfg: ExtenderConfig): ExtenderTransport {
  const timeoutNanos = extenderTimeoutNanos(cfg);
  const timeoutMs = timeoutNanos === null || timeoutNanos / 1e6 > maxTimerMs ? null : Math.max(1, Math.ceil(timeoutNanos / 1e6));
  const timeoutMessage = timeoutMs === null ? '' : `request timed out after ${formatDurationNanos(timeoutNanos!)}`;
  const httpAgent = new http.Agent({ keepAlive: true });
  const httpsAgent = new https.Agent({ keepAlive: true, ...tlsOptionsFor(cfg) });

  return (url, body) =>
    new Promise<TransportResponse>((resolve, reject) => {
      // Errors read like Go's *url.Error: `Post "<url>": <cause>`.
      const failure = (cause: string): Error => new Error(`Post ${JSON.stringify(url)}: ${cause}`);
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        reject(failure('invalid URL'));
        return;
      }
      const secure = target.protocol === 'https:';
      if (!secure && target.protocol !== 'http:') {
        reject(failure(`unsupported protocol scheme ${JSON.stringify(target.protocol.slice(0, -1))}`));
        return;
      }

      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const fail = (cause: string): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(failure(cause));
      };
      const request = (secure ? https : http).request(
        target,
        {
          method: 'POST',
          agent: secure ? httpsAgent : httpAgent,
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', (err) => fail(err.message));
          res.on('close', () => {
            if (!res.complete) fail('connection closed before the response was complete');
          });
          res.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
          });
        },
      );
      request.on('error', (err) => fail(err.message));
      // Like http.Client.Timeout, the limit covers the whole exchange, body included.
      if (timeoutMs !== null) {
        timer = setTimeout(() => {
          fail(timeoutMessage);
          request.destroy();
        }, timeoutMs);
      }
      request.end(body);
    });
}
