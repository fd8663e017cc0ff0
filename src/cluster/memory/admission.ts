// Admission-time pod transforms the embedded API server applies on create, as kube-apiserver does.
import { withDefaultTolerations } from '../../api/admission/default_toleration_seconds.js';
import { dropDisabledPodFields } from '../../api/admission/drop_disabled_fields.js';
import { applyMatchLabelKeysToAffinity } from '../../api/admission/match_label_keys.js';
import type { Pod } from '../../api/types.js';

/**
 * kube-apiserver's create path for a pod: the DefaultTolerationSeconds admission plugin, then the
 * pod strategy's dropping of fields behind gates that are off and its merge of
 * matchLabelKeys/mismatchLabelKeys of pod (anti-)affinity into the selectors.
 */
export function admitPod(pod: Pod): Pod {
  return applyMatchLabelKeysToAffinity(dropDisabledPodFields(withDefaultTolerations(pod)));
}
