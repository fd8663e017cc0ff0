// Scheduler extenders: the contract the scheduler calls, and the HTTP client that implements it.
export * from './extender.js';
export { HttpExtender } from './http_extender.js';
export {
  DefaultExtenderTimeoutNanos,
  type ExtenderTransport,
  type TransportResponse,
  extenderTimeoutNanos,
  httpTransport,
} from './transport.js';
export { buildExtenders, type BuiltExtenders } from './build.js';
/** The JSON exchanged with an extender, named as upstream's k8s.io/kube-scheduler/extender/v1. */
export type * as extenderv1 from './wire.js';
