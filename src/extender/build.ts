// The configured extenders, in the order the scheduler consults them (pkg/scheduler/scheduler.go
// buildExtenders).
import type { Extender as ExtenderConfig } from '../config/types.js';
import { HttpExtender } from './http_extender.js';
import type { ExtenderTransport } from './transport.js';
import { BadInputError } from '../util/bad_input.js';

export interface BuiltExtenders {
  /** Non-ignorable extenders first, then the ignorable ones, each group in configuration order. */
  readonly extenders: HttpExtender[];
  /**
   * Managed resources marked ignoredByScheduler, in configuration order: upstream makes them
   * every profile's NodeResourcesFit ignoredResources, replacing what the profile set.
   */
  readonly ignoredResources: string[];
}

/**
 * Extenders that cannot be set up (unreadable TLS files, a bad httpTimeout), each named by its
 * field path: found at start-up, since loading a configuration reads no files.
 */
export class ExtenderSetupError extends BadInputError {
  override name = 'ExtenderSetupError';

  constructor(readonly issues: readonly { path: string; message: string }[]) {
    super(issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  }
}

/**
 * Creates one HttpExtender per configuration; throws an ExtenderSetupError naming every one that
 * cannot be set up. `transport`, when given, serves every extender (tests).
 */
export function buildExtenders(configs: readonly ExtenderConfig[], transport?: ExtenderTransport): BuiltExtenders {
  const required: HttpExtender[] = [];
  const ignorable: HttpExtender[] = [];
  const ignoredResources: string[] = [];
  const issues: { path: string; message: string }[] = [];
  configs.forEach((cfg, i) => {
    let extender: HttpExtender;
    try {
      extender = new HttpExtender(cfg, transport);
    } catch (err) {
      issues.push({ path: `extenders[${i}]`, message: (err as Error).message });
      return;
    }
    (extender.isIgnorable() ? ignorable : required).push(extender);
    for (const r of cfg.managedResources ?? []) if (r.ignoredByScheduler === true) ignoredResources.push(r.name);
  });
  if (issues.length > 0) throw new ExtenderSetupError(issues);
  return { extenders: [...required, ...ignorable], ignoredResources };
}
