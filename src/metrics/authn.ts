// Who sent a request to the secure endpoints, asked of the API server as upstream's delegated
// authentication does (k8s.io/apiserver/pkg/authentication/authenticatorfactory/delegating.go): a
// client certificate verified against the client CA (x509, CommonName as user, Organizations as
// groups), else a bearer token checked with a TokenReview (cached briefly), else anonymous.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Clock } from '../util/clock.js';

export interface UserInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** POSTs a review object to the API server and resolves with the object it answers. */
export type ReviewPoster = (path: string, body: unknown) => Promise<unknown>;

export type AuthenticationResult = { readonly user: UserInfo } | { readonly error: string };

const anonymousUser: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
const authenticatedGroup = 'system:authenticated';
const clientAuthUsage = '1.3.6.1.5.5.7.3.2';

export interface AuthenticatorOptions {
  /** Where TokenReviews go; without it bearer tokens are not accepted. */
  tokenReviews?: ReviewPoster;
  /** Client certificates are checked (the TLS server asks for them against the client CA). */
  clientCertificates?: boolean;
  clock: Clock;
  /** How long a TokenReview's answer is reused (--authentication-token-webhook-cache-ttl, 10s). */
  cacheTtlMs?: number;
}

interface TokenReviewStatus {
  authenticated?: boolean;
  user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  error?: string;
}

type TokenOutcome = { user: UserInfo } | { error: string };

export class DelegatingAuthenticator {
  private readonly tokenCache = new Map<string, { outcome: TokenOutcome; until: number }>();

  constructor(private readonly o: AuthenticatorOptions) {}

  /** The request's user; anonymous when it carries no credentials, an error when they do not hold. */
  async authenticate(req: IncomingMessage): Promise<AuthenticationResult> {
    const errors: string[] = [];
    if (this.o.clientCertificates) {
      const r = this.fromClientCertificate(req.socket as TLSSocket);
      if (r && 'user' in r) return { user: withAuthenticatedGroup(r.user) };
      if (r) errors.push(r.error);
    }
    const token = bearerToken(req.headers.authorization);
    if (token !== undefined && this.o.tokenReviews) {
      const r = token === '' ? { error: 'invalid bearer token' } : await this.reviewToken(token);
      if ('user' in r) return { user: withAuthenticatedGroup(r.user) };
      errors.push(r.error);
    }
    if (errors.length > 0) return { error: errors.join(', ') };
    return { user: anonymousUser };
  }

  /** null when no certificate was sent. */
  private fromClientCertificate(socket: TLSSocket): TokenOutcome | null {
    const cert = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate() : undefined;
    if (!cert || !cert.subject) return null;
    if (!socket.authorized) return { error: `verifying certificate ${JSON.stringify(cert.subject.CN ?? '')} failed: ${String(socket.authorizationError)}` };
    const usages = (cert as { ext_key_usage?: string[] }).ext_key_usage;
    if (usages && !usages.includes(clientAuthUsage)) return { error: 'x509: certificate specifies an incompatible key usage' };
    const cn = firstOf(cert.subject.CN);
    if (!cn) return { error: 'common name of client certificate is empty' };
    return { user: { name: cn, groups: listOf(cert.subject.O) } };
  }

  private async reviewToken(token: string): Promise<TokenOutcome> {
    const key = createHash('sha256').update(token).digest('hex');
    const now = this.o.clock.now();
    const cached = this.tokenCache.get(key);
    if (cached && cached.until > now) return cached.outcome;
    let status: TokenReviewStatus;
    try {
      const answer = (await this.o.tokenReviews!('/apis/authentication.k8s.io/v1/tokenreviews', {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        spec: { token },
      })) as { status?: TokenReviewStatus } | undefined;
      status = answer?.status ?? {};
    } catch (err) {
      // Not cached: the next request asks again.
      return { error: `token review failed: ${err instanceof Error ? err.message : String(err)}` };
    }
    const u = status.user;
    const outcome: TokenOutcome = status.authenticated && u?.username
      ? { user: { name: u.username, uid: u.uid, groups: u.groups ?? [], extra: u.extra } }
      : { error: status.error || 'invalid bearer token' };
    this.tokenCache.set(key, { outcome, until: now + (this.o.cacheTtlMs ?? 10_000) });
    this.pruneCache(now);
    return outcome;
  }

  private pruneCache(now: number): void {
    if (this.tokenCache.size < 1024) return;
    for (const [k, v] of this.tokenCache) if (v.until <= now) this.tokenCache.delete(k);
  }
}

/** The token of an `Authorization: Bearer <token>` header; '' for an empty one; undefined for none. */
function bearerToken(header: string | undefined): string | undefined {
  const parts = (header ?? '').trim().split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  return parts[1]!;
}

function withAuthenticatedGroup(u: UserInfo): UserInfo {
  return u.groups.includes(authenticatedGroup) ? u : { ...u, groups: [...u.groups, authenticatedGroup] };
}

const firstOf = (v: string | string[] | undefined): string => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));
const listOf = (v: string | string[] | undefined): string[] => (Array.isArray(v) ? v : v ? [v] : []);
