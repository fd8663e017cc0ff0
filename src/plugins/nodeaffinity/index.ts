// The NodeAffinity plugin definition (pkg/scheduler/framework/plugins/nodeaffinity).
import type { PluginDefinition } from '../../framework/registry.js';
import { defaultNodeAffinityArgs, validateNodeAffinityArgs, type NodeAffinityArgs } from './args.js';
import { Name, NodeAffinity } from './node_affinity.js';

export const nodeAffinityDefinition: PluginDefinition<NodeAffinityArgs> = {
  name: Name,
  argsKind: 'NodeAffinityArgs',
  factory: (args) => new NodeAffinity(args),
  defaultArgs: defaultNodeAffinityArgs,
  validateArgs: validateNodeAffinityArgs,
};

export { defaultNodeAffinityArgs, validateNodeAffinityArgs, type NodeAffinityArgs } from './args.js';
export { ErrReasonPod, NodeAffinity, errReasonConflict, errReasonEnforced } from './node_affinity.js';
