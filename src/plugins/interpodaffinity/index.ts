// The InterPodAffinity plugin definition (pkg/scheduler/framework/plugins/interpodaffinity).
import type { PluginDefinition } from '../../framework/registry.js';
import { defaultInterPodAffinityArgs, validateInterPodAffinityArgs, type InterPodAffinityArgs } from './args.js';
import { InterPodAffinity, Name } from './plugin.js';

export const interPodAffinityDefinition: PluginDefinition<InterPodAffinityArgs> = {
  name: Name,
  argsKind: 'InterPodAffinityArgs',
  factory: (args, handle) => new InterPodAffinity(args, handle),
  defaultArgs: defaultInterPodAffinityArgs,
  validateArgs: validateInterPodAffinityArgs,
};

export type { InterPodAffinityArgs } from './args.js';
