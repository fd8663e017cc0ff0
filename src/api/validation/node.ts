// Nodes as the API server validates them (pkg/apis/core/validation/validation.go ValidateNode,
// ValidateNodeResources, validateNodeTaints).
import type { Node } from '../types.js';
import { child, duplicate, index, invalid, type FieldError } from './field.js';
import { nameIsDNSSubdomain, validateObjectMeta } from './meta.js';
import { validateResourceQuantityValue } from './resources.js';
import { validateTaints } from './scheduling_constraints.js';

/** ValidateNodeResources: capacity and allocatable quantities (paths as upstream: status.capacity.cpu). */
function validateNodeResources(node: Node): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of ['capacity', 'allocatable'] as const) {
    const list = node.status?.[field];
    if (!list) continue;
    for (const name of Object.keys(list)) errs.push(...validateResourceQuantityValue(name, list[name]!, child(child('status', field), name)));
  }
  return errs;
}

/** validateNodeDeclaredFeatureName's pattern: UpperCamelCase, then '/'-separated segments. */
const declaredFeaturePattern = /^[A-Z][a-zA-Z0-9]*(\/[a-zA-Z][a-zA-Z0-9]*)*$/;
const dns1123SubdomainMaxLength = 253;

function declaredFeatureNameError(name: string): string | null {
  if (name.length > dns1123SubdomainMaxLength) return `invalid feature name "${name}": must be no more than ${dns1123SubdomainMaxLength} characters`;
  if (!declaredFeaturePattern.test(name)) {
    return `invalid feature name "${name}": must start with an UpperCamelCase segment, with subsequent segments separated by '/' (e.g., MyFeature or MyFeature/mySubFeature), and contain only alphanumeric characters and slashes`;
  }
  return null;
}

/** validateNodeDeclaredFeatures: valid names, sorted, no duplicates (the scheduler matches a sorted list). */
function validateNodeDeclaredFeatures(features: readonly string[] | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (!features) return errs;
  const path = child('status', 'declaredFeatures');
  for (let i = 0; i < features.length; i++) {
    const name = features[i]!;
    const bad = declaredFeatureNameError(name);
    if (bad !== null) errs.push(invalid(index(path, i), name, bad));
    if (i + 1 < features.length) {
      const next = features[i + 1]!;
      if (name === next) errs.push(duplicate(index(path, i + 1), next));
      else if (name > next) errs.push(invalid(index(path, i + 1), next, 'list must be sorted alphabetically'));
    }
  }
  return errs;
}

/**
 * The node's own checks besides its metadata: taints (reported under metadata.taints, as upstream
 * builds the path from the metadata's) and resources.
 */
export function validateNodeFields(node: Node): FieldError[] {
  return [...validateTaints(node.spec?.taints, 'metadata.taints'), ...validateNodeResources(node)];
}

/** ValidateNode for a create. */
export function validateNode(node: Node): FieldError[] {
  // Declared features only here: a scheduler matches any list it is given, as upstream's TryMap.
  return [...validateObjectMeta(node.metadata ?? {}, false, nameIsDNSSubdomain), ...validateNodeFields(node), ...validateNodeDeclaredFeatures(node.status?.declaredFeatures)];
}
