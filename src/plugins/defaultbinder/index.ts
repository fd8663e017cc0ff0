// The DefaultBinder plugin definition (pkg/scheduler/framework/plugins/defaultbinder).
import type { PluginDefinition } from '../../framework/registry.js';
import { DefaultBinder, Name } from './default_binder.js';

export const defaultBinderDefinition: PluginDefinition = {
  name: Name,
  factory: (_args, handle) => new DefaultBinder(handle),
};

