// The scheduler's HTTP endpoints: /healthz, /livez, /readyz with named checks, each also at
// /<path>/<check>, and /metrics (k8s.io/apiserver/pkg/server/healthz; cmd/kube-scheduler/app/server.go
// newEndpointsHandler). `run` serves them over HTTPS behind delegated authentication and
// authorization (secure_serving.ts); plain HTTP is for in-process tests and embedding.
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log/logger.js';
import type { SchedulerMetrics } from './metrics.js';

export interface HealthCheck {
  readonly name: string;
  /** null when healthy. */
  check(): Error | null;
}

/** Always healthy: the check an endpoint gets when it has none (healthz.PingHealthz). */
const pingCheck: HealthCheck = { name: 'ping', check: () => null };

export interface EndpointsOptions {
  metrics: SchedulerMetrics;
  healthz?: HealthCheck[];
  livez?: HealthCheck[];
  readyz?: HealthCheck[];
  log?: Logger;
}

interface Reply {
  status: number;
  body: string;
  contentType?: string;
}

const textPlain = 'text/plain; charset=utf-8';

/** The root of one health endpoint: every check, `?exclude=` names skipped, `?verbose` lists them. */
function healthRoot(name: string, checks: readonly HealthCheck[], query: URLSearchParams, log: Logger | undefined): Reply {
  const excluded = new Set(query.getAll('exclude'));
  let out = '';
  const failed: string[] = [];
  for (const c of checks) {
    if (excluded.delete(c.name)) {
      out += `[+]${c.name} excluded: ok\n`;
      continue;
    }
    const err = c.check();
    if (err) {
      // The reason stays out of the public answer; it goes to the log.
      out += `[-]${c.name} failed: reason withheld\n`;
      failed.push(c.name);
      log?.v(2).info('Health check failed', { endpoint: name, check: c.name, err });
    } else {
      out += `[+]${c.name} ok\n`;
    }
  }
  if (excluded.size > 0) out += `warn: some health checks cannot be excluded: no matches for ${[...excluded].map((e) => `"${e}"`).join(',')}\n`;
  if (failed.length > 0) return { status: 500, body: `${out}${name} check failed\n` };
  if (!query.has('verbose')) return { status: 200, body: 'ok' };
  return { status: 200, body: `${out}${name} check passed\n` };
}

/** A request handler serving the health endpoints and /metrics. */
export function endpointsHandler(o: EndpointsOptions): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  const groups: Record<string, readonly HealthCheck[]> = {
    healthz: o.healthz?.length ? o.healthz : [pingCheck],
    livez: o.livez?.length ? o.livez : [pingCheck],
    readyz: o.readyz?.length ? o.readyz : [pingCheck],
  };
  const send = (res: http.ServerResponse, r: Reply) => {
    res.writeHead(r.status, { 'Content-Type': r.contentType ?? textPlain, 'X-Content-Type-Options': 'nosniff' });
    res.end(r.body);
  };
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts.length === 1 && parts[0] === 'metrics') {
      o.metrics.expose().then(
        (body) => send(res, { status: 200, body, contentType: o.metrics.contentType }),
        (err: Error) => send(res, { status: 500, body: `error gathering metrics: ${err.message}\n` }),
      );
      return;
    }
    const checks = parts[0] !== undefined ? groups[parts[0]] : undefined;
    if (checks && parts.length === 1) {
      send(res, healthRoot(parts[0]!, checks, url.searchParams, o.log));
      return;
    }
    const one = checks && parts.length === 2 ? checks.find((c) => c.name === parts[1]) : undefined;
    if (one) {
      const err = one.check();
      send(res, err ? { status: 500, body: `internal server error: ${err.message}\n` } : { status: 200, body: 'ok' });
      return;
    }
    send(res, { status: 404, body: '404 page not found\n' });
  };
}

export interface EndpointsServer {
  readonly port: number;
  close(): Promise<void>;
}

/** Listens on host:port (port 0 picks a free one), over HTTPS when given TLS options. */
export function serveEndpoints(host: string, port: number, handler: http.RequestListener, tls?: https.ServerOptions): Promise<EndpointsServer> {
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
      });
    });
  });
}
