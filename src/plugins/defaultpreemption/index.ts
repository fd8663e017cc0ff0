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

export {
  DefaultMinCandidateNodesAbsolute,
  DefaultMinCandidateNodesPercentage,
  defaultDefaultPreemptionArgs,
  validateDefaultPreemptionArgs,
  type DefaultPreemptionArgs,
} from './args.js';
export {
  DefaultPreemption,
  ErrReasonNoVictims,
  ErrReasonPreemptNever,
  ErrReasonTerminatingOnNominatedNode,
  Name,
  podTerminatingByPreemption,
} from './default_preemption.js';
export { Evaluator, PreemptionNotHelpfulMsg } from './evaluator.js';
export { decidePreemptionNode, pickOneNodeForPreemption } from './pick_node.js';
export type { Candidate, PreemptionPolicy, VictimSelection, Victims } from './candidate.js';
