// The DefaultTolerationSeconds admission plugin (plugin/pkg/admission/defaulttolerationseconds):
// a pod that does not already tolerate the not-ready and unreachable NoExecute taints gets a
// 300-second toleration for each, so a node going briefly NotReady does not evict it at once.
import type { Pod, Toleration } from '../types.js';
import { shallowCopy } from '../../util/shallow_copy.js';

/** kube-apiserver's default (--default-not-ready-toleration-seconds, --default-unreachable-...). */
const defaultTolerationSeconds = 300;
const notReadyTaint = 'node.kubernetes.io/not-ready';
const unreachableTaint = 'node.kubernetes.io/unreachable';

/** Whether `tolerations` already tolerate the NoExecute taint `key` (a matching or empty key, a NoExecute or empty effect). */
function tolerates(tolerations: readonly Toleration[], key: string): boolean {
  for (let i = 0; i < tolerations.length; i++) {
    const t = tolerations[i]!;
    if ((t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect)) return true;
  }
  return false;
}

export function withDefaultTolerations(pod: Pod): Pod {
  const tolerations = pod.spec.tolerations ?? [];
  // A malformed list is left for validation to refuse.
  if (!Array.isArray(tolerations)) return pod;
  const notReady = !tolerates(tolerations, notReadyTaint);
  const unreachable = !tolerates(tolerations, unreachableTaint);
  if (!notReady && !unreachable) return pod;
  // Every pod created passes here: one new list, no intermediate arrays.
  const added = tolerations.slice();
  if (notReady) added.push({ key: notReadyTaint, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: defaultTolerationSeconds });
  if (unreachable) added.push({ key: unreachableTaint, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: defaultTolerationSeconds });
  // Not `{ ...spec, tolerations }`: a spread given a new key makes a hidden class per pod (util/shallow_copy.ts).
  const spec = shallowCopy(pod.spec);
  spec.tolerations = added;
  return { ...pod, spec };
}
