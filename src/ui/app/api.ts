// The workbench's client: the Kubernetes API of `simulate --serve` (list, watch, get, create,
// update, delete) and the workbench endpoints under /ui/api/.
import type { DeviceReport } from '../../sim/report/dra_report.js';
import type { ExplainPod } from '../../sim/explain/explain.js';
import type { ExplainTree } from '../../sim/explain/explain_groups.js';

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: { name?: string; namespace?: string; resourceVersion?: string; labels?: Record<string, string>; creationTimestamp?: string; [k: string]: unknown };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [k: string]: unknown;
}

export interface KindInfo {
  kind: string;
  group: string;
  version: string;
  plural: string;
  namespaced: boolean;
}

/** A Status the API server answered with, or the workbench's `{ message }`. */
export class ApiProblem extends Error {
  constructor(readonly code: number, message: string, readonly causes: { field?: string; message?: string }[] = []) {
    super(message);
  }
}

async function check(res: Response): Promise<Response> {
  if (res.ok) return res;
  let message = `${res.status} ${res.statusText}`;
  let causes: { field?: string; message?: string }[] = [];
  try {
    const body = (await res.json()) as { message?: string; details?: { causes?: { field?: string; message?: string }[] } };
    if (body.message) message = body.message;
    causes = body.details?.causes ?? [];
  } catch {
    // not JSON: keep the status line
  }
  throw new ApiProblem(res.status, message, causes);
}

export async function getJson<T>(path: string): Promise<T> {
  return (await (await check(await fetch(path))).json()) as T;
}

export async function sendJson<T>(method: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(path, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return (await (await check(res)).json()) as T;
}

export async function sendText<T>(method: string, path: string, text: string): Promise<T> {
  const res = await fetch(path, { method, headers: { 'Content-Type': 'application/yaml' }, body: text });
  return (await (await check(res)).json()) as T;
}

export async function remove(path: string): Promise<void> {
  await check(await fetch(path, { method: 'DELETE' }));
}

/** The collection path of a kind, in a namespace when it has one. */
export function collectionPath(k: KindInfo, namespace?: string): string {
  const base = k.group === '' ? `/api/${k.version}` : `/apis/${k.group}/${k.version}`;
  return k.namespaced && namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/${k.plural}` : `${base}/${k.plural}`;
}

export function objectPath(k: KindInfo, o: KubeObject): string {
  return `${collectionPath(k, o.metadata.namespace ?? 'default')}/${encodeURIComponent(o.metadata.name ?? '')}`;
}

export interface ExplainAnswer {
  explain: ExplainPod;
  attempts: number;
  time: string;
  /** Nodes scored; `explain.scores` keeps the best 100. */
  scoredNodes: number;
  /** For a member of a CompositePodGroup tree: the tree's last cycle, as explain's `trees` entry. */
  tree?: ExplainTree;
}

export interface QueueAnswer {
  counts: { active: number; backoff: number; unschedulable: number; gated: number };
  pods: { pod: string; queue: string; attempts: number; plugins: string[]; gatingPlugin: string | null; message: string }[];
  /** Waiting pods past the listed ones. */
  more: number;
}

/** Device use at `/ui/api/devices` (DRA), empty lists without ResourceSlices. */
export type DevicesAnswer = DeviceReport;

type WatchEvent = { type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'; object: KubeObject & { code?: number } };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Lists a collection, then follows its watch until `signal` aborts: `onReset` gets each full
 * list (again after a 410 Gone), `onEvent` each change. Reconnects with a capped backoff.
 */
export async function listAndWatch(path: string, onReset: (items: KubeObject[]) => void, onEvent: (type: string, o: KubeObject) => void, signal: AbortSignal): Promise<void> {
  let rv = '';
  let failures = 0;
  while (!signal.aborted) {
    try {
      if (rv === '') {
        const list = await getJson<{ items: KubeObject[]; metadata: { resourceVersion: string } }>(path);
        onReset(list.items);
        rv = list.metadata.resourceVersion;
      }
      const res = await fetch(`${path}?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`, { signal });
      if (res.status === 410) {
        rv = '';
        continue;
      }
      await check(res);
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (!line) continue;
          const e = JSON.parse(line) as WatchEvent;
          if (e.type === 'ERROR') {
            rv = '';
            break;
          }
          rv = e.object.metadata.resourceVersion ?? rv;
          if (e.type !== 'BOOKMARK') onEvent(e.type, e.object);
        }
      }
      failures = 0;
    } catch {
      if (signal.aborted) return;
      failures++;
      await sleep(Math.min(5000, 250 * 2 ** failures));
    }
  }
}
