// `--plugins FILE` (repeatable, every command that schedules): out-of-tree plugins from modules
// whose `plugins` export (or default export) is an array of PluginDefinitions, next to the
// in-tree ones. JavaScript modules are imported as they are; TypeScript ones (.ts, .mts)
// are compiled on load by tsx, so a plugin needs no build step in any mode.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Registry, type AnyPluginDefinition } from '../framework/registry.js';
import { inTreeRegistry } from '../plugins/registry.js';
import { UsageError } from './io.js';

interface PluginModule {
  plugins?: unknown;
  default?: unknown;
}

const typeScriptFile = /\.m?ts$/;

let typeScriptLoader: Promise<unknown> | undefined;

/**
 * Registers tsx's loader for the whole process, once, on the first TypeScript module. Its scoped
 * `tsImport` would load a second copy of every module the plugin imports, so the plugin's
 * `Status` would not be the scheduler's.
 */
function loadTypeScript(): Promise<unknown> {
  // tsx's on-disk cache lives in the temp dir; where that is read-only (deploy/ runs with a
  // read-only root filesystem) loading hangs. A plugin module compiles in milliseconds anyway.
  process.env.TSX_DISABLE_CACHE ??= '1';
  typeScriptLoader ??= import('tsx/esm/api').then(({ register }) => register());
  return typeScriptLoader;
}

async function importPluginModule(path: string): Promise<PluginModule> {
  if (typeScriptFile.test(path)) await loadTypeScript();
  return (await import(pathToFileURL(resolve(path)).href)) as PluginModule;
}

function definitionsOf(mod: PluginModule): AnyPluginDefinition[] | undefined {
  const defs: unknown = mod.plugins ?? mod.default;
  if (!Array.isArray(defs)) return undefined;
  const valid = defs.every((d: { name?: unknown; factory?: unknown } | null) => typeof d?.name === 'string' && typeof d.factory === 'function');
  return valid ? (defs as AnyPluginDefinition[]) : undefined;
}

/** The in-tree registry with the plugins of each module added, in order; a bad module is a usage error naming it. */
export async function registryWithPlugins(modules: readonly string[]): Promise<Registry> {
  let registry = inTreeRegistry();
  for (const path of modules) {
    let mod: PluginModule;
    try {
      mod = await importPluginModule(path);
    } catch (err) {
      throw new UsageError(`--plugins ${path}: ${(err as Error).message}`);
    }
    const defs = definitionsOf(mod);
    if (!defs) throw new UsageError(`--plugins ${path}: must export \`plugins\`, an array of { name, factory, ... } plugin definitions`);
    try {
      registry = registry.merge(new Registry(defs));
    } catch (err) {
      throw new UsageError(`--plugins ${path}: ${(err as Error).message}`);
    }
  }
  return registry;
}
