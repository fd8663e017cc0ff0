// The NodePorts plugin definition (pkg/scheduler/framework/plugins/nodeports).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, NodePortsPlugin } from './node_ports.js';

export const nodePortsDefinition: PluginDefinition = {
  name: Name,
  factory: () => new NodePortsPlugin(),
};

export { ErrReason, Name, NodePortsPlugin, fits, fitsPorts, isSchedulableAfterPodDeleted } from './node_ports.js';
