// The DefaultPreemption plugin definition (pkg/scheduler/framework/plugins/defaultpreemption).
import type { PluginDefinition } from '../../framework/registry.js';
import { defaultDefaultPreemptionArgs, validateDefaultPreemptionArgs, type DefaultPreemptionArgs } from './args.js';
import { DefaultPreemption, Name } from './default_preemption.js';

export const defaultPreemptionDefinition: PluginDefinition<DefaultPreemptionArgs> = {
  name: Name,
  argsKind: 'DefaultPreemptionArgs',
  factory: (args, handle) => new DefaultPreemption(args, handle),
  defaultArgs: defaultDefaultPreemptionArgs,
  validateArgs: validateDefaultPreemptionArgs,
};

export { type DefaultPreemptionArgs } from './args.js';
