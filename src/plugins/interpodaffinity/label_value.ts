// The value of a node label, shared by the domain table and the counts without an import cycle.
import type { Labels } from '../../api/labels.js';

const hasOwn = Object.prototype.hasOwnProperty;

/** The value of label `key`, or undefined when absent (own properties only, so "constructor" is safe). */
export function labelValue(labels: Labels, key: string): string | undefined {
  if (labels === undefined || labels === null || !hasOwn.call(labels, key)) return undefined;
  return labels[key];
}
