// The NodeName plugin definition (pkg/scheduler/framework/plugins/nodename).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, NodeNamePlugin } from './node_name.js';

export const nodeNameDefinition: PluginDefinition = {
  name: Name,
  factory: () => new NodeNamePlugin(),
};

export { ErrReason, Name, NodeNamePlugin, fits } from './node_name.js';
