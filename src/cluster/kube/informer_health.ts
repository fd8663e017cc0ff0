// Whether the informers are in sync with the API server, told once per outage: client-go logs every
// failed retry of every reflector, which in an outage is a line per kind every few seconds; here the
// retries log at -v=2 and this says at -v=0 when the trouble began, why, and when it ended.
import type { Logger } from '../../log/logger.js';
import type { Clock } from '../../util/clock.js';

export class InformerHealth {
  private readonly failing = new Map<string, Error>();
  private outageStartedAt: number | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** A reflector's news: the error that put it out of sync, or null once it is in sync again. */
  update(kind: string, err: Error | null): void {
    if (err) {
      this.failing.set(kind, err);
      if (this.outageStartedAt !== null) return;
      this.outageStartedAt = this.clock.now();
      this.log.warning('Informers cannot list or watch the API server; retrying with backoff until it answers', { kind, err });
      return;
    }
    if (!this.failing.delete(kind) || this.failing.size > 0 || this.outageStartedAt === null) return;
    const seconds = (this.clock.now() - this.outageStartedAt) / 1000;
    this.outageStartedAt = null;
    this.log.warning('Informers are in sync with the API server again', { outage: `${seconds.toFixed(3)}s` });
  }

  /** The kinds out of sync, or none. */
  get failingKinds(): string[] {
    return [...this.failing.keys()];
  }

  /** For /readyz: null while every informer is in sync. */
  check(): Error | null {
    if (this.failing.size === 0 || this.outageStartedAt === null) return null;
    const [kind, err] = this.failing.entries().next().value as [string, Error];
    const seconds = Math.round((this.clock.now() - this.outageStartedAt) / 1000);
    return new Error(`${this.failing.size} informer(s) out of sync for ${seconds}s (${[...this.failing.keys()].join(', ')}); ${kind}: ${err.message}`);
  }
}
