// The DynamicResources plugin definition (pkg/scheduler/framework/plugins/dynamicresources): for now
// the guard that keeps pods with resource claims unschedulable.
import type { PluginDefinition } from '../../framework/registry.js';
import { DynamicResources, Name } from './dynamic_resources.js';

export const dynamicResourcesDefinition: PluginDefinition = {
  name: Name,
  factory: () => new DynamicResources(),
};

export { DynamicResources, ErrReasonNotSupported } from './dynamic_resources.js';
