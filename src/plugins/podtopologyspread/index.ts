// The PodTopologySpread plugin definition (upstream pkg/scheduler/framework/plugins/podtopologyspread).
import type { PluginDefinition } from '../../framework/registry.js';
import { defaultPodTopologySpreadArgs, validatePodTopologySpreadArgs, type PodTopologySpreadArgs } from './args.js';
import { Name, PodTopologySpread } from './plugin.js';

export const podTopologySpreadDefinition: PluginDefinition<PodTopologySpreadArgs> = {
  name: Name,
  argsKind: 'PodTopologySpreadArgs',
  factory: (args, handle, features) => new PodTopologySpread(args, handle, features),
  defaultArgs: defaultPodTopologySpreadArgs,
  validateArgs: validatePodTopologySpreadArgs,
};

export type { PodTopologySpreadArgs } from './args.js';
