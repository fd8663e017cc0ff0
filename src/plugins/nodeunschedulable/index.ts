// The NodeUnschedulable plugin definition (pkg/scheduler/framework/plugins/nodeunschedulable).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, NodeUnschedulablePlugin } from './node_unschedulable.js';

export const nodeUnschedulableDefinition: PluginDefinition = {
  name: Name,
  factory: () => new NodeUnschedulablePlugin(),
};

export {
  ErrReasonUnknownCondition,
  ErrReasonUnschedulable,
  Name,
  NodeUnschedulablePlugin,
  isSchedulableAfterNodeChange,
  isSchedulableAfterPodTolerationChange,
  toleratesUnschedulable,
} from './node_unschedulable.js';
