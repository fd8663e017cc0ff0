// Admission-time pod transforms the embedded API server applies on create, as kube-apiserver does.
import type { Pod, Toleration } from '../../api/types.js';
import { applyMatchLabelKeysToAffinity } from '../../plugins/interpodaffinity/index.js';

/** kube-apiserver's default for DefaultTolerationSeconds (--default-not-ready-toleration-seconds). */
const defaultTolerationSeconds = 300;
const notReadyTaint = 'node.kubernetes.io/not-ready';
const unreachableTaint = 'node.kubernetes.io/unreachable';

/**
 * The DefaultTolerationSeconds admission plugin (plugin/pkg/admission/defaulttolerationseconds):
 * a pod that does not already tolerate the not-ready and unreachable NoExecute taints gets a
 * 300-second toleration for each, so a node going briefly NotReady does not evict it at once.
 */
export function withDefaultTolerations(pod: Pod): Pod {
  const tolerations = pod.spec.tolerations ?? [];
  // Upstream's test: the key matches (or is empty) and the effect is NoExecute (or empty).
  const tolerates = (key: string) => tolerations.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
  const added: Toleration[] = [];
  for (const key of [notReadyTaint, unreachableTaint]) {
    if (!tolerates(key)) added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: defaultTolerationSeconds });
  }
  return added.length === 0 ? pod : { ...pod, spec: { ...pod.spec, tolerations: [...tolerations, ...added] } };
}

/**
 * kube-apiserver's create path for a pod: the DefaultTolerationSeconds admission plugin, then the
 * pod strategy's merge of matchLabelKeys/mismatchLabelKeys of pod (anti-)affinity into the selectors.
 */
export function admitPod(pod: Pod): Pod {
  return applyMatchLabelKeysToAffinity(withDefaultTolerations(pod));
}
