// KubeSchedulerConfiguration v1: types, loading, defaulting and validation.
export * from './types.js';
export { ConfigError } from './errors.js';
export { loadConfigFile, parseConfig, configFromObject } from './load.js';
export { defaultConfiguration } from './defaults.js';
export { parseDuration } from '../util/duration.js';
