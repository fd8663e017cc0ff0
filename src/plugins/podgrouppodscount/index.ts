// The PodGroupPodsCount plugin definition (pkg/scheduler/framework/plugins/podgrouppodscount).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, PodGroupPodsCount } from './podgroup_pods_count.js';

export const podGroupPodsCountDefinition: PluginDefinition = {
  name: Name,
  factory: (_args, handle) => new PodGroupPodsCount(handle),
};
