// The REST transport to kube-apiserver: JSON requests and streaming watches, authenticated from a
// kubeconfig (or the in-cluster service account) through @kubernetes/client-node's KubeConfig, and
// throttled by a client-side rate limiter as client-go's rest client (rest/request.go).
import * as http from 'node:http';
import * as https from 'node:https';
import { createInterface } from 'node:readline';
import { KubeConfig } from '@kubernetes/client-node';
import { ApiError } from '../types.js';
import { unlimited, type RateLimiter } from './rate_limiter.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestRequest {
  readonly method: HttpMethod;
  readonly path: string;
  readonly query?: Readonly<Record<string, string | undefined>>;
  readonly body?: unknown;
  /** Content type of the body; JSON unless a patch type is named. */
  readonly contentType?: string;
  /** Aborts the request after this long (ms); none when unset. */
  readonly timeoutMs?: number;
}

/** One line of a watch stream. */
export interface RawWatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: Record<string, unknown>;
}

export interface WatchHandle {
  close(): void;
}

export interface RestTransport {
  /** Sends a request; resolves with the decoded body of a 2xx answer, rejects with ApiError otherwise. */
  request<T = unknown>(req: RestRequest): Promise<T>;
  /**
   * Opens a watch. `onEvent` gets each event; `onClose` is called once when the stream ends: with
   * null when the server closed it, or the error (an ApiError for a non-200 answer).
   */
  watch(path: string, query: Readonly<Record<string, string | undefined>>, onEvent: (e: RawWatchEvent) => void, onClose: (err: Error | null) => void): WatchHandle;
}

/** A metav1.Status error body's message and code, when the body is one. */
export function statusFromBody(body: unknown): { code?: number; message?: string; reason?: string } {
  if (body && typeof body === 'object' && (body as { kind?: unknown }).kind === 'Status') {
    const s = body as { code?: number; message?: string; reason?: string };
    return { code: s.code, message: s.message, reason: s.reason };
  }
  return {};
}

function buildQuery(query: Readonly<Record<string, string | undefined>> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, v);
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** Loads a kubeconfig file, or the in-cluster service-account config when `path` is empty. */
export function loadKubeConfig(path: string, masterOverride?: string): KubeConfig {
  const kc = new KubeConfig();
  if (path) {
    kc.loadFromFile(path);
  } else {
    const host = process.env.KUBERNETES_SERVICE_HOST;
    const port = process.env.KUBERNETES_SERVICE_PORT;
    if (!host || !port) {
      if (!masterOverride) {
        throw new Error('unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined');
      }
      kc.loadFromOptions({
        clusters: [{ name: 'master', server: masterOverride, skipTLSVerify: masterOverride.startsWith('http:') }],
        users: [{ name: 'anonymous' }],
        contexts: [{ name: 'master', cluster: 'master', user: 'anonymous' }],
        currentContext: 'master',
      });
      return kc;
    }
    kc.loadFromCluster();
  }
  if (masterOverride) {
    const cluster = kc.getCurrentCluster();
    if (cluster) {
      kc.loadFromOptions({
        clusters: kc.clusters.map((c) => (c.name === cluster.name ? { ...c, server: masterOverride } : c)),
        users: kc.users,
        contexts: kc.contexts,
        currentContext: kc.currentContext,
      });
    }
  }
  return kc;
}

export interface HttpTransportOptions {
  limiter?: RateLimiter;
  userAgent?: string;
  /** Default per-request timeout (ms); the leader-election client uses renewDeadline/2. */
  timeoutMs?: number;
}

/** Requests over node:http(s) with the kubeconfig's server, TLS material and credentials. */
export class HttpTransport implements RestTransport {
  private readonly server: URL;
  private readonly mod: typeof http | typeof https;
  private readonly agent: http.Agent;
  private readonly kc: KubeConfig;
  private readonly limiter: RateLimiter;
  private readonly userAgent: string;
  private readonly open = new Set<http.ClientRequest>();

  constructor(kc: KubeConfig, private readonly opts: HttpTransportOptions = {}) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster');
    this.server = new URL(cluster.server);
    const plain = this.server.protocol === 'http:';
    // client-node refuses plain HTTP unless TLS verification is off; over http it means nothing.
    this.kc = plain && !cluster.skipTLSVerify ? withSkipTLSVerify(kc) : kc;
    this.mod = plain ? http : https;
    this.agent = plain ? new http.Agent({ keepAlive: true }) : new https.Agent({ keepAlive: true });
    this.limiter = opts.limiter ?? unlimited;
    this.userAgent = opts.userAgent ?? 'kube-scheduler-ts';
  }

  /** TLS material and credentials for one request (tokens may rotate, so asked each time). */
  private async requestOptions(method: string, headers: Record<string, string>): Promise<https.RequestOptions> {
    const o: https.RequestOptions = {};
    await this.kc.applyToHTTPSOptions(o);
    const out: https.RequestOptions = {
      method,
      agent: this.agent,
      headers: { ...(o.headers as Record<string, string> | undefined), ...headers, 'User-Agent': this.userAgent },
    };
    if (o.auth) out.auth = o.auth;
    if (this.mod === https) {
      out.ca = o.ca;
      out.cert = o.cert;
      out.key = o.key;
      out.pfx = o.pfx;
      out.passphrase = o.passphrase;
      out.servername = o.servername;
      if (o.rejectUnauthorized !== undefined) out.rejectUnauthorized = o.rejectUnauthorized;
    }
    return out;
  }

  private url(path: string, query: Readonly<Record<string, string | undefined>> | undefined): URL {
    const base = this.server.pathname.replace(/\/$/, '');
    return new URL(`${base}${path}${buildQuery(query)}`, this.server);
  }

  async request<T = unknown>(req: RestRequest): Promise<T> {
    await this.limiter.wait();
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (payload !== undefined) {
      headers['Content-Type'] = req.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    const options = await this.requestOptions(req.method, headers);
    const url = this.url(req.path, req.query);
    const timeoutMs = req.timeoutMs ?? this.opts.timeoutMs;
    return new Promise<T>((resolve, reject) => {
      const r = this.mod.request(url, options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          this.open.delete(r);
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: keep the text for the error message
          }
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) {
            resolve(body as T);
            return;
          }
          const s = statusFromBody(body);
          reject(new ApiError(status, s.message ?? (typeof body === 'string' && body ? body : `${req.method} ${req.path}: HTTP ${status}`)));
        });
      });
      this.open.add(r);
      r.on('error', (err) => {
        this.open.delete(r);
        reject(err);
      });
      if (timeoutMs) {
        r.setTimeout(timeoutMs, () => r.destroy(new Error(`${req.method} ${req.path}: timed out after ${timeoutMs}ms`)));
      }
      if (payload !== undefined) r.write(payload);
      r.end();
    });
  }

  watch(path: string, query: Readonly<Record<string, string | undefined>>, onEvent: (e: RawWatchEvent) => void, onClose: (err: Error | null) => void): WatchHandle {
    let closed = false;
    let req: http.ClientRequest | undefined;
    const finish = (err: Error | null) => {
      if (closed) return;
      closed = true;
      if (req) this.open.delete(req);
      req?.destroy();
      onClose(err);
    };
    void this.requestOptions('GET', { Accept: 'application/json' }).then(
      (options) => {
        if (closed) return;
        req = this.mod.request(this.url(path, { ...query, watch: 'true' }), options, (res) => {
          const status = res.statusCode ?? 0;
          if (status !== 200) {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              let message = `watch ${path}: HTTP ${status}`;
              try {
                message = statusFromBody(JSON.parse(Buffer.concat(chunks).toString('utf8'))).message ?? message;
              } catch {
                // keep the generic message
              }
              finish(new ApiError(status, message));
            });
            res.on('error', (e) => finish(e));
            return;
          }
          const lines = createInterface({ input: res, crlfDelay: Infinity });
          lines.on('error', (e) => finish(e));
          lines.on('line', (line) => {
            if (closed || !line.trim()) return;
            let ev: RawWatchEvent;
            try {
              ev = JSON.parse(line) as RawWatchEvent;
            } catch {
              finish(new Error(`watch ${path}: undecodable event`));
              return;
            }
            onEvent(ev);
          });
          res.on('error', (e) => finish(e));
          res.on('close', () => finish(null));
        });
        this.open.add(req);
        req.on('error', (e) => finish(e));
        req.end();
      },
      (err: Error) => finish(err),
    );
    return { close: () => finish(null) };
  }

  /** Aborts every request in flight and frees idle connections. */
  destroy(): void {
    for (const r of this.open) r.destroy();
    this.open.clear();
    this.agent.destroy();
  }
}

function withSkipTLSVerify(kc: KubeConfig): KubeConfig {
  const out = new KubeConfig();
  const current = kc.getCurrentCluster()?.name;
  out.loadFromOptions({
    clusters: kc.clusters.map((c) => (c.name === current ? { ...c, skipTLSVerify: true } : c)),
    users: kc.users,
    contexts: kc.contexts,
    currentContext: kc.currentContext,
  });
  return out;
}
