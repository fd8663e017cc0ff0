// Coscheduling shipped with the package: scheduler-plugins' pkg/coscheduling over the plugin contract only.
import type { FieldError, Handle, PluginDefinition } from '../../plugin.js';
import { Coscheduling, Name, type CoschedulingArgs } from './coscheduling.js';
import type { CoschedulingSource } from './manager.js';
import { handleSource, PodGroupKind } from './handle_source.js';

export { Coscheduling, Name, type CoschedulingArgs } from './coscheduling.js';
export type { CoschedulingSource } from './manager.js';
export { handleSource, PodGroupKind } from './handle_source.js';
export * from './types.js';

/** scheduler-plugins' v1 defaults: a 60 s Permit wait, no group backoff. */
export function defaultCoschedulingArgs(given: Record<string, unknown>): CoschedulingArgs {
  return {
    permitWaitingTimeSeconds: (given['permitWaitingTimeSeconds'] as number | undefined) ?? 60,
    podGroupBackoffSeconds: (given['podGroupBackoffSeconds'] as number | undefined) ?? 0,
  };
}

/** ValidateCoschedulingArgs: both durations whole, non-negative seconds (upstream's message says "greater than 0"). */
export function validateCoschedulingArgs(args: CoschedulingArgs, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of ['permitWaitingTimeSeconds', 'podGroupBackoffSeconds'] as const) {
    const v: unknown = args[field];
    if (typeof v !== 'number' || !Number.isInteger(v)) errs.push({ path: `${path}.${field}`, message: `Invalid value: ${JSON.stringify(v)}: must be an integer` });
    else if (v < 0) errs.push({ path: `${path}.${field}`, message: `Invalid value: ${v}: must be greater than 0` });
  }
  return errs;
}

/**
 * The Coscheduling definition over `source`: where PodGroups and their member pods are read
 * (upstream: the scheduling.x-k8s.io client and the pod informer).
 */
export function coschedulingDefinition(source: (handle: Handle) => CoschedulingSource = handleSource): PluginDefinition<CoschedulingArgs> {
  return {
    name: Name,
    argsKind: 'CoschedulingArgs',
    defaultArgs: defaultCoschedulingArgs,
    validateArgs: validateCoschedulingArgs,
    factory: (args, handle) => new Coscheduling(handle, args, source(handle)),
    // The informer the default source reads; a source of its own needs none.
    ...(source === handleSource ? { watches: [PodGroupKind] } : {}),
  };
}

/** Coscheduling over the scheduler's informers: what a configuration naming `Coscheduling` gets without a plugins module. */
export const coscheduling: PluginDefinition<CoschedulingArgs> = coschedulingDefinition();
export { reconcilePodGroupStatus } from './status.js';
