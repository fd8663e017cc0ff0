// A pod's requests as the scheduler counts them on its node (k8s.io/component-helpers resource
// PodRequests): the containers' sum, restartable init containers (sidecars) included, at least
// the largest init container with the sidecars started before it, plus the pod overhead; nothing
// for a pod that has finished, as the scheduler's informer leaves out Succeeded and Failed pods.
import { quantityValue } from './quantity.js';

type Requests = Record<string, string | number>;
interface PodLike {
  spec?: {
    containers?: { resources?: { requests?: Requests } }[];
    initContainers?: { restartPolicy?: string; resources?: { requests?: Requests } }[];
    overhead?: Requests;
  };
  status?: { phase?: string };
}

function add(into: Map<string, number>, reqs: Requests | undefined): void {
  for (const [name, q] of Object.entries(reqs ?? {})) into.set(name, (into.get(name) ?? 0) + quantityValue(q));
}

/** Each resource's request (cpu in cores, memory in bytes, others in their units), or null for a finished pod. */
export function podRequests(pod: PodLike): Map<string, number> | null {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return null;
  const reqs = new Map<string, number>();
  for (const c of pod.spec?.containers ?? []) add(reqs, c.resources?.requests);
  const sidecars = new Map<string, number>();
  const initMax = new Map<string, number>();
  for (const c of pod.spec?.initContainers ?? []) {
    if (c.restartPolicy === 'Always') {
      add(reqs, c.resources?.requests);
      add(sidecars, c.resources?.requests);
      continue;
    }
    const during = new Map(sidecars);
    add(during, c.resources?.requests);
    for (const [name, v] of during) initMax.set(name, Math.max(initMax.get(name) ?? 0, v));
  }
  for (const [name, v] of initMax) if (v > (reqs.get(name) ?? 0)) reqs.set(name, v);
  add(reqs, pod.spec?.overhead);
  return reqs;
}
