// The embedded Kubernetes API server (`simulate --serve`) and its building blocks.
export { ApiServer, type ApiServerOptions, type MountedHandler } from './server.js';
export { ResourceRegistry, type Target } from './registry.js';
export { resources, findResource, type Resource } from './resources.js';
export { StatusError, type StatusObject } from './status.js';
