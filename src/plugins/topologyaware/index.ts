// The TopologyPlacementGenerator plugin definition (pkg/scheduler/framework/plugins/topologyaware).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, TopologyPlacement } from './topology_placement.js';

export const topologyPlacementDefinition: PluginDefinition = {
  name: Name,
  factory: (_args, handle) => new TopologyPlacement(handle),
};
