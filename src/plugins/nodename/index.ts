// The NodeName plugin definition (pkg/scheduler/framework/plugins/nodename).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, NodeName } from './node_name.js';

export const nodeNameDefinition: PluginDefinition = {
  name: Name,
  factory: () => new NodeName(),
};

export { ErrReason, NodeName } from './node_name.js';
