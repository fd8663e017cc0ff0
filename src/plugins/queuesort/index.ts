// The PrioritySort plugin definition (pkg/scheduler/framework/plugins/queuesort).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, PrioritySort } from './priority_sort.js';

export const prioritySortDefinition: PluginDefinition = {
  name: Name,
  factory: () => new PrioritySort(),
};

