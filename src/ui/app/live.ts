// Collections kept live through list and watch: one Map per collection, published to the views
// in batches however fast the watch events come (once per animation frame, or every half second
// past 5,000 objects, where copying the collection and filtering it again costs milliseconds).
import { useEffect, useState } from 'preact/hooks';
import { listAndWatch, type KubeObject } from './api.js';

/** Past this many objects, changes are published every `largeBatchMs` instead of every frame. */
const largeCollection = 5000;
const largeBatchMs = 500;

export function keyOf(o: KubeObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name ?? ''}` : (o.metadata.name ?? '');
}

type Containers = { resources?: { requests?: Record<string, string> } }[];

/**
 * What the views read of a pod (name, state, node, requests): 100,000 pods held whole would take
 * hundreds of MiB of the page's memory. The editor reads the full object from the API.
 */
export function podSummary(p: KubeObject): KubeObject {
  const { name, namespace, resourceVersion, labels } = p.metadata;
  const containers = ((p.spec?.containers as Containers | undefined) ?? []).map((c) => ({ resources: { requests: c.resources?.requests ?? {} } }));
  const conditions = ((p.status?.conditions as { type: string }[] | undefined) ?? []).filter((c) => c.type === 'PodScheduled');
  const nodeName = p.spec?.nodeName as string | undefined;
  return { metadata: { name, namespace, resourceVersion, labels }, spec: { containers, ...(nodeName ? { nodeName } : {}) }, status: { conditions } };
}

/**
 * The objects of a collection path in the API's order (lists come sorted by namespace and name;
 * objects added later follow), each passed through `project` when given, updated as the watch
 * reports changes: no sort per batch, so 100,000 pods stay cheap.
 */
export function useCollection(path: string, project?: (o: KubeObject) => KubeObject): KubeObject[] {
  const [items, setItems] = useState<KubeObject[]>([]);
  useEffect(() => {
    const abort = new AbortController();
    const objects = new Map<string, KubeObject>();
    let frame = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      frame = 0;
      timer = undefined;
      setItems([...objects.values()]);
    };
    const publish = () => {
      if (frame || timer !== undefined) return;
      if (objects.size > largeCollection) timer = setTimeout(flush, largeBatchMs);
      else frame = requestAnimationFrame(flush);
    };
    void listAndWatch(path, (list) => {
      objects.clear();
      for (const o of list) objects.set(keyOf(o), project ? project(o) : o);
      publish();
    }, (type, o) => {
      if (type === 'DELETED') objects.delete(keyOf(o));
      else objects.set(keyOf(o), project ? project(o) : o);
      publish();
    }, abort.signal);
    return () => {
      abort.abort();
      if (frame) cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [path, project]);
  return items;
}
