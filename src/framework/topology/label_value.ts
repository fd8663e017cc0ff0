// The value of a label: how the topology engine reads a node's domain for a topology key.
import type { Labels } from '../../api/labels.js';

const hasOwn = Object.prototype.hasOwnProperty;

/** The value of label `key`, or undefined when absent (own properties only, so "constructor" is safe). */
export function labelValue(labels: Labels, key: string): string | undefined {
  if (labels === undefined || labels === null || !hasOwn.call(labels, key)) return undefined;
  return labels[key];
}
