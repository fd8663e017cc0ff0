// The leader-election record and the coordination.k8s.io/v1 Lease that stores it
// (client-go tools/leaderelection/resourcelock/interface.go and leaselock.go).
import { ApiError } from '../cluster/types.js';
import type { RestTransport } from '../cluster/kube/rest.js';
import { microTime } from '../cluster/kube/events.js';

/** What the lock holds; times are ms since the epoch. */
export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: number;
  renewTime: number;
  leaderTransitions: number;
}

/** A lock object: read, created and updated with optimistic concurrency. */
export interface ResourceLock {
  readonly identity: string;
  /** namespace/name, for logs. */
  describe(): string;
  /** The record and a raw form to detect changes by; null when the lock object does not exist. */
  get(): Promise<{ record: LeaderElectionRecord; raw: string } | null>;
  create(r: LeaderElectionRecord): Promise<void>;
  /** Rejects when the object changed since it was last read (409) or on any API error. */
  update(r: LeaderElectionRecord): Promise<void>;
  /** Reports a transition ("became leader", "stopped leading") as an event on the lock object. */
  recordEvent(message: string): void;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export interface Lease {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace: string; resourceVersion?: string; uid?: string };
  spec?: LeaseSpec;
}

const parseTime = (s: string | undefined): number => (s ? Date.parse(s) : 0);

function leaseSpecToRecord(spec: LeaseSpec | undefined): LeaderElectionRecord {
  return {
    holderIdentity: spec?.holderIdentity ?? '',
    leaseDurationSeconds: spec?.leaseDurationSeconds ?? 0,
    acquireTime: parseTime(spec?.acquireTime),
    renewTime: parseTime(spec?.renewTime),
    leaderTransitions: spec?.leaseTransitions ?? 0,
  };
}

function recordToLeaseSpec(r: LeaderElectionRecord): LeaseSpec {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: microTime(r.acquireTime),
    renewTime: microTime(r.renewTime),
    leaseTransitions: r.leaderTransitions,
  };
}

export interface LeaseLockOptions {
  transport: RestTransport;
  namespace: string;
  name: string;
  identity: string;
  /** Where transitions are reported; none when unset. */
  onEvent?: (lease: Lease, message: string) => void;
}

export class LeaseLock implements ResourceLock {
  private lease: Lease | null = null;

  constructor(private readonly o: LeaseLockOptions) {}

  get identity(): string {
    return this.o.identity;
  }

  describe(): string {
    return `${this.o.namespace}/${this.o.name}`;
  }

  private get collection(): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(this.o.namespace)}/leases`;
  }

  async get(): Promise<{ record: LeaderElectionRecord; raw: string } | null> {
    try {
      this.lease = await this.o.transport.request<Lease>({ method: 'GET', path: `${this.collection}/${encodeURIComponent(this.o.name)}` });
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return null;
      throw err;
    }
    const spec = this.lease.spec ?? {};
    const raw = JSON.stringify([spec.holderIdentity ?? '', spec.leaseDurationSeconds ?? 0, spec.acquireTime ?? '', spec.renewTime ?? '', spec.leaseTransitions ?? 0]);
    return { record: leaseSpecToRecord(spec), raw };
  }

  async create(r: LeaderElectionRecord): Promise<void> {
    this.lease = await this.o.transport.request<Lease>({
      method: 'POST',
      path: this.collection,
      body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.o.name, namespace: this.o.namespace }, spec: recordToLeaseSpec(r) },
    });
  }

  async update(r: LeaderElectionRecord): Promise<void> {
    if (!this.lease) throw new Error('lease not initialized, call get or create first');
    const next: Lease = { ...this.lease, apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', spec: { ...this.lease.spec, ...recordToLeaseSpec(r) } };
    this.lease = await this.o.transport.request<Lease>({ method: 'PUT', path: `${this.collection}/${encodeURIComponent(this.o.name)}`, body: next });
  }

  recordEvent(message: string): void {
    if (!this.o.onEvent || !this.lease) return;
    this.o.onEvent(this.lease, `${this.o.identity} ${message}`);
  }
}
