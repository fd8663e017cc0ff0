// Label selectors as apimachinery builds and evaluates them: labels/selector.go (NewRequirement,
// Requirement.Matches), meta/v1 helpers.go (LabelSelectorAsSelector) and the key/value checks
// of util/validation (IsQualifiedName, IsValidLabelValue), with their exact error texts.
import type { LabelSelector } from './types.js';

export type Labels = Readonly<Record<string, string>> | undefined;

export class SelectorError extends Error {
  override name = 'SelectorError';
}

// ---- util/validation

const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedNameRe = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueRe = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const dns1123SubdomainErrMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/** validation.RegexError, including its double space before each further example. */
function regexError(msg: string, fmt: string, examples: readonly string[]): string {
  let out = `${msg} (e.g. `;
  for (let i = 0; i < examples.length; i++) {
    if (i > 0) out += ' or ';
    out += `'${examples[i]}', `;
  }
  return `${out}regex used for validation is '${fmt}')`;
}

/** The messages of validation.IsDNS1123Subdomain (empty when valid). */
export function dns1123SubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, ['example.com']));
  return errs;
}

/** The messages of validation.IsQualifiedName (empty when valid): label keys, resource names. */
export function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = value;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) {
      errs.push('prefix part must be non-empty');
    } else {
      for (const m of dns1123SubdomainErrors(prefix)) errs.push(`prefix part ${m}`);
    }
  } else {
    return [
      `a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, ['MyName', 'my.name', '123-abc'])}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (!qualifiedNameRe.test(name)) {
    errs.push(`name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, ['MyName', 'my.name', '123-abc'])}`);
  }
  return errs;
}

/** The messages of validation.IsValidLabelValue (empty when valid). */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!labelValueRe.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, ['MyValue', 'my_value', '12345']));
  return errs;
}

// ---- field.Error texts

/** Go's %q for a string: printable characters kept, the rest escaped. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '"': out += '\\"'; continue;
      case '\\': out += '\\\\'; continue;
      case '\n': out += '\\n'; continue;
      case '\t': out += '\\t'; continue;
      case '\r': out += '\\r'; continue;
      case '\x07': out += '\\a'; continue;
      case '\b': out += '\\b'; continue;
      case '\f': out += '\\f'; continue;
      case '\v': out += '\\v'; continue;
    }
    if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Go's %#v for a []string; `undefined` is a nil slice. */
export function goStringSlice(values: readonly string[] | undefined | null): string {
  if (values === undefined || values === null) return '[]string(nil)';
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

/** field.Path rendering: children joined with '.', indices and keys in brackets. */
export function childPath(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

export function indexPath(path: string, index: number | string): string {
  return `${path}[${index}]`;
}

/** field.Invalid(path, value, detail).Error(); `value` is already formatted as Go prints it. */
export function invalidValue(path: string, goValue: string, detail: string): string {
  return `${path}: Invalid value: ${goValue}: ${detail}`;
}

/** field.NotSupported(path, value, supported).Error(). */
export function unsupportedValue(path: string, value: string, supported: readonly string[]): string {
  const list = supported.length > 0 ? `: supported values: ${supported.map(goQuote).join(', ')}` : '';
  return `${path}: Unsupported value: ${goQuote(value)}${list}`;
}

/** utilerrors.NewAggregate(errs).Error(): one message as is, several deduplicated in brackets. */
export function aggregateMessage(messages: readonly string[]): string {
  const seen: string[] = [];
  for (const m of messages) if (!seen.includes(m)) seen.push(m);
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}

// ---- Requirements

export enum Op { In, NotIn, Exists, DoesNotExist, Equals, Gt, Lt }

export interface Requirement {
  readonly key: string;
  readonly op: Op;
  readonly values: readonly string[];
  /** The integer bound of Gt/Lt (a number when safe, else a bigint). */
  readonly bound: number | bigint;
}

/** strconv.ParseInt(s, 10, 64): a number when safe, a bigint beyond, undefined when invalid. */
export function parseInt64(s: string): number | bigint | undefined {
  const len = s.length;
  let i = 0;
  const c0 = s.charCodeAt(0);
  if (c0 === 43 || c0 === 45) i = 1;
  if (i >= len) return undefined;
  for (let j = i; j < len; j++) {
    const c = s.charCodeAt(j);
    if (c < 48 || c > 57) return undefined;
  }
  if (len - i <= 15) {
    const n = Number(s);
    return n === 0 ? 0 : n;
  }
  const v = BigInt(s);
  if (v > 9223372036854775807n || v < -9223372036854775808n) return undefined;
  return v;
}

const opNames: Record<Op, string> = {
  [Op.In]: 'in', [Op.NotIn]: 'notin', [Op.Exists]: 'exists', [Op.DoesNotExist]: '!', [Op.Equals]: '=', [Op.Gt]: 'gt', [Op.Lt]: 'lt',
};

/**
 * labels.NewRequirement: validates and builds one requirement. Errors are pushed to `errs` as
 * field.Error texts under `path` ('' for none); returns undefined when there were any.
 * `values` undefined stands for a nil slice (it prints differently from an empty one).
 */
export function newRequirement(key: string, op: Op, values: readonly string[] | undefined, path: string, errs: string[]): Requirement | undefined {
  const before = errs.length;
  const keyErrs = qualifiedNameErrors(key);
  if (keyErrs.length > 0) errs.push(invalidValue(childPath(path, 'key'), goQuote(key), keyErrs.join('; ')));
  const vals = values ?? [];
  const valuesPath = childPath(path, 'values');
  let bound: number | bigint = 0;
  switch (op) {
    case Op.In:
    case Op.NotIn:
      if (vals.length === 0) errs.push(invalidValue(valuesPath, goStringSlice(values), "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case Op.Equals:
      if (vals.length !== 1) errs.push(invalidValue(valuesPath, goStringSlice(values), 'exact-match compatibility requires one single value'));
      break;
    case Op.Exists:
    case Op.DoesNotExist:
      if (vals.length !== 0) errs.push(invalidValue(valuesPath, goStringSlice(values), 'values set must be empty for exists and does not exist'));
      break;
    case Op.Gt:
    case Op.Lt:
      if (vals.length !== 1) errs.push(invalidValue(valuesPath, goStringSlice(values), "for 'Gt', 'Lt' operators, exactly one value is required"));
      for (let i = 0; i < vals.length; i++) {
        const b = parseInt64(vals[i]!);
        if (b === undefined) errs.push(invalidValue(indexPath(valuesPath, i), goQuote(vals[i]!), "for 'Gt', 'Lt' operators, the value must be an integer"));
        else bound = b;
      }
      break;
  }
  for (let i = 0; i < vals.length; i++) {
    const vErrs = labelValueErrors(vals[i]!);
    if (vErrs.length > 0) errs.push(invalidValue(indexPath(indexPath(valuesPath, i), key), goQuote(vals[i]!), vErrs.join('; ')));
  }
  return errs.length > before ? undefined : { key, op, values: [...vals], bound };
}

function has(labels: Labels, key: string): boolean {
  return labels !== undefined && Object.prototype.hasOwnProperty.call(labels, key);
}

function includes(values: readonly string[], v: string): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] === v) return true;
  return false;
}

/** Requirement.Matches. Allocation-free except for Gt/Lt on integers beyond 2^53. */
export function requirementMatches(r: Requirement, labels: Labels): boolean {
  switch (r.op) {
    case Op.Equals:
    case Op.In:
      return has(labels, r.key) && includes(r.values, labels![r.key]!);
    case Op.NotIn:
      return !has(labels, r.key) || !includes(r.values, labels![r.key]!);
    case Op.Exists:
      return has(labels, r.key);
    case Op.DoesNotExist:
      return !has(labels, r.key);
    case Op.Gt:
    case Op.Lt: {
      if (!has(labels, r.key)) return false;
      const v = parseInt64(labels![r.key]!);
      if (v === undefined) return false;
      // number and bigint compare exactly with each other.
      return r.op === Op.Gt ? v > r.bound : v < r.bound;
    }
  }
}

/** The text form of a requirement (Requirement.String), e.g. "app in (a,b)". */
function requirementString(r: Requirement): string {
  switch (r.op) {
    case Op.Exists: return r.key;
    case Op.DoesNotExist: return `!${r.key}`;
    case Op.Equals: return `${r.key}=${r.values[0]}`;
    case Op.Gt: return `${r.key}>${r.values[0]}`;
    case Op.Lt: return `${r.key}<${r.values[0]}`;
    default: {
      const vals = [...r.values].sort();
      return `${r.key} ${opNames[r.op]} (${vals.join(',')})`;
    }
  }
}

function byKey(a: Requirement, b: Requirement): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

// ---- Selector

/** A compiled label selector. `matches` is allocation-free. */
export class Selector {
  private constructor(
    readonly requirements: readonly Requirement[],
    /** A nil selector matches nothing (labels.Nothing()). */
    readonly matchesNothing: boolean,
  ) {}

  static readonly everything = new Selector([], false);
  static readonly nothing = new Selector([], true);

  /** A selector from requirements already built (sorted by key, as labels.Selector.Add keeps them). */
  static of(requirements: readonly Requirement[]): Selector {
    return requirements.length === 0 ? Selector.everything : new Selector([...requirements].sort(byKey), false);
  }

  /** An equality selector for a label map, without validation (labels.SelectorFromSet). */
  static fromSet(set: Readonly<Record<string, string>> | undefined): Selector {
    const reqs: Requirement[] = [];
    for (const key of Object.keys(set ?? {}).sort()) reqs.push({ key, op: Op.Equals, values: [set![key]!], bound: 0 });
    return reqs.length === 0 ? Selector.everything : new Selector(reqs, false);
  }

  /** True when the selector has no requirements and matches every object (Empty()). */
  get isEverything(): boolean {
    return !this.matchesNothing && this.requirements.length === 0;
  }

  matches(labels: Labels): boolean {
    if (this.matchesNothing) return false;
    const reqs = this.requirements;
    for (let i = 0; i < reqs.length; i++) if (!requirementMatches(reqs[i]!, labels)) return false;
    return true;
  }

  /** A selector that also requires each of `extra` (In/NotIn on a key), as Selector.Add does. */
  and(extra: readonly { key: string; operator: 'In' | 'NotIn'; values: string[] }[]): Selector {
    if (this.matchesNothing || extra.length === 0) return this;
    const reqs = [...this.requirements];
    for (const e of extra) reqs.push({ key: e.key, op: e.operator === 'In' ? Op.In : Op.NotIn, values: e.values, bound: 0 });
    return Selector.of(reqs);
  }

  /** The text form (Selector.String), e.g. "app=web,tier in (a,b)". */
  toString(): string {
    return this.requirements.map(requirementString).join(',');
  }

  /**
   * metav1.LabelSelectorAsSelector: nil matches nothing, an empty selector everything. Throws
   * SelectorError with upstream's message for the first invalid requirement.
   */
  static compile(sel: LabelSelector | null | undefined): Selector {
    if (sel === null || sel === undefined) return Selector.nothing;
    const matchLabels = sel.matchLabels ?? {};
    const labelKeys = Object.keys(matchLabels).sort();
    const exprs = sel.matchExpressions ?? [];
    if (labelKeys.length + exprs.length === 0) return Selector.everything;
    const reqs: Requirement[] = [];
    const errs: string[] = [];
    for (const key of labelKeys) {
      const r = newRequirement(key, Op.Equals, [matchLabels[key]!], '', errs);
      if (r === undefined) throw new SelectorError(aggregateMessage(errs));
      reqs.push(r);
    }
    for (const expr of exprs) {
      let op: Op;
      switch (expr.operator) {
        case 'In': op = Op.In; break;
        case 'NotIn': op = Op.NotIn; break;
        case 'Exists': op = Op.Exists; break;
        case 'DoesNotExist': op = Op.DoesNotExist; break;
        default: throw new SelectorError(`${goQuote(String(expr.operator))} is not a valid label selector operator`);
      }
      // Upstream copies the values with append([]string(nil), ...): an empty list prints as nil.
      const values = expr.values && expr.values.length > 0 ? expr.values : undefined;
      const r = newRequirement(expr.key ?? '', op, values, '', errs);
      if (r === undefined) throw new SelectorError(aggregateMessage(errs));
      reqs.push(r);
    }
    return Selector.of(reqs);
  }
}

/** Validates a label key (IsQualifiedName); the SelectorError message is upstream's detail text. */
export function validateLabelKey(key: string): void {
  const errs = qualifiedNameErrors(key);
  if (errs.length > 0) throw new SelectorError(errs.join('; '));
}

/**
 * Validates the value of label `_key` (IsValidLabelValue); the SelectorError message is
 * upstream's detail text.
 */
export function validateLabelValue(_key: string, value: string): void {
  const errs = labelValueErrors(value);
  if (errs.length > 0) throw new SelectorError(errs.join('; '));
}
