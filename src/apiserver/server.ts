// The embedded Kubernetes API server: node's http module serving discovery, the resources of the
// embedded store (list/watch/get/create/update/patch/delete), pods/binding and the status
// subresources (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/*.go, request/requestinfo.go).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { parseAllDocuments } from 'yaml';
import type { AddressInfo } from 'node:net';
import { kindKey, kinds } from '../api/kinds.js';
import type { KubeObject } from '../api/types.js';
import type { MemoryCluster } from '../cluster/memory/store.js';
import { ApiError } from '../cluster/types.js';
import { RealClock, type Clock } from '../util/clock.js';
import { ResourceRegistry, systemNamespaces, type DeleteOptions, type FieldValidation, type Target, type WriteOptions } from './registry.js';
import { apiGroupDocument, apiGroupList, apiResourceList, apiVersions, findResource, groupVersion, resourcesFor, servedByDefault, withInstalledCrds, type Resource } from './resources.js';
import { crdKind, servesVersion, type CustomResourceDefinition } from '../api/crds.js';
import { parseFieldSelector, parseLabelSelector } from './selectors.js';
import {
  badRequest, expired, fromStoreError, internalError, invalid, methodNotSupported, pathNotFound, ServedStatusError, tooLargeResourceVersion, unsupportedMediaType,
} from './status.js';
import { openAPIV2Json, openAPIV2Protobuf, openAPIV2ProtobufType, openAPIV3GroupVersion, openAPIV3Index } from './openapi.js';
import { toTable, type IncludeObject } from './table.js';
import { documentProblem, notSupported, systemPriorityClassObjects } from '../api/validation/index.js';
import { WatchStream } from './watch.js';
import { EvictionREST } from './eviction.js';
import { decodeProtobufBody, protobufMediaType } from './protobuf.js';

export interface ApiServerOptions {
  cluster: MemoryCluster;
  /** Timestamps of created objects and table ages; real time by default. */
  clock?: Clock;
  /** Loopback by default. */
  host?: string;
  /** 6443 by default; 0 picks a free port. */
  port?: number;
  /** How often watches that allow bookmarks get one (default 60 s, as kube-apiserver roughly does). */
  bookmarkIntervalMs?: number;
  /** The version /version reports. */
  gitVersion?: string;
  /** Creates the system namespaces (default, kube-system, kube-public, kube-node-lease) and those objects use when missing, and marks namespaces Active; default true. */
  createSystemNamespaces?: boolean;
  random?: () => number;
  /** Called once per request, after the response (method, path, status code). */
  onRequest?: (method: string, path: string, code: number) => void;
  /** POST endpoints outside the Kubernetes API's paths (serve's dry-run service): path → handler of the JSON body, answered 200 with its result. */
  postEndpoints?: ReadonlyMap<string, (body: unknown) => Promise<unknown>>;
  /** Serves the paths under `prefix` (the workbench's /ui/) beside the API. */
  mount?: MountedHandler;
  /**
   * The feature gates of the served API: a kind of api/kinds.ts with a gate is served only with it
   * on (GenericWorkload: scheduling.k8s.io/v1beta1 workloads and podgroups); the pinned release's
   * defaults when absent.
   */
  featureGate?: (gate: string) => boolean;
}

export interface MountedHandler {
  /** A path prefix ending in '/', e.g. '/ui/'; the prefix without its slash redirects to it. */
  readonly prefix: string;
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
}

const maxBodyBytes = 3 * 1024 * 1024;

/** What the request path names (RequestInfo). */
interface RequestInfo {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  readonly subresource: string;
  /** The legacy /watch/ path prefix. */
  readonly watchPath: boolean;
}

const namespaceSubresources = new Set(['status', 'finalize']);

function parseRequestInfo(segments: string[]): RequestInfo | undefined {
  let rest: string[];
  let group = '';
  let version: string;
  if (segments[0] === 'api') {
    version = segments[1] ?? '';
    rest = segments.slice(2);
  } else if (segments[0] === 'apis') {
    group = segments[1] ?? '';
    version = segments[2] ?? '';
    rest = segments.slice(3);
  } else {
    return undefined;
  }
  if (!version || rest.length === 0) return undefined;
  let watchPath = false;
  if (rest[0] === 'watch') {
    watchPath = true;
    rest = rest.slice(1);
  }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1]!;
    if (rest.length > 2 && !namespaceSubresources.has(rest[2]!)) rest = rest.slice(2);
  }
  if (rest.length > 3) return undefined;
  return { group, version, resource: rest[0]!, name: rest[1] ?? '', subresource: rest[2] ?? '', namespace, watchPath };
}

/** What the Accept header asks for: plain objects, Tables, or metadata only. */
interface Negotiated {
  as: 'object' | 'table' | 'metadata';
  tableVersion: string;
}

function negotiate(accept: string | undefined): Negotiated {
  for (const clause of (accept ?? '').split(',')) {
    const params = new Map<string, string>();
    for (const p of clause.split(';').slice(1)) {
      const [k, v] = p.split('=');
      if (k && v) params.set(k.trim(), v.trim());
    }
    if (params.get('g') !== 'meta.k8s.io') continue;
    const as = params.get('as');
    const v = params.get('v') ?? 'v1';
    if (as === 'Table') return { as: 'table', tableVersion: `meta.k8s.io/${v}` };
    if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') return { as: 'metadata', tableVersion: `meta.k8s.io/${v}` };
  }
  return { as: 'object', tableVersion: '' };
}

function includeObjectParam(q: URLSearchParams): IncludeObject {
  const v = q.get('includeObject');
  return v === 'None' || v === 'Object' ? v : 'Metadata';
}

function metadataOnly(o: KubeObject, apiVersion: string): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: o.metadata ?? {} };
}

interface ContinueToken {
  rv: number;
  start: string;
  /** Which kept list the pages read (ListSnapshots), and where in it the next page begins. */
  snap: number;
  next: number;
}

/**
 * The lists whose later pages clients may still ask for: every page of one list is served from
 * the state of its first page, as etcd serves a paged list at one revision, so an object changed
 * between two pages is neither missed nor seen twice. Stored objects are replaced, never changed
 * in place, so a kept list is that state. Bounded: a client whose list was dropped gets 410 and
 * lists again, as from a compacted revision.
 */
class ListSnapshots {
  private readonly lists = new Map<number, readonly KubeObject[]>();
  private next = 1;

  constructor(private readonly max = 64) {}

  keep(items: readonly KubeObject[]): number {
    const id = this.next++;
    this.lists.set(id, items);
    if (this.lists.size > this.max) this.lists.delete(this.lists.keys().next().value!);
    return id;
  }

  get(id: number): readonly KubeObject[] | undefined {
    return this.lists.get(id);
  }

  drop(id: number): void {
    this.lists.delete(id);
  }
}

const expiredContinueMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.';

function encodeContinue(t: ContinueToken): string {
  return Buffer.from(JSON.stringify(t)).toString('base64url');
}

function decodeContinue(s: string): ContinueToken {
  try {
    const t = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as ContinueToken;
    if (typeof t.rv === 'number' && typeof t.start === 'string' && typeof t.snap === 'number' && typeof t.next === 'number') return t;
  } catch {
    // fall through to the error below
  }
  throw badRequest(`continue key is not valid: ${s}`);
}

export class ApiServer {
  readonly registry: ResourceRegistry;
  private readonly evictions: EvictionREST;
  private readonly server: Server;
  private readonly watches = new Set<WatchStream>();
  private readonly listSnapshots = new ListSnapshots();
  private readonly clock: Clock;
  /** The resources served under this server's feature gates, custom resources whether installed or not. */
  private readonly gated: readonly Resource[];
  private address: AddressInfo | undefined;

  private constructor(private readonly opts: ApiServerOptions) {
    this.clock = opts.clock ?? new RealClock();
    this.gated = opts.featureGate === undefined ? servedByDefault : resourcesFor(opts.featureGate);
    this.registry = new ResourceRegistry(opts.cluster, this.clock, opts.random);
    this.evictions = new EvictionREST(this.registry, this.clock);
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: Error) => this.writeError(res, internalError(err.message)));
    });
    this.server.keepAliveTimeout = 5000;
  }

  /** Starts listening; resolves once the port is bound. */
  static async start(opts: ApiServerOptions): Promise<ApiServer> {
    const s = new ApiServer(opts);
    if (opts.createSystemNamespaces ?? true) s.ensureSystemNamespaces();
    await new Promise<void>((resolve, reject) => {
      s.server.once('error', reject);
      s.server.listen(opts.port ?? 6443, opts.host ?? '127.0.0.1', () => {
        s.server.off('error', reject);
        resolve();
      });
    });
    s.address = s.server.address() as AddressInfo;
    return s;
  }

  get port(): number {
    return this.address?.port ?? 0;
  }

  get url(): string {
    const host = this.address?.family === 'IPv6' ? `[${this.address.address}]` : (this.address?.address ?? '127.0.0.1');
    return `http://${host}:${this.port}`;
  }

  /** Ends every watch and stops listening. */
  async close(): Promise<void> {
    for (const w of [...this.watches]) w.close();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** What is served now: the gated resources, a custom resource only while its CRD serves its version. */
  private get served(): readonly Resource[] {
    return withInstalledCrds(this.gated, (name, version) => servesVersion(this.opts.cluster.get<CustomResourceDefinition>(crdKind, '', name), version));
  }

  private ensureSystemNamespaces(): void {
    const cluster = this.opts.cluster;
    const wanted = new Set(systemNamespaces);
    for (const o of cluster.list('Namespace')) wanted.add(o.metadata?.name ?? '');
    for (const k of kinds) {
      if (!k.namespaced) continue;
      for (const o of cluster.list(kindKey(k))) if (o.metadata?.namespace) wanted.add(o.metadata.namespace);
    }
    for (const ns of wanted) {
      const existing = cluster.get<KubeObject & { status?: { phase?: string } }>('Namespace', '', ns);
      if (existing) {
        // A served namespace is Active, as the namespace controller leaves it.
        if (!existing.status?.phase) cluster.update({ ...existing, status: { ...existing.status, phase: 'Active' } });
        continue;
      }
      cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } } as KubeObject);
    }
    // The scheduling bootstrap hook's PriorityClasses, which every cluster has.
    for (const pc of systemPriorityClassObjects()) if (!cluster.get('PriorityClass', '', pc.metadata?.name ?? '')) cluster.create(pc);
  }

  // ---- dispatch ----

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    res.on('finish', () => this.opts.onRequest?.(method, url.pathname, res.statusCode));
    const mount = this.opts.mount;
    if (mount && (url.pathname.startsWith(mount.prefix) || url.pathname === mount.prefix.slice(0, -1))) {
      if (url.pathname === mount.prefix.slice(0, -1)) {
        res.writeHead(301, { Location: mount.prefix });
        res.end();
        return;
      }
      return mount.handle(req, res, url);
    }
    try {
      const endpoint = method === 'POST' ? this.opts.postEndpoints?.get(url.pathname) : undefined;
      if (endpoint) return this.writeJson(res, 200, await endpoint(parseBody((await readBody(req)).toString('utf8'), req.headers['content-type'] ?? '')));
      const segments = pathSegments(url.pathname);
      if (this.serveNonResource(url.pathname, segments, res, req.headers.accept ?? '')) return;
      const info = parseRequestInfo(segments);
      if (!info) throw pathNotFound();
      const raw = method === 'GET' ? Buffer.alloc(0) : await readBody(req);
      await this.serveResource(req, res, url.searchParams, info, method, requestBody(req.headers['content-type'] ?? '', raw));
    } catch (err) {
      if (err instanceof ServedStatusError) this.writeError(res, err);
      else if (err instanceof ApiError) this.writeError(res, fromStoreError(err.code, err.message));
      else throw err;
    }
  }

  private serveNonResource(path: string, segments: string[], res: ServerResponse, accept: string): boolean {
    if (path === '/healthz' || path === '/livez' || path === '/readyz') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('ok');
      return true;
    }
    const gitVersion = this.opts.gitVersion ?? 'v1.34.0';
    if (path === '/openapi/v2' && accept.includes('protobuf')) {
      const body = openAPIV2Protobuf(gitVersion);
      res.writeHead(200, { 'Content-Type': openAPIV2ProtobufType, 'Content-Length': body.length });
      res.end(body);
      return true;
    }
    let doc: Record<string, unknown> | undefined;
    if (path === '/openapi/v2') {
      doc = openAPIV2Json(gitVersion);
    } else if (path === '/openapi/v3') {
      doc = openAPIV3Index(this.served, gitVersion);
    } else if (segments[0] === 'openapi' && segments[1] === 'v3') {
      doc = openAPIV3GroupVersion(this.served, segments.slice(2).join('/'), gitVersion);
      if (!doc) throw pathNotFound();
    } else if (path === '/version') {
      const [major, minor] = gitVersion.replace(/^v/, '').split('.');
      doc = { major, minor, gitVersion, gitCommit: '', gitTreeState: 'clean', buildDate: '1970-01-01T00:00:00Z', goVersion: '', compiler: 'node', platform: `${process.platform}/${process.arch}` };
    } else if (path === '/api' || path === '/api/') {
      doc = apiVersions(`${this.address?.address ?? '127.0.0.1'}:${this.port}`);
    } else if (path === '/apis' || path === '/apis/') {
      doc = apiGroupList(this.served);
    } else if (segments[0] === 'api' && segments.length === 2) {
      doc = apiResourceList('', segments[1]!, this.served);
      if (!doc) throw pathNotFound();
    } else if (segments[0] === 'apis' && segments.length === 2) {
      doc = apiGroupDocument(segments[1]!, this.served);
      if (!doc) throw pathNotFound();
    } else if (segments[0] === 'apis' && segments.length === 3) {
      doc = apiResourceList(segments[1]!, segments[2]!, this.served);
      if (!doc) throw pathNotFound();
    }
    if (!doc) return false;
    this.writeJson(res, 200, doc);
    return true;
  }

  private async serveResource(req: IncomingMessage, res: ServerResponse, q: URLSearchParams, info: RequestInfo, method: string, request: RequestBody): Promise<void> {
    const body = request.text;
    // The legacy bindings collection: POST /api/v1/namespaces/<ns>/bindings.
    if (info.group === '' && info.resource === 'bindings' && !info.name && method === 'POST') {
      const pods = findResource('', 'v1', 'pods')!;
      this.writeJson(res, 201, this.registry.bind({ resource: pods, namespace: info.namespace, name: '', subresource: 'binding' }, request.parsed()));
      return;
    }
    const r = findResource(info.group, info.version, info.resource, this.served);
    if (!r) throw pathNotFound();
    if (r.namespaced && info.name && !info.namespace) throw pathNotFound();
    const t: Target = { resource: r, namespace: r.namespaced ? info.namespace : '', name: info.name, subresource: info.subresource };
    if (t.subresource && !servesSubresource(r, t.subresource)) throw pathNotFound();
    const contentType = req.headers['content-type'] ?? '';
    if ((method === 'POST' || method === 'PUT') && contentType !== '' && !contentType.includes('json') && !isProtobuf(contentType)) {
      // Typed clients may send CBOR too; the embedded server decodes JSON and protobuf.
      throw unsupportedMediaType(['application/json', protobufMediaType]);
    }
    const warnings: string[] = [];
    const write: WriteOptions = {
      dryRun: q.getAll('dryRun').includes('All'), fieldManager: q.get('fieldManager') ?? undefined, warnings,
      fieldValidation: method === 'POST' || method === 'PUT' || method === 'PATCH' ? fieldValidation(q, method) : undefined,
    };

    const neg = negotiate(req.headers.accept);
    const isWatch = info.watchPath || q.get('watch') === 'true' || q.get('watch') === '1';
    if (t.subresource === 'scale') return this.serveScale(res, t, method, contentType, request, write);
    if (t.subresource === 'eviction') {
      if (method !== 'POST') throw methodNotSupported(r, method === 'GET' ? 'get' : method.toLowerCase());
      return this.writeJson(res, 201, this.evictions.create(t, request.parsed(), write.dryRun === true));
    }
    switch (method) {
      case 'GET':
        if (isWatch) return this.serveWatch(req, res, q, t, neg);
        if (t.name) return this.writeObject(res, 200, r, this.registry.get(t), neg, q);
        return this.serveList(res, q, t, neg);
      case 'POST':
        if (t.subresource === 'binding') return this.writeJson(res, 201, this.registry.bind(t, request.parsed()));
        if (t.name) throw methodNotSupported(r, 'create');
        return this.writeObject(res, 201, r, warned(res, warnings, this.registry.create(t, request.parsed(), write)), neg, q);
      case 'PUT': {
        if (!t.name) throw methodNotSupported(r, 'update');
        const { object, created } = warned(res, warnings, this.registry.update(t, request.parsed(), write));
        return this.writeObject(res, created ? 201 : 200, r, object, neg, q);
      }
      case 'PATCH': {
        if (!t.name) throw methodNotSupported(r, 'patch');
        const { object, created } = warned(res, warnings, this.registry.patch(t, req.headers['content-type'] ?? '', body, write));
        return this.writeObject(res, created ? 201 : 200, r, object, neg, q);
      }
      case 'DELETE': {
        const options = deleteOptions(request, q, write);
        if (!t.name) return this.serveDeleteCollection(res, q, t, options);
        const out = this.registry.delete(t, options);
        if (out.kind === 'Status') return this.writeJson(res, 200, out);
        return this.writeObject(res, 200, r, out as KubeObject, neg, q);
      }
      default:
        throw methodNotSupported(r, method);
    }
  }

  /** The scale subresource: GET, PUT and PATCH of an autoscaling/v1 Scale. */
  private serveScale(res: ServerResponse, t: Target, method: string, contentType: string, request: RequestBody, write: WriteOptions): void {
    switch (method) {
      case 'GET':
        return this.writeJson(res, 200, this.registry.getScale(t));
      case 'PUT':
        return this.writeJson(res, 200, this.registry.updateScale(t, request.parsed(), write));
      case 'PATCH':
        return this.writeJson(res, 200, this.registry.patchScale(t, contentType, request.text, write));
      default:
        throw methodNotSupported(t.resource, method.toLowerCase());
    }
  }

  private selectors(q: URLSearchParams, r: Resource) {
    return { labels: parseLabelSelector(q.get('labelSelector') ?? ''), fields: parseFieldSelector(q.get('fieldSelector') ?? '', r) };
  }

  private serveList(res: ServerResponse, q: URLSearchParams, t: Target, neg: Negotiated): void {
    const r = t.resource;
    const current = this.opts.cluster.currentResourceVersion;
    const rvParam = q.get('resourceVersion') ?? '';
    const match = q.get('resourceVersionMatch') ?? '';
    if (rvParam !== '' && rvParam !== '0') {
      const rv = Number(rvParam);
      if (!Number.isInteger(rv) || rv < 0) throw badRequest(`invalid resource version: ${rvParam}`);
      if (rv > current) throw tooLargeResourceVersion(rv, current);
      if (match === 'Exact' && rv !== current) throw expired(`The resourceVersion for the provided list is too old.`);
    }
    const { labels, fields } = this.selectors(q, r);
    const token = q.get('continue');
    const c = token ? decodeContinue(token) : undefined;
    const kept = c ? this.listSnapshots.get(c.snap) : undefined;
    if (c && !kept) throw expired(expiredContinueMessage);
    const all = kept ?? this.registry.list(r, t.namespace, labels, fields);
    // Later pages keep the first page's resourceVersion: the list is of that state.
    const listRV = c ? c.rv : current;
    // A kept list is sorted and unchanging: the next page starts where the last one ended.
    let items = c ? all.slice(c.next) : all;
    const limit = Number(q.get('limit') ?? '0');
    let continueToken: string | undefined;
    let remaining: number | undefined;
    if (Number.isInteger(limit) && limit > 0 && items.length > limit) {
      remaining = items.length - limit;
      items = items.slice(0, limit);
      const last = items[items.length - 1]!;
      const snap = c?.snap ?? this.listSnapshots.keep(all);
      continueToken = encodeContinue({ rv: listRV, start: `${last.metadata?.namespace ?? ''}/${last.metadata?.name ?? ''}`, snap, next: (c?.next ?? 0) + limit });
    } else if (c) {
      this.listSnapshots.drop(c.snap);
    }
    if (neg.as === 'table') {
      const table = toTable(r, items, { now: this.clock.now(), resourceVersion: String(listRV), continueToken, includeObject: includeObjectParam(q) });
      table.apiVersion = neg.tableVersion;
      this.writeJson(res, 200, table);
      return;
    }
    const metadata: Record<string, unknown> = { resourceVersion: String(listRV) };
    if (continueToken) {
      metadata.continue = continueToken;
      metadata.remainingItemCount = remaining;
    }
    if (neg.as === 'metadata') {
      this.writeJson(res, 200, { kind: 'PartialObjectMetadataList', apiVersion: neg.tableVersion, metadata, items: items.map((o) => metadataOnly(o, neg.tableVersion)) });
      return;
    }
    this.writeJson(res, 200, { kind: `${r.kind}List`, apiVersion: groupVersion(r), metadata, items });
  }

  private serveWatch(req: IncomingMessage, res: ServerResponse, q: URLSearchParams, t: Target, neg: Negotiated): void {
    const r = t.resource;
    const { labels, fields } = this.selectors(q, r);
    const rv = q.get('resourceVersion') ?? undefined;
    if (rv !== undefined && rv !== '') {
      const n = Number(rv);
      if (!Number.isInteger(n) || n < 0) throw badRequest(`invalid resource version: ${rv}`);
      if (n > this.opts.cluster.currentResourceVersion) throw tooLargeResourceVersion(n, this.opts.cluster.currentResourceVersion);
    }
    const fieldsWithName = t.name ? [...fields, { field: 'metadata.name', value: t.name, equal: true }] : fields;
    const timeout = q.get('timeoutSeconds');
    const stream = new WatchStream(res, {
      resource: r,
      namespace: t.namespace,
      labels,
      fields: fieldsWithName,
      resourceVersion: rv,
      sendInitialEvents: q.get('sendInitialEvents') === 'true',
      allowWatchBookmarks: q.get('allowWatchBookmarks') === 'true' || q.get('sendInitialEvents') === 'true',
      timeoutMs: timeout !== null && Number(timeout) > 0 ? Number(timeout) * 1000 : undefined,
      table: neg.as === 'table' ? { includeObject: includeObjectParam(q), apiVersion: neg.tableVersion } : undefined,
    }, { registry: this.registry, bookmarkIntervalMs: this.opts.bookmarkIntervalMs ?? 60_000, now: () => this.clock.now() }, (s) => this.watches.delete(s));
    this.watches.add(stream);
    req.socket.setTimeout(0);
    stream.start();
  }

  private serveDeleteCollection(res: ServerResponse, q: URLSearchParams, t: Target, options: DeleteOptions): void {
    const r = t.resource;
    const { labels, fields } = this.selectors(q, r);
    const deleted: KubeObject[] = [];
    for (const o of this.registry.list(r, t.namespace, labels, fields)) {
      const target: Target = { ...t, namespace: o.metadata?.namespace ?? '', name: o.metadata?.name ?? '' };
      this.registry.delete(target, options);
      deleted.push(o);
    }
    this.writeJson(res, 200, { kind: `${r.kind}List`, apiVersion: groupVersion(r), metadata: { resourceVersion: String(this.opts.cluster.currentResourceVersion) }, items: deleted });
  }

  // ---- responses ----

  private writeObject(res: ServerResponse, code: number, r: Resource, o: KubeObject, neg: Negotiated, q: URLSearchParams): void {
    if (neg.as === 'table') {
      const table = toTable(r, [o], { now: this.clock.now(), resourceVersion: o.metadata?.resourceVersion, includeObject: includeObjectParam(q) });
      table.apiVersion = neg.tableVersion;
      this.writeJson(res, code, table);
    } else if (neg.as === 'metadata') {
      this.writeJson(res, code, metadataOnly(o, neg.tableVersion));
    } else {
      this.writeJson(res, code, o);
    }
  }

  private writeJson(res: ServerResponse, code: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-cache, private' });
    res.end(text);
  }

  private writeError(res: ServerResponse, err: ServedStatusError): void {
    if (res.headersSent) {
      res.end();
      return;
    }
    this.writeJson(res, err.code, err.status);
  }
}

/** The subresources a resource has: status, a pod's binding and eviction, the replicated kinds' scale. */
function servesSubresource(r: Resource, sub: string): boolean {
  if (sub === 'status') return r.hasStatus;
  if (sub === 'binding' || sub === 'eviction') return r.kind === 'Pod';
  return sub === 'scale' && r.scale === true;
}

/** The write's fieldValidation directive; a value kube-apiserver does not know is refused as it refuses it. */
function fieldValidation(q: URLSearchParams, method: 'POST' | 'PUT' | 'PATCH'): FieldValidation | undefined {
  const v = q.get('fieldValidation') ?? '';
  if (v === '') return undefined;
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  const kind = method === 'POST' ? 'CreateOptions' : method === 'PUT' ? 'UpdateOptions' : 'PatchOptions';
  throw invalid({ group: 'meta.k8s.io', kind }, '', [notSupported('fieldValidation', v, ['', 'Ignore', 'Strict', 'Warn'])]);
}

/** Adds one Warning header per text (299, agent "-"), as the warning recorder writes them; returns `value`. */
function warned<T>(res: ServerResponse, warnings: readonly string[], value: T): T {
  if (warnings.length > 0) res.setHeader('Warning', [...new Set(warnings)].map((w) => `299 - "${w.replace(/["\\]/g, '\\$&')}"`));
  return value;
}

/**
 * A body as its Content-Type says: YAML for the yaml types (several documents read as a List of
 * them, as kubectl sends a multi-document file), JSON otherwise.
 */
function parseBody(body: string, contentType: string): unknown {
  if (!/yaml/i.test(contentType)) return parseJson(body);
  if (body.trim() === '') throw badRequest('the request body is empty');
  const values: unknown[] = [];
  for (const doc of parseAllDocuments(body)) {
    const error = doc.errors[0];
    if (error) throw badRequest(`the body of the request could not be decoded as YAML: ${error.message.split('\n')[0]!}`);
    let v: unknown;
    try {
      v = doc.toJS({ maxAliasCount: 1000 });
    } catch (err) {
      throw badRequest(`the body of the request could not be decoded as YAML: ${(err as Error).message.split('\n')[0]!}`);
    }
    const problem = documentProblem(v);
    if (problem !== null) throw badRequest(`the body of the request could not be decoded as YAML: ${problem}`);
    if (v !== null && v !== undefined) values.push(v);
  }
  if (values.length === 0) throw badRequest('the request body is empty');
  return values.length === 1 ? values[0] : { apiVersion: 'v1', kind: 'List', items: values };
}

function parseJson(body: string): unknown {
  if (body.trim() === '') throw badRequest('the request body is empty');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    throw badRequest(`the body of the request could not be decoded as JSON: ${(err as Error).message}`);
  }
  const problem = documentProblem(value);
  if (problem !== null) throw badRequest(`the body of the request could not be decoded as JSON: ${problem}`);
  return value;
}

/** The path's segments, unescaped; a malformed escape is the client's error, as Go's URL parsing makes it. */
function pathSegments(path: string): string[] {
  const out: string[] = [];
  for (const raw of path.split('/')) {
    if (raw === '') continue;
    try {
      out.push(decodeURIComponent(raw));
    } catch {
      const bad = /%(?![0-9a-fA-F]{2})[^/]{0,2}/.exec(raw)?.[0] ?? raw;
      throw badRequest(`invalid URL escape ${JSON.stringify(bad)}`);
    }
  }
  return out;
}

function deleteOptions(request: RequestBody, q: URLSearchParams, write: WriteOptions): DeleteOptions {
  const o: DeleteOptions = { ...write };
  if (!request.empty) {
    const parsed = request.parsed() as { preconditions?: { uid?: string; resourceVersion?: string }; dryRun?: string[] };
    if (parsed.preconditions) o.preconditions = parsed.preconditions;
    if (parsed.dryRun?.includes('All')) o.dryRun = true;
  }
  if (q.get('dryRun') === 'All') o.dryRun = true;
  return o;
}

/** A request's body: its bytes, as text, and decoded (JSON, or protobuf by its Content-Type) on demand. */
interface RequestBody {
  /** No body, or only whitespace. */
  readonly empty: boolean;
  readonly text: string;
  parsed(): unknown;
}

function isProtobuf(contentType: string): boolean {
  return contentType.split(';')[0]!.trim() === protobufMediaType;
}

function requestBody(contentType: string, raw: Buffer): RequestBody {
  const protobuf = isProtobuf(contentType);
  const text = protobuf ? '' : raw.toString('utf8');
  return { empty: protobuf ? raw.length === 0 : text.trim() === '', text, parsed: () => (isProtobuf(contentType) ? decodeProtobufBody(raw) : parseJson(text)) };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > maxBodyBytes) throw new ServedStatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 413, reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 3145728' });
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}
