// The ClusterClient over a real Kubernetes API server.
export { KubeClusterClient, type KubeClusterClientOptions } from './client.js';
export { HttpTransport, KubeConfigError, loadKubeConfig, type RestTransport, type RestRequest, type RawWatchEvent, type WatchHandle } from './rest.js';
export { StatusError } from './errors.js';
export type { ReflectorStatus } from './reflector.js';
export { TokenBucketRateLimiter, rateLimiterFor, unlimited, type RateLimiter } from './rate_limiter.js';
export { watchedResources, type ResourceSpec } from './resources.js';
