// Lease-based leader election for running several scheduler replicas.
export { LeaderElector, LeaderElectionConfigError, JitterFactor, type LeaderCallbacks, type LeaderElectorOptions } from './leader_elector.js';
export { LeaseLock, leaseSpecToRecord, recordToLeaseSpec, type Lease, type LeaseSpec, type LeaderElectionRecord, type ResourceLock } from './lease_lock.js';
