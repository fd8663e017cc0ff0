// Label selectors as apimachinery evaluates them (metav1.LabelSelectorAsSelector).
import type { LabelSelector } from './types.js';

export type Labels = Readonly<Record<string, string>> | undefined;

const enum Op { In, NotIn, Exists, DoesNotExist, Equals }

interface Requirement {
  readonly key: string;
  readonly op: Op;
  readonly values: readonly string[];
}

/** A compiled label selector. `matches` is allocation-free. */
export class Selector {
  private constructor(
    private readonly requirements: readonly Requirement[],
    /** A nil selector matches nothing (labels.Nothing()). */
    readonly matchesNothing: boolean,
  ) {}

  static readonly everything = new Selector([], false);
  static readonly nothing = new Selector([], true);

  /** Builds an equality selector from a label map (labels.SelectorFromSet). */
  static fromSet(set: Readonly<Record<string, string>> | undefined): Selector {
    const reqs: Requirement[] = [];
    for (const key of Object.keys(set ?? {}).sort()) reqs.push({ key, op: Op.Equals, values: [set![key]!] });
    return reqs.length === 0 ? Selector.everything : new Selector(reqs, false);
  }

  /** True when the selector has no requirements and matches every object. */
  get isEverything(): boolean {
    return !this.matchesNothing && this.requirements.length === 0;
  }

  matches(labels: Labels): boolean {
    if (this.matchesNothing) return false;
    const reqs = this.requirements;
    for (let i = 0; i < reqs.length; i++) {
      const r = reqs[i]!;
      const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, r.key);
      switch (r.op) {
        case Op.Equals:
          if (!has || labels![r.key] !== r.values[0]) return false;
          break;
        case Op.In:
          if (!has || !r.values.includes(labels![r.key]!)) return false;
          break;
        case Op.NotIn:
          if (has && r.values.includes(labels![r.key]!)) return false;
          break;
        case Op.Exists:
          if (!has) return false;
          break;
        case Op.DoesNotExist:
          if (has) return false;
          break;
      }
    }
    return true;
  }

  /** Returns a selector that also requires every requirement of `other`. */
  and(extra: readonly { key: string; operator: 'In' | 'NotIn'; values: string[] }[]): Selector {
    if (this.matchesNothing || extra.length === 0) return this;
    const reqs = [...this.requirements];
    for (const e of extra) reqs.push({ key: e.key, op: e.operator === 'In' ? Op.In : Op.NotIn, values: e.values });
    return new Selector(reqs, false);
  }

  /** Compiles a metav1.LabelSelector; throws SelectorError on invalid input. */
  static compile(sel: LabelSelector | null | undefined): Selector {
    if (sel === null || sel === undefined) return Selector.nothing;
    const reqs: Requirement[] = [];
    for (const key of Object.keys(sel.matchLabels ?? {}).sort()) {
      const value = sel.matchLabels![key]!;
      validateLabelKey(key);
      validateLabelValue(key, value);
      reqs.push({ key, op: Op.Equals, values: [value] });
    }
    for (const expr of sel.matchExpressions ?? []) {
      validateLabelKey(expr.key);
      const values = expr.values ?? [];
      switch (expr.operator) {
        case 'In':
        case 'NotIn':
          if (values.length === 0) {
            throw new SelectorError(`for '${expr.operator === 'In' ? 'in' : 'notin'}', 'In', 'NotIn' operators, values set can't be empty`);
          }
          for (const v of values) validateLabelValue(expr.key, v);
          reqs.push({ key: expr.key, op: expr.operator === 'In' ? Op.In : Op.NotIn, values: [...values] });
          break;
        case 'Exists':
        case 'DoesNotExist':
          if (values.length !== 0) throw new SelectorError(`values set must be empty for exists and does not exist`);
          reqs.push({ key: expr.key, op: expr.operator === 'Exists' ? Op.Exists : Op.DoesNotExist, values: [] });
          break;
        default:
          throw new SelectorError(`"${expr.operator}" is not a valid label selector operator`);
      }
    }
    return reqs.length === 0 ? Selector.everything : new Selector(reqs, false);
  }
}

export class SelectorError extends Error {
  override name = 'SelectorError';
}

const qualifiedNamePart = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Validates a label key as apimachinery's IsQualifiedName does. */
export function validateLabelKey(key: string): void {
  const slash = key.indexOf('/');
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (slash >= 0) {
    const prefix = key.slice(0, slash);
    if (prefix.length === 0 || prefix.length > 253 || !dnsSubdomain.test(prefix)) {
      throw new SelectorError(`invalid label key "${key}": prefix part must be a DNS-1123 subdomain`);
    }
  }
  if (name.length === 0 || name.length > 63 || !qualifiedNamePart.test(name)) {
    throw new SelectorError(`invalid label key "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`);
  }
}

/** Validates a label value as apimachinery's IsValidLabelValue does. */
export function validateLabelValue(key: string, value: string): void {
  if (value === '') return;
  if (value.length > 63 || !qualifiedNamePart.test(value)) {
    throw new SelectorError(`invalid label value: "${value}" for key "${key}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`);
  }
}
