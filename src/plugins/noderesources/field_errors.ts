// Field errors worded as apimachinery's field.Error and validation.IsQualifiedName
// (apimachinery/pkg/util/validation), for the args validation of this folder.
import type { FieldError } from '../../framework/registry.js';

export function childPath(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

export function indexPath(path: string, i: number): string {
  return `${path}[${i}]`;
}

/** A bad value as field.Error prints it: strings quoted, numbers and booleans bare. */
function showValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return 'null';
  return JSON.stringify(v);
}

export function invalid(path: string, value: unknown, detail: string): FieldError {
  return { path, message: `Invalid value: ${showValue(value)}: ${detail}` };
}

export function notSupported(path: string, value: unknown, supported: readonly string[]): FieldError {
  const list = supported.map((s) => JSON.stringify(s)).join(', ');
  return { path, message: `Unsupported value: ${showValue(value)}: supported values: ${list}` };
}

export function required(path: string, detail: string): FieldError {
  return { path, message: `Required value: ${detail}` };
}

export function duplicate(path: string, value: unknown): FieldError {
  return { path, message: `Duplicate value: ${showValue(value)}` };
}

const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedNameRe = new RegExp(`^${qualifiedNameFmt}$`);
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);
const dns1123SubdomainErrMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/** validation.RegexError, with its quirk of a double space before each further example. */
function regexError(msg: string, fmt: string, examples: readonly string[]): string {
  let out = `${msg} (e.g. `;
  for (let i = 0; i < examples.length; i++) {
    if (i > 0) out += ' or ';
    out += `'${examples[i]}', `;
  }
  return `${out}regex used for validation is '${fmt}')`;
}

/** The messages validation.IsQualifiedName returns for `value` (empty when valid). */
export function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) {
      errs.push('prefix part must be non-empty');
    } else {
      if (prefix.length > 253) errs.push('prefix part must be no more than 253 characters');
      if (!dns1123SubdomainRe.test(prefix)) {
        errs.push(`prefix part ${regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, ['example.com'])}`);
      }
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

/** metav1validation.ValidateLabelName: one Invalid error per problem. */
export function validateLabelName(value: string, path: string): FieldError[] {
  return qualifiedNameErrors(value).map((msg) => invalid(path, value, msg));
}
