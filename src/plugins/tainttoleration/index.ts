// The TaintToleration plugin definition (pkg/scheduler/framework/plugins/tainttoleration).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, TaintToleration } from './taint_toleration.js';

export const taintTolerationDefinition: PluginDefinition = {
  name: Name,
  factory: () => new TaintToleration(),
};

export {
  TaintToleration,
  isSchedulableAfterNodeChange,
  isSchedulableAfterPodTolerationChange,
} from './taint_toleration.js';
