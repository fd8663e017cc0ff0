// Admission-time pod transforms the embedded API server applies on create, as kube-apiserver does.
import { applyMatchLabelKeysToAffinity } from '../../api/admission/match_label_keys.js';
import type { Pod } from '../../api/types.js';

/** kube-apiserver merges matchLabelKeys/mismatchLabelKeys of pod (anti-)affinity into the selectors at creation. */
export function admitPod(pod: Pod): Pod {
  return applyMatchLabelKeysToAffinity(pod);
}
