// The SchedulingGates plugin definition (pkg/scheduler/framework/plugins/schedulinggates).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, SchedulingGates } from './scheduling_gates.js';

export const schedulingGatesDefinition: PluginDefinition = {
  name: Name,
  factory: () => new SchedulingGates(),
};

export { SchedulingGates };
