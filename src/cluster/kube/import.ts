// Reads a cluster's state once, read-only, for a what-if simulation: paged lists of every kind the
// scheduler reads (client-go tools/pager/pager.go: limit/continue, a full list when the continue
// token expired), with errors that say what to fix (unreachable server, credentials, RBAC).
import type { KubeObject } from '../../api/types.js';
import { ApiError } from '../types.js';
import { isExpired, isNotFound } from './errors.js';
import { resourceSpec, servedOnlyBeyondDefaults, watchedResources, type ResourceSpec } from './resources.js';
import type { RestTransport } from './rest.js';


/**
 * What the scheduler's informers watch, and what a simulation needs besides: PriorityClasses
 * (admission of the pods), the workloads the embedded controllers run, and claim templates.
 */
export const importedResources: readonly ResourceSpec[] = [
  resourceSpec('PriorityClass'),
  ...watchedResources.filter((r) => r.kind !== 'Node' && r.kind !== 'Pod'),
  resourceSpec('Deployment'),
  resourceSpec('DaemonSet'),
  resourceSpec('Job'),
  resourceSpec('ResourceClaimTemplate'),
  // Skipped quietly where not served (GenericWorkload off, no scheduler-plugins CRD).
  resourceSpec('Workload'),
  resourceSpec('CompositePodGroup'),
  resourceSpec('PodGroup'),
  resourceSpec('PodGroup.scheduling.x-k8s.io'),
  ...watchedResources.filter((r) => r.kind === 'Node' || r.kind === 'Pod'),
];

export interface ImportOptions {
  transport: RestTransport;
  /** The API server's address, for messages. */
  server: string;
  /** Namespaces to read namespaced kinds from; all when empty or unset. */
  namespaces?: readonly string[];
  /** Label selector of pods. */
  labelSelector?: string;
  /** Field selector of pods, on top of leaving out finished pods. */
  fieldSelector?: string;
  /** Objects per list request (client-go's pager default: 500). */
  pageSize?: number;
  /** Told about each kind the server does not serve (skipped). */
  warn?: (message: string) => void;
  resources?: readonly ResourceSpec[];
}

export interface ImportedCluster {
  /** Objects of every kind, kind by kind in `importedResources` order, without server-managed noise. */
  readonly objects: KubeObject[];
  /** Kinds the server does not serve. */
  readonly skipped: string[];
}

/** A cluster that cannot be read as asked; the message says why and what to do. */
export class ClusterImportError extends Error {
  override name = 'ClusterImportError';
}

/** A bound on pages per list, so a server that keeps answering with a continue token cannot loop us forever. */
const maxPages = 1_000_000;

interface ListBody {
  items?: KubeObject[];
  metadata?: { continue?: string };
}

function pathIn(spec: ResourceSpec, namespace: string): string {
  const cut = spec.path.lastIndexOf('/');
  return `${spec.path.slice(0, cut)}/namespaces/${encodeURIComponent(namespace)}${spec.path.slice(cut)}`;
}

const pluralOf = (spec: ResourceSpec): string => spec.path.slice(spec.path.lastIndexOf('/') + 1);

/** The resource as RBAC rules name it: "pods", "storageclasses.storage.k8s.io". */
function rbacName(spec: ResourceSpec): string {
  const slash = spec.apiVersion.indexOf('/');
  return slash < 0 ? pluralOf(spec) : `${pluralOf(spec)}.${spec.apiVersion.slice(0, slash)}`;
}

const serverManagedMeta = ['managedFields', 'resourceVersion', 'selfLink'] as const;

/** Server-managed fields a snapshot does without; uids (owner references) and creation times (order) stay. */
function withoutServerNoise(o: KubeObject, spec: ResourceSpec): KubeObject {
  const meta: Record<string, unknown> = { ...o.metadata };
  for (const field of serverManagedMeta) delete meta[field];
  return { ...o, apiVersion: spec.apiVersion, kind: spec.kind, metadata: meta as KubeObject['metadata'] };
}

const isFinishedPod = (o: KubeObject): boolean => {
  const phase = (o as { status?: { phase?: string } }).status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
};

async function listAllPages(t: RestTransport, path: string, query: Record<string, string | undefined>, pageSize: number): Promise<KubeObject[]> {
  const items: KubeObject[] = [];
  let token: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    let body: ListBody;
    try {
      body = await t.request<ListBody>({ method: 'GET', path, query: { ...query, limit: String(pageSize), continue: token } });
    } catch (err) {
      // The continue token outlived the server's compaction window: read it whole, as the pager does.
      if (token !== undefined && isExpired(err)) return (await t.request<ListBody>({ method: 'GET', path, query })).items ?? [];
      throw err;
    }
    for (const o of body.items ?? []) items.push(o);
    token = body.metadata?.continue || undefined;
    if (token === undefined) return items;
  }
  throw new ClusterImportError(`listing ${path} did not end after ${maxPages} pages`);
}

function describe(err: unknown, spec: ResourceSpec, scope: string, server: string): Error {
  if (!(err instanceof ApiError)) {
    const message = err instanceof Error ? err.message : String(err);
    return new ClusterImportError(`cannot reach the API server at ${server}: ${message}`);
  }
  if (err.code === 401) {
    return new ClusterImportError(`the API server at ${server} did not accept our credentials (401 Unauthorized): check the kubeconfig's user (token, client certificate)`);
  }
  if (err.code === 403) {
    // One read-only role holds every kind an import lists (test/deploy.test.ts keeps it complete).
    return new ClusterImportError(`cannot list ${pluralOf(spec)} ${scope}: grant get/list on ${rbacName(spec)} (deploy/rbac.yaml's ClusterRole kube-scheduler-ts-import has every kind an import reads)`);
  }
  return new ClusterImportError(`cannot list ${pluralOf(spec)} ${scope}: ${err.code} ${err.message}`);
}

/** Lists every kind, one after another (the transport's rate limiter paces the requests). */
export async function importCluster(o: ImportOptions): Promise<ImportedCluster> {
  const pageSize = o.pageSize ?? 500;
  const namespaces = o.namespaces ?? [];
  const objects: KubeObject[] = [];
  const skipped: string[] = [];
  for (const spec of o.resources ?? importedResources) {
    const query: Record<string, string | undefined> = {};
    if (spec.kind === 'Pod') {
      query.fieldSelector = [spec.fieldSelector, o.fieldSelector].filter(Boolean).join(',') || undefined;
      query.labelSelector = o.labelSelector || undefined;
    }
    const scopes = spec.namespaced && namespaces.length > 0
      ? namespaces.map((ns) => ({ path: pathIn(spec, ns), scope: `in namespace "${ns}"` }))
      : [{ path: spec.path, scope: spec.namespaced ? 'in all namespaces' : 'at the cluster scope' }];
    let served = true;
    for (const { path, scope } of scopes) {
      let items: KubeObject[];
      try {
        items = await listAllPages(o.transport, path, query, pageSize);
      } catch (err) {
        if (isNotFound(err)) {
          served = false;
          break;
        }
        throw describe(err, spec, scope, o.server);
      }
      for (const item of items) if (spec.kind !== 'Pod' || !isFinishedPod(item)) objects.push(withoutServerNoise(item, spec));
    }
    if (!served) {
      skipped.push(spec.key);
      if (!servedOnlyBeyondDefaults(spec.key)) o.warn?.(`the API server does not serve ${spec.apiVersion} ${pluralOf(spec)}: no ${spec.kind} objects imported`);
    }
  }
  return { objects, skipped };
}
