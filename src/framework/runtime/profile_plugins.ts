// A profile's plugins: built from the registry with their args, sorted into each extension point
// with multiPoint expanded in upstream's order, and the Score and PlacementScore weights
// (runtime/framework.go NewFramework, expandMultiPointPlugins, getScoreWeights).
import { runtimeExtensionPoints, type RuntimeExtensionPointName } from '../../api/extension_points.js';
import type { PluginConfig, PluginRef, PluginSet, Plugins } from '../../api/plugin_sets.js';
import { BadInputError } from '../../util/bad_input.js';
import type { Features } from '../features.js';
import * as fw from '../interfaces.js';
import type { Registry } from '../registry.js';
import { thrownMessage } from './thrown.js';

/** The plugin sets the runtime builds: those of the points it runs, and multiPoint. */
export type PluginsConfig = Pick<Plugins, RuntimeExtensionPointName | 'multiPoint'>;

/** What a framework is built from; a defaulted profile of the configuration is one. */
export interface ProfileConfig {
  schedulerName: string;
  percentageOfNodesToScore?: number | null;
  plugins: PluginsConfig;
  pluginConfig?: readonly PluginConfig[];
}

/** The plugin interface each point calls. */
interface PluginAt {
  preEnqueue: fw.PreEnqueuePlugin;
  queueSort: fw.QueueSortPlugin;
  preFilter: fw.PreFilterPlugin;
  filter: fw.FilterPlugin;
  postFilter: fw.PostFilterPlugin;
  preScore: fw.PreScorePlugin;
  score: fw.ScorePlugin;
  reserve: fw.ReservePlugin;
  permit: fw.PermitPlugin;
  preBind: fw.PreBindPlugin;
  bind: fw.BindPlugin;
  postBind: fw.PostBindPlugin;
  placementGenerate: fw.PlacementGeneratePlugin;
  placementScore: fw.PlacementScorePlugin;
}

/** How the runtime recognises each point's plugins: a point of the table without a guard does not compile. */
const guards: { readonly [K in RuntimeExtensionPointName]: (p: fw.Plugin) => p is PluginAt[K] } = {
  preEnqueue: fw.isPreEnqueuePlugin,
  queueSort: fw.isQueueSortPlugin,
  preFilter: fw.isPreFilterPlugin,
  filter: fw.isFilterPlugin,
  postFilter: fw.isPostFilterPlugin,
  preScore: fw.isPreScorePlugin,
  score: fw.isScorePlugin,
  reserve: fw.isReservePlugin,
  permit: fw.isPermitPlugin,
  preBind: fw.isPreBindPlugin,
  bind: fw.isBindPlugin,
  postBind: fw.isPostBindPlugin,
  placementGenerate: fw.isPlacementGeneratePlugin,
  placementScore: fw.isPlacementScorePlugin,
};

/** Each point's plugins, in the order they run. */
type PluginLists = { readonly [K in RuntimeExtensionPointName]: readonly PluginAt[K][] };

export interface ProfilePlugins {
  readonly byName: Map<string, fw.Plugin>;
  /** Plugins configured but not built yet (reported at start-up). */
  readonly unavailable: string[];
  readonly lists: PluginLists;
  readonly scoreWeights: Map<string, number>;
  readonly placementScoreWeights: Map<string, number>;
}

/** What building a profile's plugins needs besides the profile. */
export interface PluginBuildDeps {
  registry: Registry;
  features: Features;
  /** In-tree plugin names we do not implement yet: skipped with a warning instead of failing. */
  notYetAvailable?: ReadonlySet<string>;
}

/** A profile the framework cannot build (checks configuration validation cannot make ahead): bad input. */
class FrameworkError extends BadInputError {
  override name = 'FrameworkError';
}

/** Builds, sorts and weighs a profile's plugins; each factory receives `handle`. */
export function buildProfilePlugins(profile: ProfileConfig, handle: fw.Handle, deps: PluginBuildDeps): ProfilePlugins {
  const byName = new Map<string, fw.Plugin>();
  const unavailable = instantiate(profile, handle, deps, byName);
  const lists = pluginLists(profile.plugins, byName);
  const name = profile.schedulerName;
  if (lists.queueSort.length !== 1) throw new FrameworkError(`only one queue sort plugin required for profile with scheduler name "${name}", but got ${lists.queueSort.length}`);
  if (lists.bind.length === 0) throw new FrameworkError(`at least one bind plugin is needed for profile with scheduler name "${name}"`);
  const multiPoint = profile.plugins.multiPoint?.enabled ?? [];
  const scoreWeights = weights(lists.score, [...(profile.plugins.score?.enabled ?? []), ...multiPoint], '');
  const placementScoreWeights = weights(lists.placementScore, [...(profile.plugins.placementScore?.enabled ?? []), ...multiPoint], 'placement score plugins: ');
  return { byName, unavailable, lists, scoreWeights, placementScoreWeights };
}

/** Builds every enabled plugin once into `out`; the names skipped as not yet available. */
function instantiate(profile: ProfileConfig, handle: fw.Handle, deps: PluginBuildDeps, out: Map<string, fw.Plugin>): string[] {
  const needed = new Set<string>();
  for (const set of Object.values(profile.plugins)) for (const p of set?.enabled ?? []) needed.add(p.name);
  const argsByName = new Map<string, unknown>();
  for (const pc of profile.pluginConfig ?? []) {
    if (argsByName.has(pc.name)) throw new FrameworkError(`repeated config for plugin ${pc.name}`);
    argsByName.set(pc.name, pc.args);
  }
  const unavailable: string[] = [];
  for (const name of needed) {
    const def = deps.registry.get(name);
    if (!def) {
      if (deps.notYetAvailable?.has(name)) {
        unavailable.push(name);
        continue;
      }
      throw new FrameworkError(`plugin "${name}" does not exist`);
    }
    let args = argsByName.get(name);
    if (def.defaultArgs && (args === undefined || args === null)) args = def.defaultArgs({});
    try {
      out.set(name, def.factory(args, handle, deps.features));
    } catch (err) {
      throw new FrameworkError(`initializing plugin "${name}": ${thrownMessage(err)}`);
    }
  }
  return unavailable;
}

/** Every point's plugins in order: the explicit lists, then multiPoint expanded into them. */
function pluginLists(plugins: PluginsConfig, byName: ReadonlyMap<string, fw.Plugin>): PluginLists {
  const expand = (plugins.multiPoint?.enabled ?? []).length > 0;
  const labels = new Map(runtimeExtensionPoints.map((p) => [p.name, p.pluginType]));
  const at = <K extends RuntimeExtensionPointName>(point: K): PluginAt[K][] => {
    const guard = guards[point];
    const label = labels.get(point)!;
    const explicit = explicitList(label, guard, plugins[point], byName);
    // Every plugin listed passed the point's guard; filtering again only narrows the type.
    return (expand ? expandMultiPoint(point, label, guard, plugins, explicit, byName) : explicit).filter(guard);
  };
  return {
    preEnqueue: at('preEnqueue'),
    queueSort: at('queueSort'),
    preFilter: at('preFilter'),
    filter: at('filter'),
    postFilter: at('postFilter'),
    preScore: at('preScore'),
    score: at('score'),
    reserve: at('reserve'),
    permit: at('permit'),
    preBind: at('preBind'),
    bind: at('bind'),
    postBind: at('postBind'),
    placementGenerate: at('placementGenerate'),
    placementScore: at('placementScore'),
  };
}

function explicitList(label: string, guard: (p: fw.Plugin) => boolean, set: PluginSet | undefined, byName: ReadonlyMap<string, fw.Plugin>): fw.Plugin[] {
  const list: fw.Plugin[] = [];
  const seen = new Set<string>();
  for (const ref of set?.enabled ?? []) {
    const p = byName.get(ref.name);
    if (!p) continue; // not yet available, already reported
    if (!guard(p)) throw new FrameworkError(`plugin "${ref.name}" does not extend ${label} plugin`);
    if (seen.has(ref.name)) throw new FrameworkError(`plugin "${ref.name}" already registered as "${label}"`);
    seen.add(ref.name);
    list.push(p);
  }
  return list;
}

/**
 * multiPoint expansion with upstream's order: plugins also enabled explicitly at this point come
 * first, in their explicit order (the explicit setting overrides multiPoint), then the
 * multiPoint-only ones in multiPoint order, then the remaining explicit ones.
 */
function expandMultiPoint(
  point: RuntimeExtensionPointName,
  label: string,
  guard: (p: fw.Plugin) => boolean,
  plugins: PluginsConfig,
  explicit: readonly fw.Plugin[],
  byName: ReadonlyMap<string, fw.Plugin>,
): fw.Plugin[] {
  const disabled = new Set((plugins[point]?.disabled ?? []).map((d) => d.name));
  if (disabled.has('*')) return [...explicit];
  const explicitNames = explicit.map((p) => p.name);
  const overrides = new Set<string>();
  const fromMultiPoint: string[] = [];
  for (const ref of plugins.multiPoint?.enabled ?? []) {
    const p = byName.get(ref.name);
    if (!p) continue;
    if (!guard(p) || disabled.has(ref.name)) continue;
    if (explicitNames.includes(ref.name)) {
      overrides.add(ref.name);
      continue;
    }
    if (fromMultiPoint.includes(ref.name)) throw new FrameworkError(`plugin "${ref.name}" already registered as "${label}"`);
    fromMultiPoint.push(ref.name);
  }
  const order: string[] = [];
  for (const n of explicitNames) if (overrides.has(n)) order.push(n);
  order.push(...fromMultiPoint);
  for (const n of explicitNames) if (!overrides.has(n)) order.push(n);
  return order.map((n) => byName.get(n)!);
}

/**
 * getScoreWeights: each plugin's weight from its first reference (at least 1), refusing a
 * profile whose weighted maximum could overflow; `prefix` names the extension point in the error.
 */
function weights(plugins: readonly fw.Plugin[], refs: readonly PluginRef[], prefix: string): Map<string, number> {
  const first = new Map<string, number>();
  for (const r of refs) if (!first.has(r.name)) first.set(r.name, Math.max(r.weight ?? 0, 1));
  const out = new Map<string, number>();
  let total = 0;
  for (const p of plugins) {
    const w = first.get(p.name) ?? 1;
    out.set(p.name, w);
    if (w * fw.MaxNodeScore > fw.MaxTotalScore - total) throw new FrameworkError(`${prefix}total score of Score plugins could overflow`);
    total += w * fw.MaxNodeScore;
  }
  return out;
}
