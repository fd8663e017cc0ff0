// Admission-time pod transforms the embedded API server applies, as kube-apiserver does.
import type { Pod } from '../../api/types.js';

export function admitPod(pod: Pod): Pod {
  return pod;
}
