// Nodes as the API server validates them (pkg/apis/core/validation/validation.go ValidateNode,
// ValidateNodeResources, validateNodeTaints).
import type { Node } from '../types.js';
import { child, type FieldError } from './field.js';
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

/**
 * The node's own checks besides its metadata: taints (reported under metadata.taints, as upstream
 * builds the path from the metadata's) and resources.
 */
export function validateNodeFields(node: Node): FieldError[] {
  return [...validateTaints(node.spec?.taints, 'metadata.taints'), ...validateNodeResources(node)];
}

/** ValidateNode for a create. */
export function validateNode(node: Node): FieldError[] {
  return [...validateObjectMeta(node.metadata ?? {}, false, nameIsDNSSubdomain), ...validateNodeFields(node)];
}
