// The in-tree plugin registry (framework/plugins/registry.go).
import { DeferredPodScheduling } from '../framework/names.js';
import { Registry } from '../framework/registry.js';
import { defaultBinderDefinition } from './defaultbinder/index.js';
import { defaultPreemptionDefinition } from './defaultpreemption/index.js';
import { dynamicResourcesDefinition } from './dynamicresources/index.js';
import { imageLocalityDefinition } from './imagelocality/index.js';
import { interPodAffinityDefinition } from './interpodaffinity/index.js';
import { nodeAffinityDefinition } from './nodeaffinity/index.js';
import { nodeDeclaredFeaturesDefinition } from './nodedeclaredfeatures/index.js';
import { nodeNameDefinition } from './nodename/index.js';
import { nodePortsDefinition } from './nodeports/index.js';
import { balancedAllocationDefinition, nodeResourcesFitDefinition } from './noderesources/index.js';
import { nodeUnschedulableDefinition } from './nodeunschedulable/index.js';
import { podTopologySpreadDefinition } from './podtopologyspread/index.js';
import { prioritySortDefinition } from './queuesort/index.js';
import { schedulingGatesDefinition } from './schedulinggates/index.js';
import { gangSchedulingDefinition } from './gangscheduling/index.js';
import { podGroupPodsCountDefinition } from './podgrouppodscount/index.js';
import { topologyPlacementDefinition } from './topologyaware/index.js';
import { taintTolerationDefinition } from './tainttoleration/index.js';
import { nodeVolumeLimitsDefinition } from './nodevolumelimits/index.js';
import { volumeRestrictionsDefinition } from './volumerestrictions/index.js';
import { volumeZoneDefinition } from './volumezone/index.js';
import { volumeBindingDefinition } from './volumebinding/index.js';

/** A fresh registry of every in-tree plugin we have built. */
export function inTreeRegistry(): Registry {
  return new Registry([
    prioritySortDefinition,
    schedulingGatesDefinition,
    gangSchedulingDefinition,
    nodeUnschedulableDefinition,
    nodeNameDefinition,
    taintTolerationDefinition,
    nodeAffinityDefinition,
    nodePortsDefinition,
    volumeRestrictionsDefinition,
    nodeVolumeLimitsDefinition,
    volumeZoneDefinition,
    volumeBindingDefinition,
    dynamicResourcesDefinition,
    nodeResourcesFitDefinition,
    balancedAllocationDefinition,
    imageLocalityDefinition,
    podTopologySpreadDefinition,
    interPodAffinityDefinition,
    defaultBinderDefinition,
    defaultPreemptionDefinition,
    nodeDeclaredFeaturesDefinition,
    topologyPlacementDefinition,
    podGroupPodsCountDefinition,
  ]);
}

/**
 * Upstream in-tree plugins we have not built yet, all behind gates off by default (config's
 * GatedInTreePluginNames): a profile that enables them starts with a warning and runs without them.
 */
export const notYetAvailablePlugins: ReadonlySet<string> = new Set<string>([DeferredPodScheduling]);
