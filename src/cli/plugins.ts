// `--plugins FILE` (repeatable, every command that schedules): out-of-tree plugins from modules
// whose `plugins` export (or default export) is an array of PluginDefinitions, next to the
// in-tree ones. JavaScript modules are imported as they are; TypeScript ones (.ts, .mts)
// are compiled on load by tsx, so a plugin needs no build step in any mode.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Registry, type AnyPluginDefinition } from '../framework/registry.js';
import { inTreeRegistry } from '../plugins/registry.js';
import { withShippedPlugins } from '../outoftree/registry.js';
import { UsageError } from './io.js';
import { importModule } from '../util/import_module.js';

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
  typeScriptLoader ??= importModule<typeof import('tsx/esm/api')>('tsx/esm/api').then(({ register }) => register());
  return typeScriptLoader;
}

async function importPluginModule(path: string): Promise<PluginModule> {
  if (typeScriptFile.test(path)) await loadTypeScript();
  return importModule<PluginModule>(pathToFileURL(resolve(path)).href);
}

/** The package.json that decides how Node reads `file` (the nearest one above it), if any. */
function owningPackageJson(file: string): string | undefined {
  for (let dir = dirname(resolve(file)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * What to do when a `.ts` module failed because Node read it as CommonJS (its package has no
 * "type": "module"), which cannot import kube-scheduler-ts, an ES module, from the built CLI.
 */
function commonJsAdvice(path: string, err: Error): string {
  if (!path.endsWith('.ts') || !/require\(\) ES Module|ERR_REQUIRE_(ESM|CYCLE_MODULE)/.test(`${err.message} ${(err as NodeJS.ErrnoException).code ?? ''}`)) return '';
  const pkg = owningPackageJson(path);
  let isModule = false;
  try {
    isModule = pkg !== undefined && (JSON.parse(readFileSync(pkg, 'utf8')) as { type?: unknown }).type === 'module';
  } catch {
    // An unreadable package.json: Node reads the file as CommonJS, as without one.
  }
  if (isModule) return '';
  const where = pkg === undefined ? 'a package.json with "type": "module" beside it' : `"type": "module" to ${pkg}`;
  return ` (a .ts file outside a "type": "module" package is loaded as CommonJS, which cannot import kube-scheduler-ts: rename it to .mts, or add ${where})`;
}

function definitionsOf(mod: PluginModule): AnyPluginDefinition[] | undefined {
  const defs: unknown = mod.plugins ?? mod.default;
  if (!Array.isArray(defs)) return undefined;
  const valid = defs.every((d: { name?: unknown; factory?: unknown } | null) => typeof d?.name === 'string' && typeof d.factory === 'function');
  return valid ? (defs as AnyPluginDefinition[]) : undefined;
}

/**
 * The in-tree registry with the plugins of each module added, in order, then the shipped ones
 * (Coscheduling) the modules do not define; a bad module is a usage error naming it.
 */
export async function registryWithPlugins(modules: readonly string[]): Promise<Registry> {
  let registry = inTreeRegistry();
  for (const path of modules) {
    let mod: PluginModule;
    try {
      mod = await importPluginModule(path);
    } catch (err) {
      throw new UsageError(`--plugins ${path}: ${(err as Error).message}${commonJsAdvice(path, err as Error)}`);
    }
    const defs = definitionsOf(mod);
    if (!defs) throw new UsageError(`--plugins ${path}: must export \`plugins\`, an array of { name, factory, ... } plugin definitions`);
    try {
      registry = registry.merge(new Registry(defs));
    } catch (err) {
      throw new UsageError(`--plugins ${path}: ${(err as Error).message}`);
    }
  }
  return withShippedPlugins(registry);
}
