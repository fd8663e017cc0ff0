// Resolves the scheduler configuration for a run: --config file, else the scenario's own
// `config`, else upstream's defaults.
import { configFromObject, defaultConfiguration, loadConfigFile, type DefaultedConfiguration } from '../config/index.js';
import type { Registry } from '../framework/registry.js';
import type { ResolvedConfig } from '../scheduler/scheduler.js';
import type { Scenario } from '../sim/scenario/scenario.js';

export interface ConfigurationSource {
  scenario?: Scenario;
  configPath?: string;
  registry: Registry;
}

export function resolveConfiguration(src: ConfigurationSource): ResolvedConfig & DefaultedConfiguration {
  let cfg: DefaultedConfiguration;
  if (src.configPath) cfg = loadConfigFile(src.configPath, src.registry);
  else if (src.scenario?.config) cfg = configFromObject(src.scenario.config, `${src.scenario.source ?? src.scenario.name}: config`, src.registry);
  else cfg = defaultConfiguration(src.registry);
  return cfg;
}
