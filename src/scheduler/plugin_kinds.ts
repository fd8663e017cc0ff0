// The kinds a scheduler's enabled plugins read beyond its own informers (their definitions'
// `watches`): the real API server's extra informers and the embedded cluster's CRDs.
import type { Registry } from '../framework/registry.js';
import type { Scheduler } from './scheduler.js';

/** The kinds (keys) the enabled plugins of every profile of `scheduler` read. */
export function pluginKinds(scheduler: Scheduler, registry: Registry): Set<string> {
  const out = new Set<string>();
  for (const fwk of scheduler.profiles.values()) for (const name of fwk.pluginsByName.keys()) for (const k of registry.get(name)?.watches ?? []) out.add(k);
  return out;
}
