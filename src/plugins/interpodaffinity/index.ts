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

export { InterPodAffinity, Name } from './plugin.js';
export {
  DefaultHardPodAffinityWeight,
  MaxHardPodAffinityWeight,
  MinHardPodAffinityWeight,
  defaultInterPodAffinityArgs,
  validateInterPodAffinityArgs,
} from './args.js';
export type { InterPodAffinityArgs } from './args.js';
export {
  ErrReasonAffinityRulesNotMatch,
  ErrReasonAntiAffinityRulesNotMatch,
  ErrReasonExistingAntiAffinityRulesNotMatch,
} from './filtering.js';
