// Collections kept live through list and watch: one Map per collection, re-rendered at most once
// per animation frame however fast the watch events come.
import { useEffect, useState } from 'preact/hooks';
import { listAndWatch, type KubeObject } from './api.js';

export function keyOf(o: KubeObject): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name ?? ''}` : (o.metadata.name ?? '');
}

/**
 * The objects of a collection path in the API's order (lists come sorted by namespace and name;
 * objects added later follow), updated as the watch reports changes: no sort per frame, so
 * 100,000 pods stay cheap.
 */
export function useCollection(path: string): KubeObject[] {
  const [items, setItems] = useState<KubeObject[]>([]);
  useEffect(() => {
    const abort = new AbortController();
    const objects = new Map<string, KubeObject>();
    let frame = 0;
    const publish = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        setItems([...objects.values()]);
      });
    };
    void listAndWatch(path, (list) => {
      objects.clear();
      for (const o of list) objects.set(keyOf(o), o);
      publish();
    }, (type, o) => {
      if (type === 'DELETED') objects.delete(keyOf(o));
      else objects.set(keyOf(o), o);
      publish();
    }, abort.signal);
    return () => {
      abort.abort();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [path]);
  return items;
}
