// The out-of-tree plugins shipped with the package, available by name in every command as
// scheduler-plugins' image registers them beside the in-tree ones.
import { Registry, type AnyPluginDefinition } from '../framework/registry.js';
import { coscheduling } from './coscheduling/index.js';

const shippedPlugins: readonly AnyPluginDefinition[] = [coscheduling];

/** `registry` with the shipped plugins it does not define: a plugins module's own definition of one wins. */
export function withShippedPlugins(registry: Registry): Registry {
  const missing = shippedPlugins.filter((d) => !registry.has(d.name));
  return missing.length === 0 ? registry : registry.merge(new Registry(missing));
}
