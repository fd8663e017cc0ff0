// The NodePorts plugin definition (pkg/scheduler/framework/plugins/nodeports).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, NodePorts } from './node_ports.js';

export const nodePortsDefinition: PluginDefinition = {
  name: Name,
  factory: () => new NodePorts(),
};

export { ErrReason, NodePorts, isSchedulableAfterPodDeleted } from './node_ports.js';
