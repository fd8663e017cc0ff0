// Admission-time pod transforms the embedded API server applies on create, as kube-apiserver does.
import type { Pod } from '../../api/types.js';
import { applyMatchLabelKeysToAffinity } from '../../plugins/interpodaffinity/index.js';

/** kube-apiserver merges matchLabelKeys/mismatchLabelKeys of pod (anti-)affinity into the selectors at creation. */
export function admitPod(pod: Pod): Pod {
  return applyMatchLabelKeysToAffinity(pod);
}
