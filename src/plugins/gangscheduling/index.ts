// The GangScheduling plugin definition (pkg/scheduler/framework/plugins/gangscheduling).
import type { PluginDefinition } from '../../framework/registry.js';
import { GangScheduling, Name } from './gang_scheduling.js';

export const gangSchedulingDefinition: PluginDefinition = {
  name: Name,
  factory: (_args, handle, features) => new GangScheduling(handle, features),
};
