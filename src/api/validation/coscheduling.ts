// scheduler-plugins' PodGroup CRD (config/crd/bases/scheduling.x-k8s.io_podgroups.yaml) as the
// apiextensions-apiserver validates its objects: the object's metadata, then the OpenAPI schema's
// bounds, worded as kube-openapi's validator words them ("<path> in body should be ...").
import type { KubeObject } from '../types.js';
import { invalid, type FieldError } from './field.js';
import { nameIsDNSSubdomain, validateObjectMeta } from './meta.js';

interface CoschedulingPodGroupShape extends KubeObject {
  readonly spec?: { readonly minMember?: number };
}

export function validateCoschedulingPodGroup(pg: CoschedulingPodGroupShape): FieldError[] {
  const errs = validateObjectMeta(pg.metadata ?? {}, true, nameIsDNSSubdomain);
  const minMember = pg.spec?.minMember;
  // The schema's `minimum: 1`; an absent minMember is left to the plugin (0: no gang).
  if (minMember !== undefined && minMember < 1) errs.push(invalid('spec.minMember', minMember, 'spec.minMember in body should be greater than or equal to 1'));
  return errs;
}
