// May this user do this to this path, decided as upstream's delegated authorization does
// (k8s.io/apiserver/pkg/server/options/authorization.go, authorizerfactory/delegating.go): members of
// system:masters and the always-allowed paths pass, anything else is a SubjectAccessReview for a
// non-resource request (verb = the lower-cased HTTP method), its answer cached briefly.
import type { Clock } from '../util/clock.js';
import type { ReviewPoster, UserInfo } from './authn.js';

/** The paths anyone may read without a review (--authorization-always-allow-paths). */
export const defaultAlwaysAllowPaths: readonly string[] = ['/healthz', '/readyz', '/livez'];
const alwaysAllowGroups: readonly string[] = ['system:masters'];

export type Decision = { readonly allowed: true } | { readonly allowed: false; readonly reason: string } | { readonly error: string };

export interface AuthorizerOptions {
  /** Where SubjectAccessReviews go; without it only the always-allowed paths and groups pass. */
  accessReviews?: ReviewPoster;
  /** Exact paths, or prefixes ending in `*`. */
  alwaysAllowPaths?: readonly string[];
  clock: Clock;
  /** How long an allow / a deny is reused (the webhook cache TTLs, 10s each). */
  allowedTtlMs?: number;
  deniedTtlMs?: number;
}

interface AccessReviewStatus {
  allowed?: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

export class DelegatingAuthorizer {
  private readonly cache = new Map<string, { decision: Decision; until: number }>();
  private readonly exact = new Set<string>();
  private readonly prefixes: string[] = [];

  constructor(private readonly o: AuthorizerOptions) {
    for (const p of o.alwaysAllowPaths ?? defaultAlwaysAllowPaths) {
      if (p.endsWith('*')) this.prefixes.push(p.slice(0, -1));
      else this.exact.add(p);
    }
  }

  async authorize(user: UserInfo, verb: string, path: string): Promise<Decision> {
    if (user.groups.some((g) => alwaysAllowGroups.includes(g))) return { allowed: true };
    if (this.exact.has(path) || this.prefixes.some((p) => path.startsWith(p))) return { allowed: true };
    if (!this.o.accessReviews) return { allowed: false, reason: '' };
    const spec = { user: user.name, uid: user.uid, groups: user.groups, extra: user.extra, nonResourceAttributes: { path, verb } };
    const key = JSON.stringify(spec);
    const now = this.o.clock.now();
    const cached = this.cache.get(key);
    if (cached && cached.until > now) return cached.decision;
    let status: AccessReviewStatus;
    try {
      const answer = (await this.o.accessReviews('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec,
      })) as { status?: AccessReviewStatus } | undefined;
      status = answer?.status ?? {};
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
    const decision: Decision = status.allowed && !status.denied ? { allowed: true } : { allowed: false, reason: status.reason ?? '' };
    this.cache.set(key, { decision, until: now + ((decision.allowed ? this.o.allowedTtlMs : this.o.deniedTtlMs) ?? 10_000) });
    if (this.cache.size > 1024) for (const [k, v] of this.cache) if (v.until <= now) this.cache.delete(k);
    return decision;
  }
}
