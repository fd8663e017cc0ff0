// The Lease leader election uses by default (component-base's LeaderElectionConfiguration as
// kube-scheduler defaults it), in a module of its own: run's first requests (run_first_lists.ts),
// which go out before the configuration code loads, name the same Lease.
export const DefaultLockObjectName = 'kube-scheduler';
export const DefaultLockObjectNamespace = 'kube-system';
