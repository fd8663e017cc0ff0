// `run`'s first lists of nodes and pods, asked for before the scheduler's code loads: the API
// server encodes them while Node compiles the core (bin.ts imports this module first, built as a
// file of its own beside dist/core.js, sharing KubeConfig and YAML with it through dist/vendor/),
// where upstream's binary starts its informers at once. Anything unclear (bad flags, no
// kubeconfig) sends nothing: `run` then lists as usual and reports the problem itself.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { KubeConfig } from '../../cluster/kube/kube_config.js';
import { listAll, type Listed } from '../../cluster/kube/list.js';
import { listKeyOf, resourceSpec } from '../../cluster/kube/resources.js';
import { HttpTransport, loadKubeConfig } from '../../cluster/kube/rest.js';
import { parseCommand } from '../command_spec.js';
import { runSpec } from './run_spec.js';

export interface FirstLists {
  /** The API server and user they were asked of (`targetOf`): only a client of the same uses them. */
  readonly target: string;
  /** By `listKeyOf` the kind's spec. */
  readonly lists: ReadonlyMap<string, Promise<Listed>>;
}

/** Who a kubeconfig talks to and as whom. */
export function targetOf(kc: KubeConfig): string {
  return JSON.stringify([kc.getCurrentCluster(), kc.getCurrentUser()]);
}

/** clientConnection.kubeconfig of a configuration file, read without validating the rest. */
function configuredKubeconfig(configFile: string | undefined): string {
  if (!configFile) return '';
  const doc = parseYaml(readFileSync(configFile, 'utf8')) as { clientConnection?: { kubeconfig?: unknown } } | null;
  const path = doc?.clientConnection?.kubeconfig;
  return typeof path === 'string' ? path : '';
}

/** Sends the node and pod lists `run` with these arguments would send first (resourceVersion "0"). */
export function startFirstLists(argv: string[]): FirstLists | null {
  let kc: KubeConfig;
  try {
    // The flags as parseRunFlags reads them; what it refuses beyond their declarations refuses `run`.
    const flags = parseCommand(runSpec, argv).values;
    kc = loadKubeConfig(flags.kubeconfig ?? configuredKubeconfig(flags.config), flags.master);
  } catch {
    return null;
  }
  const transport = new HttpTransport(kc, { userAgent: 'kube-scheduler-ts/scheduler' });
  const lists = new Map<string, Promise<Listed>>();
  for (const key of ['Node', 'Pod']) {
    const spec = resourceSpec(key);
    const listed = listAll(transport, spec, '0');
    // A failure is the reflector's to retry; nothing waits on this promise but it.
    listed.catch(() => undefined);
    lists.set(listKeyOf(spec), listed);
  }
  void Promise.allSettled(lists.values()).then(() => transport.destroy());
  return { target: targetOf(kc), lists };
}
