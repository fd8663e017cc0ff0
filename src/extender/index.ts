// The HTTP extender client (extender/v1 wire format); the contract it implements is framework/extender.ts.
export { HttpExtender } from './http_extender.js';
export {
  DefaultExtenderTimeoutNanos,
  type ExtenderTransport,
  type TransportResponse,
  extenderTimeoutNanos,
  httpTransport,
} from './transport.js';
export { buildExtenders, ExtenderSetupError, type BuiltExtenders } from './build.js';
/** The JSON exchanged with an extender, named as upstream's k8s.io/kube-scheduler/extender/v1. */
export type * as extenderv1 from './wire.js';
