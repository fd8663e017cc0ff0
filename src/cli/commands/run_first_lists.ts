// `run`'s first lists of nodes and pods, and with leader election on its first read of the Lease,
// asked for before the scheduler's code loads: the API server answers them while Node loads the
// core (bin.ts imports this module first, built as a file of its own beside dist/core.js, sharing
// KubeConfig and YAML with it through dist/vendor/), where upstream's binary starts its informers
// at once. Anything unclear (bad flags, no kubeconfig) sends nothing: `run` then lists as usual
// and reports the problem itself.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { KubeConfig } from '../../cluster/kube/kube_config.js';
import { listAll, type Listed } from '../../cluster/kube/list.js';
import { informerDropsManagedFields, listKeyOf, resourceSpec } from '../../cluster/kube/resources.js';
import { HttpTransport, loadKubeConfig } from '../../cluster/kube/rest.js';
import { DefaultLockObjectName, DefaultLockObjectNamespace } from '../../config/lease_defaults.js';
import { getLease, type Lease } from '../../leaderelection/lease_lock.js';
import { parseCommand, parseGoBool } from '../command_spec.js';
import { runSpec } from './run_spec.js';

export interface FirstLists {
  /** The API server and user they were asked of (`targetOf`): only a client of the same uses them. */
  readonly target: string;
  /** By `listKeyOf` the kind's spec. */
  readonly lists: ReadonlyMap<string, Promise<Listed>>;
  /** The leader election Lease read (null: not found), when leader election is on. */
  readonly lease?: { readonly namespace: string; readonly name: string; readonly read: Promise<Lease | null> };
  /**
   * Resolves once both lists' requests have gone to the server (or failed), or after `sendWaitMs`
   * at most. bin.ts waits for it before loading the core: the connections' TLS handshakes need the
   * main thread, which the core's loading would hold for ~60 ms, and until they are done the API
   * server has nothing to work on.
   */
  readonly sent: Promise<void>;
}

/** The longest bin.ts waits for the first lists to go out (an API server that does not answer the connection). */
export const sendWaitMs = 200;

/** Who a kubeconfig talks to and as whom. */
export function targetOf(kc: KubeConfig): string {
  return JSON.stringify([kc.getCurrentCluster(), kc.getCurrentUser()]);
}

/** The parts of a configuration file read before it is loaded whole (nothing validated). */
interface ConfigGlance {
  clientConnection?: { kubeconfig?: unknown };
  leaderElection?: { leaderElect?: unknown; resourceName?: unknown; resourceNamespace?: unknown };
}

function glanceAtConfig(configFile: string | undefined): ConfigGlance {
  if (!configFile) return {};
  return (parseYaml(readFileSync(configFile, 'utf8')) as ConfigGlance | null) ?? {};
}

/** run's leader election flags (run_spec.ts). */
interface LeaderElectFlags {
  readonly 'leader-elect'?: string;
  readonly 'leader-elect-resource-name'?: string;
  readonly 'leader-elect-resource-namespace'?: string;
}

const stringOr = (v: unknown, fallback: string): string => (typeof v === 'string' && v !== '' ? v : fallback);

/** The Lease `run` would elect its leader on (resolveRunConfiguration's flags over the file), or null with leader election off. */
function electionLease(flags: LeaderElectFlags, config: ConfigGlance): { namespace: string; name: string } | null {
  const le = config.leaderElection ?? {};
  const flag = flags['leader-elect'];
  const on = flag !== undefined ? parseGoBool(flag) === true : le.leaderElect !== false;
  if (!on) return null;
  return {
    namespace: flags['leader-elect-resource-namespace'] || stringOr(le.resourceNamespace, DefaultLockObjectNamespace),
    name: flags['leader-elect-resource-name'] || stringOr(le.resourceName, DefaultLockObjectName),
  };
}

/** Sends the node and pod lists `run` with these arguments would send first (resourceVersion "0"). */
export function startFirstLists(argv: string[]): FirstLists | null {
  let kc: KubeConfig;
  let lease: { namespace: string; name: string } | null;
  try {
    // The flags as parseRunFlags reads them; what it refuses beyond their declarations refuses `run`.
    const flags = parseCommand(runSpec, argv).values;
    const config = glanceAtConfig(flags.config);
    const kubeconfig = config.clientConnection?.kubeconfig;
    kc = loadKubeConfig(flags.kubeconfig ?? (typeof kubeconfig === 'string' ? kubeconfig : ''), flags.master);
    lease = electionLease(flags, config);
  } catch {
    return null;
  }
  const transport = new HttpTransport(kc, { userAgent: 'kube-scheduler-ts/scheduler' });
  const lists = new Map<string, Promise<Listed>>();
  const sent: Promise<void>[] = [];
  for (const key of ['Node', 'Pod']) {
    const spec = resourceSpec(key);
    let onSent!: () => void;
    sent.push(new Promise<void>((resolve) => {
      onSent = resolve;
    }));
    const listed = listAll(transport, spec, '0', { onSent, withoutManagedFields: informerDropsManagedFields(key) });
    // A failure is the reflector's to retry; nothing waits on this promise but it.
    listed.then(onSent, onSent);
    lists.set(listKeyOf(spec), listed);
  }
  // Only read: the lease is taken once the informers synced, as upstream's scheduler does.
  const leaseRead = lease && { ...lease, read: getLease(transport, lease.namespace, lease.name) };
  leaseRead?.read.catch(() => undefined);
  void Promise.allSettled([...lists.values(), leaseRead?.read]).then(() => transport.destroy());
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, sendWaitMs);
    timer.unref();
  });
  const allSent = Promise.race([Promise.all(sent).then(() => undefined), waited]).finally(() => clearTimeout(timer));
  return { target: targetOf(kc), lists, sent: allSent, ...(leaseRead ? { lease: leaseRead } : {}) };
}
