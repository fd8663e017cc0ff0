// A timeline step's `reconfigure`: the scheduler restarts with another KubeSchedulerConfiguration at
// that point of simulated time, as kube-scheduler restarted with a new file would (cmd/kube-scheduler
// app/server.go: Setup builds everything from the configuration; nothing survives but the cluster).
import { configFromObject, parseConfig } from '../../config/index.js';
import type { Registry } from '../../framework/registry.js';
import { Scheduler, type ResolvedConfig } from '../../scheduler/scheduler.js';
import { embeddedDeps, type Embedded, type EmbeddedOptions } from '../scenario/embedded.js';
import type { Scenario } from '../scenario/scenario.js';

/**
 * The configuration each step switches to (undefined for steps that keep the current one), all
 * resolved before the run starts, so a bad one stops it at once with its file, field and reason.
 */
export function stepConfigurations(sc: Scenario, registry: Registry): (ResolvedConfig | undefined)[] {
  return sc.steps.map(({ reconfigure: r }) => {
    if (r === undefined) return undefined;
    return 'text' in r ? parseConfig(r.text, r.source, registry) : configFromObject(r.value, r.source, registry);
  });
}

/**
 * Replaces `env`'s scheduler with one built from `config` over the same cluster and clock: binding
 * cycles in flight finish first, then the old one stops and the new one lists the cluster, so its
 * cache holds every bound pod and every pod still pending is queued afresh (backoffs forgotten, as
 * after a restart). Profiles, plugins and their args, extenders and the queue's backoffs all come
 * from `config`; `o` keeps the run's other settings (seed, attempt observer, feature gates).
 */
export async function restartWithConfiguration(env: Embedded, config: ResolvedConfig, o: EmbeddedOptions): Promise<Scheduler> {
  await env.scheduler.waitForBindings();
  env.scheduler.stop();
  const next = Scheduler.fromConfig(config, embeddedDeps({ ...o, config }, env.cluster, env.clock));
  await next.start();
  env.scheduler = next;
  return next;
}
