// The SchedulingGates plugin definition (pkg/scheduler/framework/plugins/schedulinggates).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, SchedulingGatesPlugin } from './scheduling_gates.js';

export const schedulingGatesDefinition: PluginDefinition = {
  name: Name,
  factory: () => new SchedulingGatesPlugin(),
};

export { Name, SchedulingGatesPlugin };
export { isSchedulableAfterUpdatePodSchedulingGatesEliminated } from './scheduling_gates.js';
