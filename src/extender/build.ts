// The configured extenders, in the order the scheduler consults them (pkg/scheduler/scheduler.go
// buildExtenders).
import type { Extender as ExtenderConfig } from '../config/types.js';
import { HttpExtender } from './http_extender.js';
import type { ExtenderTransport } from './transport.js';

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
 * Creates one HttpExtender per configuration; throws when one cannot be set up (unreadable TLS
 * files, bad httpTimeout). `transport`, when given, serves every extender (tests).
 */
export function buildExtenders(configs: readonly ExtenderConfig[], transport?: ExtenderTransport): BuiltExtenders {
  const required: HttpExtender[] = [];
  const ignorable: HttpExtender[] = [];
  const ignoredResources: string[] = [];
  for (const cfg of configs) {
    const extender = new HttpExtender(cfg, transport);
    (extender.isIgnorable() ? ignorable : required).push(extender);
    for (const r of cfg.managedResources ?? []) if (r.ignoredByScheduler === true) ignoredResources.push(r.name);
  }
  return { extenders: [...required, ...ignorable], ignoredResources };
}
