// The plugin registry: in-tree and out-of-tree plugin definitions by name (runtime/registry.go).
import type { FieldError } from '../api/field_errors.js';
import type { Features } from './features.js';
import type { Handle, ListedKind, Plugin } from './interfaces.js';

/** Args validation reports field errors (api/field_errors.ts builds them). */
export type { FieldError };

export interface PluginDefinition<A = unknown> {
  readonly name: string;
  /** Builds the plugin from defaulted, validated args and the feature gates' values. */
  readonly factory: (args: A, handle: Handle, features: Features) => Plugin;
  /** The args kind (e.g. `NodeResourcesFitArgs`) for plugins that take args. */
  readonly argsKind?: string;
  /** Fills unset fields with upstream's defaults; called with `{}` when no args were given. */
  readonly defaultArgs?: (given: Record<string, unknown>) => A;
  /** Validates defaulted args; `path` is the args' field path for messages. */
  readonly validateArgs?: (args: A, path: string) => FieldError[];
  /**
   * Kinds the plugin reads through `Handle.objects()` that the scheduler does not watch for itself
   * (a custom resource, such as scheduler-plugins' `PodGroup.scheduling.x-k8s.io`). `run` lists
   * and watches them while a profile enables the plugin, as such a plugin's own informer does
   * upstream; the embedded cluster delivers every listed kind anyway.
   */
  readonly watches?: readonly ListedKind[];
}

// A definition whose args type is erased, so definitions of different plugins fit one registry.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPluginDefinition = PluginDefinition<any>;

export class Registry {
  private readonly defs = new Map<string, AnyPluginDefinition>();

  constructor(defs: readonly AnyPluginDefinition[] = []) {
    for (const d of defs) this.register(d);
  }

  register(def: AnyPluginDefinition): void {
    if (this.defs.has(def.name)) throw new Error(`a plugin named ${def.name} already exists`);
    this.defs.set(def.name, def);
  }

  /** Adds out-of-tree plugins; a name clash is an error, as upstream's Registry.Merge. */
  merge(other: Registry): Registry {
    const merged = new Registry([...this.defs.values()]);
    for (const d of other.defs.values()) merged.register(d);
    return merged;
  }

  get(name: string): AnyPluginDefinition | undefined {
    return this.defs.get(name);
  }

  has(name: string): boolean {
    return this.defs.has(name);
  }

  names(): string[] {
    return [...this.defs.keys()];
  }
}
