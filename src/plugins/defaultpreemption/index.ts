// The DefaultPreemption plugin definition (pkg/scheduler/framework/plugins/defaultpreemption).
import type { PluginDefinition } from '../../framework/registry.js';
import { defaultDefaultPreemptionArgs, validateDefaultPreemptionArgs, type DefaultPreemptionArgs } from './args.js';
import { DefaultPreemption, Name } from './default_preemption.js';

export const defaultPreemptionDefinition: PluginDefinition<DefaultPreemptionArgs> = {
  name: Name,
  argsKind: 'DefaultPreemptionArgs',
  factory: (args, handle, features) => new DefaultPreemption(args, handle, features),
  defaultArgs: defaultDefaultPreemptionArgs,
  validateArgs: validateDefaultPreemptionArgs,
};

export { type DefaultPreemptionArgs } from './args.js';
