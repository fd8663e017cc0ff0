// Field-path validation of node selector terms, as component-helpers' nodeaffinity parsing reports
// errors (NewNodeSelector, NewPreferredSchedulingTerms) with labels.NewRequirement's messages; used
// for NodeAffinityArgs (validation_pluginargs.go ValidateNodeAffinityArgs) and for pod error messages.
import type { NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, PreferredSchedulingTerm } from '../../api/types.js';
import type { FieldError } from '../../framework/registry.js';
import { childPath, indexPath, fieldInvalid as invalid, fieldNotSupported as notSupported } from '../../api/field_errors.js';
import { labelValueErrors, qualifiedNameErrors } from '../../api/labels.js';

const labelOperators = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'] as const;
const fieldOperators = ['In', 'NotIn'] as const;

const int64Re = /^[+-]?\d+$/;

function isInt64(s: string): boolean {
  if (!int64Re.test(s)) return false;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n;
}

function isEmptyTerm(term: NodeSelectorTerm): boolean {
  return (term.matchExpressions?.length ?? 0) === 0 && (term.matchFields?.length ?? 0) === 0;
}

function validateLabelRequirement(r: NodeSelectorRequirement, path: string, out: FieldError[]): void {
  const op = r.operator as string;
  if (!(labelOperators as readonly string[]).includes(op)) {
    out.push(notSupported(childPath(path, 'operator'), op, labelOperators));
    return;
  }
  const keyErrs = qualifiedNameErrors(r.key);
  if (keyErrs.length > 0) out.push(invalid(childPath(path, 'key'), r.key, keyErrs.join('; ')));
  const values = r.values ?? [];
  const valuesPath = childPath(path, 'values');
  switch (op) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) out.push(invalid(valuesPath, values, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length !== 0) out.push(invalid(valuesPath, values, 'values set must be empty for exists and does not exist'));
      break;
    default:
      if (values.length !== 1) out.push(invalid(valuesPath, values, "for 'Gt', 'Lt' operators, exactly one value is required"));
      for (let i = 0; i < values.length; i++) {
        if (!isInt64(values[i]!)) out.push(invalid(indexPath(valuesPath, i), values[i], "for 'Gt', 'Lt' operators, the value must be an integer"));
      }
  }
  for (let i = 0; i < values.length; i++) {
    const errs = labelValueErrors(values[i]!);
    if (errs.length > 0) out.push(invalid(indexPath(valuesPath, i), values[i], errs.join('; ')));
  }
}

function validateFieldRequirement(r: NodeSelectorRequirement, path: string, out: FieldError[]): void {
  const op = r.operator as string;
  if (!(fieldOperators as readonly string[]).includes(op)) {
    out.push(notSupported(childPath(path, 'operator'), op, fieldOperators));
    return;
  }
  const values = r.values ?? [];
  if (values.length !== 1) out.push(invalid(childPath(path, 'values'), values, 'must have one element'));
}

/** Errors of one term (nodeaffinity newNodeSelectorTerm). */
function validateNodeSelectorTerm(term: NodeSelectorTerm, path: string, out: FieldError[] = []): FieldError[] {
  const exprs = term.matchExpressions ?? [];
  for (let i = 0; i < exprs.length; i++) validateLabelRequirement(exprs[i]!, indexPath(childPath(path, 'matchExpressions'), i), out);
  const fields = term.matchFields ?? [];
  for (let i = 0; i < fields.length; i++) validateFieldRequirement(fields[i]!, indexPath(childPath(path, 'matchFields'), i), out);
  return out;
}

/** Errors of a required node selector; empty terms are skipped (they match nothing). */
export function validateNodeSelector(ns: NodeSelector, path: string): FieldError[] {
  const out: FieldError[] = [];
  const terms = ns.nodeSelectorTerms ?? [];
  for (let i = 0; i < terms.length; i++) {
    if (isEmptyTerm(terms[i]!)) continue;
    validateNodeSelectorTerm(terms[i]!, indexPath(childPath(path, 'nodeSelectorTerms'), i), out);
  }
  return out;
}

/** Errors of preferred terms; zero-weight and empty terms are skipped, as upstream never parses them. */
export function validatePreferredSchedulingTerms(terms: readonly PreferredSchedulingTerm[], path: string): FieldError[] {
  const out: FieldError[] = [];
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i]!;
    if (!t.weight || isEmptyTerm(t.preference)) continue;
    validateNodeSelectorTerm(t.preference, indexPath(path, i), out);
  }
  return out;
}

/** One message for several errors, as an apimachinery aggregate prints them. */
export function aggregateMessage(errs: readonly FieldError[]): string {
  const msgs = errs.map((e) => `${e.path}: ${e.message}`);
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}
