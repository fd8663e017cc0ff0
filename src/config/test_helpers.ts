// A small fake plugin Registry for the config tests: trivial factories and simple args
// defaulting/validation shaped like upstream's, so the tests do not depend on real plugins.
import type { AnyPluginDefinition, FieldError } from '../framework/registry.js';
import { Registry } from '../framework/registry.js';
import { fieldInvalid } from '../api/field_errors.js';
import { DefaultMultiPointPlugins } from './default_plugins.js';
import { configFromObject } from './load.js';

const trivial = (name: string): AnyPluginDefinition => ({ name, factory: () => ({ name }) });

type Args = Record<string, unknown>;
const int = (v: unknown, def: number): number => (typeof v === 'number' ? v : def);
const defaultResources = (): { name: string; weight: number }[] => [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

const withArgs: AnyPluginDefinition[] = [
  {
    name: 'DefaultPreemption',
    factory: () => ({ name: 'DefaultPreemption' }),
    argsKind: 'DefaultPreemptionArgs',
    defaultArgs: (g: Args) => ({
      minCandidateNodesPercentage: int(g['minCandidateNodesPercentage'], 10),
      minCandidateNodesAbsolute: int(g['minCandidateNodesAbsolute'], 100),
    }),
    validateArgs: (a: { minCandidateNodesPercentage: number }, path: string): FieldError[] =>
      a.minCandidateNodesPercentage < 0 || a.minCandidateNodesPercentage > 100
        ? [fieldInvalid(`${path}.minCandidateNodesPercentage`, a.minCandidateNodesPercentage, 'not in valid range [0, 100]')]
        : [],
  },
  {
    name: 'InterPodAffinity',
    factory: () => ({ name: 'InterPodAffinity' }),
    argsKind: 'InterPodAffinityArgs',
    defaultArgs: (g: Args) => ({
      hardPodAffinityWeight: int(g['hardPodAffinityWeight'], 1),
      ignorePreferredTermsOfExistingPods: g['ignorePreferredTermsOfExistingPods'] === true,
    }),
    validateArgs: (a: { hardPodAffinityWeight: number }, path: string): FieldError[] =>
      a.hardPodAffinityWeight < 0 || a.hardPodAffinityWeight > 100
        ? [fieldInvalid(`${path}.hardPodAffinityWeight`, a.hardPodAffinityWeight, 'not in valid range [0, 100]')]
        : [],
  },
  { name: 'NodeAffinity', factory: () => ({ name: 'NodeAffinity' }), argsKind: 'NodeAffinityArgs', defaultArgs: (g: Args) => ({ ...g }) },
  {
    name: 'NodeResourcesBalancedAllocation',
    factory: () => ({ name: 'NodeResourcesBalancedAllocation' }),
    argsKind: 'NodeResourcesBalancedAllocationArgs',
    defaultArgs: (g: Args) => ({ resources: Array.isArray(g['resources']) && g['resources'].length > 0 ? g['resources'] : defaultResources() }),
  },
  {
    name: 'NodeResourcesFit',
    factory: () => ({ name: 'NodeResourcesFit' }),
    argsKind: 'NodeResourcesFitArgs',
    defaultArgs: (g: Args) => {
      const s = (g['scoringStrategy'] ?? {}) as Args;
      const resources = Array.isArray(s['resources']) && s['resources'].length > 0 ? (s['resources'] as { name: string; weight?: number }[]) : defaultResources();
      return {
        ...g,
        scoringStrategy: { ...s, type: s['type'] ?? 'LeastAllocated', resources: resources.map((r) => ({ name: r.name, weight: r.weight || 1 })) },
      };
    },
  },
  {
    name: 'PodTopologySpread',
    factory: () => ({ name: 'PodTopologySpread' }),
    argsKind: 'PodTopologySpreadArgs',
    defaultArgs: (g: Args) => ({ ...g, defaultingType: g['defaultingType'] || 'System' }),
  },
  {
    name: 'VolumeBinding',
    factory: () => ({ name: 'VolumeBinding' }),
    argsKind: 'VolumeBindingArgs',
    defaultArgs: (g: Args) => ({ ...g, bindTimeoutSeconds: int(g['bindTimeoutSeconds'], 600) }),
  },
  {
    name: 'DynamicResources',
    factory: () => ({ name: 'DynamicResources' }),
    argsKind: 'DynamicResourcesArgs',
    defaultArgs: (g: Args) => ({ ...g, filterTimeout: g['filterTimeout'] ?? '10s', bindingTimeout: g['bindingTimeout'] ?? '10m0s' }),
  },
];

/** Every in-tree plugin, those with args defaulting as upstream's v1 SetDefaults_* do. */
export function fakeInTreeRegistry(): Registry {
  const byName = new Map(withArgs.map((d) => [d.name, d]));
  return new Registry(DefaultMultiPointPlugins.map((p) => byName.get(p.name) ?? trivial(p.name)));
}

/** The in-tree fake plus out-of-tree plugins: CustomSort, CustomBind, and MyPlugin with args. */
export function fakeRegistry(): Registry {
  return fakeInTreeRegistry().merge(
    new Registry([
      trivial('CustomSort'),
      trivial('CustomBind'),
      {
        name: 'MyPlugin',
        factory: () => ({ name: 'MyPlugin' }),
        argsKind: 'MyPluginArgs',
        defaultArgs: (g: Args) => ({ mode: g['mode'] ?? 'fast', ...g }),
      },
    ]),
  );
}

/** A v1 configuration of one default-scheduler profile with these plugins. */
export const withPlugins = (plugins: unknown) => ({ apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration', profiles: [{ schedulerName: 'default-scheduler', plugins }] });

/** The error loading `withPlugins(plugins)` with the fake registry gives, or '' when it loads. */
export function pluginsConfigError(plugins: unknown): string {
  try {
    configFromObject(withPlugins(plugins), 'c.yaml', fakeRegistry());
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}
