// The DefaultTolerationSeconds admission plugin (plugin/pkg/admission/defaulttolerationseconds):
// a pod that does not already tolerate the not-ready and unreachable NoExecute taints gets a
// 300-second toleration for each, so a node going briefly NotReady does not evict it at once.
import type { Pod, Toleration } from '../types.js';

/** kube-apiserver's default (--default-not-ready-toleration-seconds, --default-unreachable-...). */
const defaultTolerationSeconds = 300;
const notReadyTaint = 'node.kubernetes.io/not-ready';
const unreachableTaint = 'node.kubernetes.io/unreachable';

export function withDefaultTolerations(pod: Pod): Pod {
  const tolerations = pod.spec.tolerations ?? [];
  // A malformed list is left for validation to refuse.
  if (!Array.isArray(tolerations)) return pod;
  // Upstream's test: the key matches (or is empty) and the effect is NoExecute (or empty).
  const tolerates = (key: string) => tolerations.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
  const added: Toleration[] = [];
  for (const key of [notReadyTaint, unreachableTaint]) {
    if (!tolerates(key)) added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: defaultTolerationSeconds });
  }
  return added.length === 0 ? pod : { ...pod, spec: { ...pod.spec, tolerations: [...tolerations, ...added] } };
}
