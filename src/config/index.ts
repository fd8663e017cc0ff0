// KubeSchedulerConfiguration v1: types, loading, defaulting and validation.
export * from './types.js';
export { ConfigError, formatIssue, type ConfigIssue } from './errors.js';
export { loadConfigFile, parseConfig, configFromObject } from './load.js';
export {
  setDefaults,
  defaultConfiguration,
  pluginArgsByName,
  effectiveScoreWeight,
  DefaultParallelism,
  DefaultPodInitialBackoffSeconds,
  DefaultPodMaxBackoffSeconds,
} from './defaults.js';
export {
  getDefaultPlugins,
  mergePlugins,
  mergePluginSet,
  DefaultMultiPointPlugins,
  InTreePluginNames,
  RemovedPluginNames,
  AllPlugins,
} from './default_plugins.js';
export { validateConfiguration, validatePluginReferences, isQualifiedName } from './validate.js';
export { decodeConfiguration, argsSchemas } from './schema.js';
export { parseDuration, parseDurationNanos, formatDurationNanos, DurationError } from '../util/duration.js';
export {
  fieldInvalid,
  fieldRequired,
  fieldDuplicate,
  fieldNotSupported,
  fieldForbidden,
  formatBadValue,
  Unquoted,
} from './field.js';
