// What loading a configuration needs to know of the plugins it may name, given by the caller
// (framework's Registry is one), so config/ depends on api/ only (ARCHITECTURE.md).
import type { FieldError } from '../api/field_errors.js';

/** One plugin's args: their kind (for decoding), defaulting and validation, when it takes any. */
export interface PluginArgsDefinition {
  readonly argsKind?: string;
  readonly defaultArgs?: (given: Record<string, unknown>) => unknown;
  readonly validateArgs?: (args: unknown, path: string) => FieldError[];
}

/** The plugins a configuration may name: in-tree and out-of-tree ones, by name. */
export interface PluginCatalog {
  has(name: string): boolean;
  get(name: string): PluginArgsDefinition | undefined;
}
