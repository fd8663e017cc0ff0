// HTTPS for the scheduler's endpoints with delegated authentication and authorization in front
// (k8s.io/apiserver/pkg/server: SecureServingInfo, and DefaultBuildHandlerChain's WithAuthentication
// then WithAuthorization): 401 for credentials that do not hold, 403 for a user the API server does
// not allow, as upstream's Status answers.
import type * as http from 'node:http';
import type * as https from 'node:https';
import type { Logger } from '../log/logger.js';
import type { DelegatingAuthenticator } from './authn.js';
import type { DelegatingAuthorizer } from './authz.js';

export interface SecureServing {
  /** PEM: the serving certificate (and its chain) and its private key. */
  readonly cert: string;
  readonly key: string;
  /** PEM bundle that client certificates must chain to; without it none is asked for. */
  readonly clientCA?: string;
  readonly authenticator: DelegatingAuthenticator;
  readonly authorizer: DelegatingAuthorizer;
}

/** TLS 1.2 at least (--tls-min-version's default); client certificates asked for, checked by the authenticator. */
export function tlsServerOptions(s: SecureServing): https.ServerOptions {
  const o: https.ServerOptions = { cert: s.cert, key: s.key, minVersion: 'TLSv1.2' };
  if (s.clientCA) {
    o.ca = s.clientCA;
    o.requestCert = true;
    // An unverified certificate is answered 401 by the authenticator rather than cut at the handshake.
    o.rejectUnauthorized = false;
  }
  return o;
}

function status(res: http.ServerResponse, code: number, reason: string, message: string): void {
  const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, details: code === 403 ? {} : undefined, code });
  res.writeHead(code, { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff' });
  res.end(`${body}\n`);
}

/** `handler` behind authentication and authorization of every request. */
export function withDelegatedAuth(handler: http.RequestListener, s: Pick<SecureServing, 'authenticator' | 'authorizer'>, log?: Logger): http.RequestListener {
  return (req, res) => {
    void (async () => {
      const authn = await s.authenticator.authenticate(req);
      if ('error' in authn) {
        log?.error(new Error(authn.error), 'Unable to authenticate the request');
        status(res, 401, 'Unauthorized', 'Unauthorized');
        return;
      }
      const path = new URL(req.url ?? '/', 'https://localhost').pathname;
      const verb = (req.method ?? 'GET').toLowerCase();
      const decision = await s.authorizer.authorize(authn.user, verb, path);
      if ('error' in decision) {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
        res.end(`Internal Server Error: ${JSON.stringify(path)}: ${decision.error}\n`);
        return;
      }
      if (!decision.allowed) {
        log?.v(4).info('Forbidden', { user: authn.user.name, verb, path, reason: decision.reason });
        status(res, 403, 'Forbidden', `forbidden: User ${JSON.stringify(authn.user.name)} cannot ${verb} path ${JSON.stringify(path)}${decision.reason ? `: ${decision.reason}` : ''}`);
        return;
      }
      handler(req, res);
    })().catch((err: unknown) => {
      log?.error(err, 'Serving a request failed');
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
}
