// Prometheus metrics with upstream's names and the /metrics, /healthz, /livez, /readyz endpoints.
export { SchedulerMetrics, attemptsLabel, type AttemptResult, type MetricsSources } from './metrics.js';
export { endpointsHandler, serveEndpoints, pingCheck, type EndpointsOptions, type EndpointsServer, type HealthCheck } from './server.js';
