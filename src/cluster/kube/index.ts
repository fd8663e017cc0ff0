// The ClusterClient over a real Kubernetes API server.
export { KubeClusterClient, type KubeClusterClientOptions } from './client.js';
export { HttpTransport, loadKubeConfig, type RestTransport, type RestRequest, type RawWatchEvent, type WatchHandle } from './rest.js';
export { TokenBucketRateLimiter, rateLimiterFor, unlimited, type RateLimiter } from './rate_limiter.js';
export { watchedResources, type ResourceSpec } from './resources.js';
