// The TaintToleration plugin definition (pkg/scheduler/framework/plugins/tainttoleration).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, TaintTolerationPlugin } from './taint_toleration.js';

export const taintTolerationDefinition: PluginDefinition = {
  name: Name,
  factory: () => new TaintTolerationPlugin(),
};

export {
  ErrReasonUntoleratedTaint,
  Name,
  TaintTolerationPlugin,
  doNotScheduleTaint,
  isSchedulableAfterNodeChange,
  isSchedulableAfterPodTolerationChange,
} from './taint_toleration.js';
