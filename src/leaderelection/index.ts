// Lease-based leader election for running several scheduler replicas.
export { LeaderElector } from './leader_elector.js';
export { LeaseLock } from './lease_lock.js';
