// The NodeAffinity plugin definition (pkg/scheduler/framework/plugins/nodeaffinity).
import type { PluginDefinition } from '../../framework/registry.js';
import { defaultNodeAffinityArgs, validateNodeAffinityArgs, type NodeAffinityArgs } from './args.js';
import { Name, NodeAffinityPlugin } from './node_affinity.js';

export const nodeAffinityDefinition: PluginDefinition<NodeAffinityArgs> = {
  name: Name,
  argsKind: 'NodeAffinityArgs',
  factory: (args) => new NodeAffinityPlugin(args),
  defaultArgs: defaultNodeAffinityArgs,
  validateArgs: validateNodeAffinityArgs,
};

export { defaultNodeAffinityArgs, validateNodeAffinityArgs, type NodeAffinityArgs } from './args.js';
export { ErrReasonPod, Name, NodeAffinityPlugin, errReasonConflict, errReasonEnforced } from './node_affinity.js';
export { MatchResult, RequiredNodeAffinity } from '../../api/nodeselector.js';
export { validateNodeSelector, validateNodeSelectorTerm, validatePreferredSchedulingTerms } from './validation.js';
