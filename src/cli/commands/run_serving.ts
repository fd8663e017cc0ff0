// `run`'s secure serving from its flags (k8s.io/apiserver options: SecureServingOptions.ApplyTo with
// MaybeDefaultWithSelfSignedCerts, DelegatingAuthenticationOptions.ApplyTo with its client-CA lookup
// in kube-system/extension-apiserver-authentication, DelegatingAuthorizationOptions.ApplyTo).
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import { rateLimiterFor } from '../../cluster/kube/rate_limiter.js';
import { HttpTransport, KubeConfigError, loadKubeConfig } from '../../cluster/kube/rest.js';
import type { Logger } from '../../log/logger.js';
import { DelegatingAuthenticator, type ReviewPoster } from '../../metrics/authn.js';
import { DelegatingAuthorizer } from '../../metrics/authz.js';
import type { SecureServing } from '../../metrics/secure_serving.js';
import { selfSignedServingCert } from '../../metrics/x509.js';
import type { Clock } from '../../util/clock.js';
import { UsageError } from '../io.js';
import type { RunFlags } from './run_flags.js';

/** The delegated clients' own limits (DelegatingAuthenticationOptions.getClient). */
const reviewQps = 200;
const reviewBurst = 400;
const reviewTimeoutMs = 10_000;
const authenticationConfigMap = '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication';

function readPem(flag: string, path: string, what: 'CERTIFICATE' | 'PRIVATE KEY'): string {
  if (!existsSync(path)) throw new UsageError(`--${flag} ${path}: no such file`);
  const text = readFileSync(path, 'utf8');
  if (!new RegExp(`-----BEGIN [A-Z ]*${what}-----`).test(text)) throw new UsageError(`--${flag} ${path}: no PEM ${what.toLowerCase()} in it`);
  return text;
}

function checkCertificates(flag: string, path: string, pem: string): void {
  try {
    new X509Certificate(pem);
  } catch (err) {
    throw new UsageError(`--${flag} ${path}: not a valid certificate: ${(err as Error).message}`);
  }
}

/** The transport of a delegated review client: its own kubeconfig, else the cluster's. */
function reviewTransport(flag: string, path: string | undefined, cluster: KubeConfig, clock: Clock, userAgent: string): HttpTransport {
  let kc = cluster;
  if (path) {
    try {
      kc = loadKubeConfig(path);
    } catch (err) {
      if (err instanceof KubeConfigError) throw new UsageError(`--${flag} ${err.message}`);
      throw err;
    }
  }
  return new HttpTransport(kc, { limiter: rateLimiterFor(reviewQps, reviewBurst, clock), userAgent, clock });
}

const posterOf = (t: HttpTransport): ReviewPoster => (path, body) => t.request({ method: 'POST', path, body, timeoutMs: reviewTimeoutMs });

/** The client CA the cluster publishes for components like us, or undefined (warned) when it cannot be read. */
async function lookupClientCA(t: HttpTransport, tolerate: boolean, log: Logger): Promise<string | undefined> {
  try {
    const cm = await t.request<{ data?: Record<string, string> }>({ method: 'GET', path: authenticationConfigMap, timeoutMs: reviewTimeoutMs });
    return cm.data?.['client-ca-file'] || undefined;
  } catch (err) {
    if (!tolerate) throw new Error(`unable to load configmap based request-header-client-ca-file: ${(err as Error).message}`);
    log.warning('Unable to read configmap/extension-apiserver-authentication in kube-system, so client certificates will not be accepted; grant the extension-apiserver-authentication-reader Role or pass --client-ca-file', { err });
    return undefined;
  }
}

export interface RunServing {
  readonly serving: SecureServing;
  /** The review clients' transports, to destroy on exit. */
  readonly transports: readonly HttpTransport[];
}

export async function secureServingFromFlags(flags: RunFlags, cluster: KubeConfig, clock: Clock, log: Logger): Promise<RunServing> {
  let cert: string;
  let key: string;
  if (flags.tlsCertFile && flags.tlsPrivateKeyFile) {
    cert = readPem('tls-cert-file', flags.tlsCertFile, 'CERTIFICATE');
    key = readPem('tls-private-key-file', flags.tlsPrivateKeyFile, 'PRIVATE KEY');
    checkCertificates('tls-cert-file', flags.tlsCertFile, cert);
    try {
      createSecureContext({ cert, key });
    } catch (err) {
      throw new UsageError(`--tls-cert-file ${flags.tlsCertFile} and --tls-private-key-file ${flags.tlsPrivateKeyFile} do not make a key pair: ${(err as Error).message}`);
    }
  } else {
    ({ cert, key } = selfSignedServingCert('localhost', ['127.0.0.1'], [], clock.now()));
    log.info('Generated a self-signed serving certificate in memory', { hosts: ['localhost', '127.0.0.1'] });
  }
  const authnTransport = reviewTransport('authentication-kubeconfig', flags.authenticationKubeconfig, cluster, clock, 'kube-scheduler-ts/authentication');
  const authzTransport = reviewTransport('authorization-kubeconfig', flags.authorizationKubeconfig, cluster, clock, 'kube-scheduler-ts/authorization');
  let clientCA: string | undefined;
  if (flags.clientCAFile) {
    clientCA = readPem('client-ca-file', flags.clientCAFile, 'CERTIFICATE');
    checkCertificates('client-ca-file', flags.clientCAFile, clientCA);
  } else if (!flags.authenticationSkipLookup) {
    clientCA = await lookupClientCA(authnTransport, flags.authenticationTolerateLookupFailure, log);
  }
  return {
    serving: {
      cert,
      key,
      clientCA,
      authenticator: new DelegatingAuthenticator({ tokenReviews: posterOf(authnTransport), clientCertificates: clientCA !== undefined, clock, cacheTtlMs: flags.tokenCacheTtlMs }),
      authorizer: new DelegatingAuthorizer({
        accessReviews: posterOf(authzTransport),
        alwaysAllowPaths: flags.alwaysAllowPaths,
        clock,
        allowedTtlMs: flags.authorizedCacheTtlMs,
        deniedTtlMs: flags.unauthorizedCacheTtlMs,
      }),
    },
    transports: [authnTransport, authzTransport],
  };
}
