// ValidateCustomResourceDefinition's structural rules (apiextensions-apiserver
// pkg/apis/apiextensions/validation/validation.go): the name, group, scope, names and storage
// version. The versions' OpenAPI schemas are not validated.
import type { CustomResourceDefinition } from '../crds.js';
import { dns1123SubdomainErrors } from '../labels.js';
import { invalid, notSupported, required, type FieldError } from './field.js';
import { validateObjectMeta } from './meta.js';

export function validateCustomResourceDefinition(crd: CustomResourceDefinition): FieldError[] {
  const spec = crd.spec ?? {};
  const errs = validateObjectMeta(crd.metadata ?? {}, false, (name) => {
    const want = `${spec.names?.plural ?? ''}.${spec.group ?? ''}`;
    return name === want ? [] : ['must be spec.names.plural+"."+spec.group'];
  });
  if (!spec.group) errs.push(required('spec.group'));
  else if (dns1123SubdomainErrors(spec.group).length > 0) errs.push(invalid('spec.group', spec.group, dns1123SubdomainErrors(spec.group).join(',')));
  else if (!spec.group.includes('.')) errs.push(invalid('spec.group', spec.group, 'should be a domain with at least one dot'));
  if (!spec.scope) errs.push(required('spec.scope'));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') errs.push(notSupported('spec.scope', spec.scope, ['Cluster', 'Namespaced']));
  if (!spec.names?.plural) errs.push(required('spec.names.plural'));
  if (!spec.names?.kind) errs.push(required('spec.names.kind'));
  const versions = spec.versions ?? [];
  if (versions.length === 0) errs.push(required('spec.versions'));
  else if (versions.filter((v) => v.storage).length !== 1) errs.push(invalid('spec.versions', versions.map((v) => v.name), 'must have exactly one version marked as storage version'));
  return errs;
}
