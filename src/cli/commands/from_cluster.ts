// Reads a live cluster into a scenario (`--from-cluster`, `snapshot`): the kubeconfig found as
// kubectl finds it, a rate-limited client as `run`'s, the import, and the scenario built from it.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ClusterImportError, importCluster } from '../../cluster/kube/import.js';
import { rateLimiterFor } from '../../cluster/kube/rate_limiter.js';
import { HttpTransport, KubeConfigError, loadKubeConfig } from '../../cluster/kube/rest.js';
import { scenarioFromObjects } from '../../sim/scenario/imported_scenario.js';
import type { Scenario } from '../../sim/scenario/scenario.js';
import { RealClock } from '../../util/clock.js';
import { UsageError, type CliIO } from '../io.js';

/** How to read the cluster (the flags of cluster_flags.ts). */
export interface ClusterFlags {
  kubeconfig?: string;
  namespaces: string[];
  labelSelector?: string;
  fieldSelector?: string;
  qps: number;
  burst: number;
  pageSize: number;
}

/** --kubeconfig, else the first file of $KUBECONFIG, else ~/.kube/config if present, else in-cluster (''). */
function kubeconfigPath(flag: string | undefined): string {
  if (flag !== undefined) return flag;
  const fromEnv = (process.env.KUBECONFIG ?? '').split(delimiter).find(Boolean);
  if (fromEnv) return fromEnv;
  const home = join(homedir(), '.kube', 'config');
  return existsSync(home) ? home : '';
}

/** A request the server leaves unanswered this long fails the import instead of hanging it. */
const requestTimeoutMs = 60_000;

export async function scenarioFromCluster(flags: ClusterFlags, schedulerNames: readonly string[], io: CliIO): Promise<Scenario> {
  const path = kubeconfigPath(flags.kubeconfig);
  if (!path && !(process.env.KUBERNETES_SERVICE_HOST && process.env.KUBERNETES_SERVICE_PORT)) {
    throw new UsageError('--from-cluster: no kubeconfig ($KUBECONFIG, ~/.kube/config) and not in a cluster: pass --kubeconfig');
  }
  let kc;
  try {
    kc = loadKubeConfig(path);
  } catch (err) {
    if (err instanceof KubeConfigError) throw new UsageError(`--from-cluster: ${err.message}`);
    throw err;
  }
  const server = kc.getCurrentCluster()?.server ?? '';
  const clock = new RealClock();
  const transport = new HttpTransport(kc, { limiter: rateLimiterFor(flags.qps, flags.burst, clock), userAgent: 'kube-scheduler-ts/import', clock, maxRetries: 3, timeoutMs: requestTimeoutMs });
  try {
    const imported = await importCluster({
      transport,
      server,
      namespaces: flags.namespaces,
      labelSelector: flags.labelSelector,
      fieldSelector: flags.fieldSelector,
      pageSize: flags.pageSize,
      warn: (message) => io.stderr(`warning: ${message}\n`),
    });
    const { scenario, otherSchedulersPods } = scenarioFromObjects(imported.objects, `cluster ${server}`, schedulerNames);
    if (otherSchedulersPods > 0) io.stderr(`note: ${otherSchedulersPods} unbound pod(s) of other schedulers left out\n`);
    // A snapshot already holds its workloads' pods: controllers started on it would make more
    // (they do not adopt imported pods yet), so an imported cluster is served as it was taken.
    scenario.controllers ??= false;
    return scenario;
  } catch (err) {
    if (err instanceof ClusterImportError) throw new UsageError(err.message);
    throw err;
  } finally {
    transport.destroy();
  }
}
