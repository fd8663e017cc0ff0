// The NodeDeclaredFeatures plugin definition (pkg/scheduler/framework/plugins/nodedeclaredfeatures).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, NodeDeclaredFeatures } from './node_declared_features.js';

export const nodeDeclaredFeaturesDefinition: PluginDefinition = {
  name: Name,
  factory: () => new NodeDeclaredFeatures(),
};

export { ErrReasonUnsatisfiedRequirements, NodeDeclaredFeatures } from './node_declared_features.js';
