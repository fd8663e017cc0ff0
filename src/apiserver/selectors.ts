// Label and field selectors in their query-string form (apimachinery labels.Parse and
// fields.ParseSelector) and the field values each resource can be selected by
// (pkg/registry/core/pod/strategy.go ToSelectableFields and friends).
import type { KubeObject, LabelSelector, LabelSelectorRequirement } from '../api/types.js';
import { Selector, SelectorError } from '../api/labels.js';
import type { Resource } from './resources.js';
import { badRequest } from './status.js';

/** Splits on commas outside parentheses. */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

const setOp = /^\s*([^\s!=<>(),]+)\s+(in|notin)\s*\(([^()]*)\)\s*$/;
const binaryOp = /^\s*([^\s!=<>(),]+)\s*(==|=|!=)\s*([^\s!=<>(),]*)\s*$/;
const existsOp = /^\s*(!?)\s*([^\s!=<>(),]+)\s*$/;

/** Parses `a=b,c!=d,e in (f,g),!h,i` into a metav1.LabelSelector; 400 on a malformed selector. */
export function parseLabelSelector(text: string): Selector {
  if (text.trim() === '') return Selector.everything;
  const expressions: LabelSelectorRequirement[] = [];
  for (const part of splitTopLevel(text)) {
    let m = setOp.exec(part);
    if (m) {
      const values = m[3]!.split(',').map((v) => v.trim()).filter((v) => v !== '');
      expressions.push({ key: m[1]!, operator: m[2] === 'in' ? 'In' : 'NotIn', values });
      continue;
    }
    m = binaryOp.exec(part);
    if (m) {
      expressions.push({ key: m[1]!, operator: m[2] === '!=' ? 'NotIn' : 'In', values: [m[3]!] });
      continue;
    }
    m = existsOp.exec(part);
    if (m) {
      expressions.push({ key: m[2]!, operator: m[1] === '!' ? 'DoesNotExist' : 'Exists' });
      continue;
    }
    throw badRequest(`unable to parse requirement: found '${part.trim()}', expected: in, notin, =, ==, !=, !, or end of string`);
  }
  const sel: LabelSelector = { matchExpressions: expressions };
  try {
    return Selector.compile(sel);
  } catch (err) {
    if (err instanceof SelectorError) throw badRequest(`unable to parse requirement: ${err.message}`);
    throw err;
  }
}

export interface FieldRequirement {
  readonly field: string;
  readonly value: string;
  readonly equal: boolean;
}

/** Splits a field selector on unescaped separators and unescapes `\,`, `\=` and `\\`. */
function splitEscaped(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\' && i + 1 < s.length) {
      cur += c + s[i + 1];
      i++;
    } else if (c === sep) {
      out.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  out.push(cur);
  return out;
}

const unescape = (s: string) => s.replace(/\\(.)/g, '$1');

/** Parses `spec.nodeName=,status.phase!=Failed`; only fields the resource supports are accepted. */
export function parseFieldSelector(text: string, r: Resource): FieldRequirement[] {
  const out: FieldRequirement[] = [];
  if (text.trim() === '') return out;
  for (const term of splitEscaped(text, ',')) {
    let op = '';
    let idx = -1;
    for (let i = 0; i < term.length; i++) {
      if (term[i] === '\\') {
        i++;
        continue;
      }
      if (term.startsWith('!=', i)) { op = '!='; idx = i; break; }
      if (term.startsWith('==', i)) { op = '=='; idx = i; break; }
      if (term[i] === '=') { op = '='; idx = i; break; }
    }
    if (idx < 0) throw badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
    const field = unescape(term.slice(0, idx)).trim();
    const value = unescape(term.slice(idx + op.length));
    if (field !== 'metadata.name' && field !== 'metadata.namespace' && !(r.fields ?? []).includes(field)) {
      throw badRequest(`field label not supported: ${field}`);
    }
    out.push({ field, value, equal: op !== '!=' });
  }
  return out;
}

/** The string value a field selector compares (absent fields are "", booleans "true"/"false"). */
function fieldValue(obj: KubeObject, field: string): string {
  const path = field === 'source' ? ['source', 'component'] : field.split('.');
  let v: unknown = obj;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return field === 'spec.unschedulable' || field === 'spec.hostNetwork' ? 'false' : '';
    v = (v as Record<string, unknown>)[p];
  }
  if (v === undefined || v === null) return field === 'spec.unschedulable' || field === 'spec.hostNetwork' ? 'false' : '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

export function matchesFields(obj: KubeObject, reqs: readonly FieldRequirement[]): boolean {
  for (const r of reqs) if ((fieldValue(obj, r.field) === r.value) !== r.equal) return false;
  return true;
}
