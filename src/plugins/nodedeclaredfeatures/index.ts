// The NodeDeclaredFeatures plugin definition (pkg/scheduler/framework/plugins/nodedeclaredfeatures).
import type { PluginDefinition } from '../../framework/registry.js';
import type { FeatureRegistry } from './feature_registry.js';
import { Name, NodeDeclaredFeatures } from './node_declared_features.js';

export const nodeDeclaredFeaturesDefinition: PluginDefinition = {
  name: Name,
  factory: () => new NodeDeclaredFeatures(),
};

/** The plugin over another feature registry (upstream's benchmark replaces AllFeatures with mock features). */
export function nodeDeclaredFeaturesWith(registry: FeatureRegistry): PluginDefinition {
  return { name: Name, factory: () => new NodeDeclaredFeatures(registry) };
}

export { ErrReasonUnsatisfiedRequirements, NodeDeclaredFeatures } from './node_declared_features.js';
export { FeatureRegistry } from './feature_registry.js';
