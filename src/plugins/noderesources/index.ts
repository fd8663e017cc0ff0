// The NodeResourcesFit and NodeResourcesBalancedAllocation plugin definitions
// (framework/plugins/noderesources, registered as upstream's in-tree registry does).
import type { PluginDefinition } from '../../framework/registry.js';
import {
  defaultNodeResourcesBalancedAllocationArgs,
  defaultNodeResourcesFitArgs,
  validateNodeResourcesBalancedAllocationArgs,
  validateNodeResourcesFitArgs,
  type NodeResourcesBalancedAllocationArgs,
  type NodeResourcesFitArgs,
} from './args.js';
import { BalancedAllocation, BalancedAllocationName } from './balanced_allocation.js';
import { Fit, FitName } from './fit.js';

export const nodeResourcesFitDefinition: PluginDefinition<NodeResourcesFitArgs> = {
  name: FitName,
  argsKind: 'NodeResourcesFitArgs',
  factory: (args, handle, features) => new Fit(
    args,
    { enableInPlacePodVerticalScaling: features.enableInPlacePodVerticalScaling, enableSchedulingQueueHint: true },
    features.enableDRAExtendedResource ? (handle.sharedDRAManager?.() ?? null) : null,
  ),
  defaultArgs: defaultNodeResourcesFitArgs,
  validateArgs: validateNodeResourcesFitArgs,
};

export const balancedAllocationDefinition: PluginDefinition<NodeResourcesBalancedAllocationArgs> = {
  name: BalancedAllocationName,
  argsKind: 'NodeResourcesBalancedAllocationArgs',
  factory: (args, handle, features) => new BalancedAllocation(args, features.enableDRAExtendedResource ? (handle.sharedDRAManager?.() ?? null) : null),
  defaultArgs: defaultNodeResourcesBalancedAllocationArgs,
  validateArgs: validateNodeResourcesBalancedAllocationArgs,
};

export { type NodeResourcesBalancedAllocationArgs, type NodeResourcesFitArgs } from './args.js';
