// The NodeUnschedulable plugin definition (pkg/scheduler/framework/plugins/nodeunschedulable).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, NodeUnschedulable } from './node_unschedulable.js';

export const nodeUnschedulableDefinition: PluginDefinition = {
  name: Name,
  factory: () => new NodeUnschedulable(),
};

export {
  ErrReasonUnknownCondition,
  ErrReasonUnschedulable,
  NodeUnschedulable,
  isSchedulableAfterNodeChange,
  isSchedulableAfterPodTolerationChange,
} from './node_unschedulable.js';
