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

/** The path of a Lease. */
const leasePath = (namespace: string, name: string): string => `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/leases/${encodeURIComponent(name)}`;

/** Reads a Lease; null when it does not exist. */
export async function getLease(transport: RestTransport, namespace: string, name: string): Promise<Lease | null> {
  try {
    return await transport.request<Lease>({ method: 'GET', path: leasePath(namespace, name) });
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return null;
    throw err;
  }
}

export interface LeaseLockOptions {
  transport: RestTransport;
  namespace: string;
  name: string;
  identity: string;
  /** Where transitions are reported; none when unset. */
  onEvent?: (lease: Lease, message: string) => void;
  /**
   * The Lease as read before the scheduler's code loaded (run_first_lists.ts): the first `get`
   * answers with it instead of asking again, as long as it did not fail.
   */
  firstRead?: Promise<Lease | null>;
}

export class LeaseLock implements ResourceLock {
  private lease: Lease | null = null;
  private firstRead: Promise<Lease | null> | undefined;

  constructor(private readonly o: LeaseLockOptions) {
    this.firstRead = o.firstRead;
  }

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
    const early = this.firstRead;
    this.firstRead = undefined;
    // undefined: no early read, or it failed (asked again here, as any read that failed).
    let lease = early ? await early.catch(() => undefined) : undefined;
    if (lease === undefined) lease = await getLease(this.o.transport, this.o.namespace, this.o.name);
    this.lease = lease;
    if (lease === null) return null;
    const spec = lease.spec ?? {};
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
    this.lease = await this.o.transport.request<Lease>({ method: 'PUT', path: leasePath(this.o.namespace, this.o.name), body: next });
  }

  recordEvent(message: string): void {
    if (!this.o.onEvent || !this.lease) return;
    this.o.onEvent(this.lease, `${this.o.identity} ${message}`);
  }
}
