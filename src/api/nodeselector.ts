// Node selector terms as component-helpers' nodeaffinity evaluates them: terms are ORed, the
// expressions of a term ANDed; an empty term matches nothing; a term that fails to parse never
// matches and its error is kept.
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, PreferredSchedulingTerm } from './types.js';
import { validateLabelKey, validateLabelValue, SelectorError } from './labels.js';

const enum Op { In, NotIn, Exists, DoesNotExist, Gt, Lt }

interface LabelRequirement {
  readonly key: string;
  readonly op: Op;
  readonly values: readonly string[];
  readonly bound: number;
}

interface FieldRequirement {
  readonly equals: boolean;
  readonly value: string;
}

class CompiledTerm {
  constructor(
    readonly labels: readonly LabelRequirement[],
    readonly fields: readonly FieldRequirement[],
  ) {}

  matches(node: Node): boolean {
    const nodeLabels = node.metadata.labels;
    for (let i = 0; i < this.labels.length; i++) {
      if (!labelRequirementMatches(this.labels[i]!, nodeLabels)) return false;
    }
    const name = node.metadata.name ?? '';
    for (let i = 0; i < this.fields.length; i++) {
      const f = this.fields[i]!;
      if ((name === f.value) !== f.equals) return false;
    }
    return true;
  }
}

function labelRequirementMatches(r: LabelRequirement, labels: Record<string, string> | undefined): boolean {
  const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, r.key);
  switch (r.op) {
    case Op.In:
      return has && r.values.includes(labels![r.key]!);
    case Op.NotIn:
      return !has || !r.values.includes(labels![r.key]!);
    case Op.Exists:
      return has;
    case Op.DoesNotExist:
      return !has;
    case Op.Gt:
    case Op.Lt: {
      if (!has) return false;
      const v = parseInt64(labels![r.key]!);
      if (v === undefined) return false;
      return r.op === Op.Gt ? v > r.bound : v < r.bound;
    }
  }
}

const int64Pattern = /^[+-]?\d+$/;
function parseInt64(s: string): number | undefined {
  if (!int64Pattern.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

function compileLabelRequirement(expr: NodeSelectorRequirement): LabelRequirement {
  validateLabelKey(expr.key);
  const values = expr.values ?? [];
  switch (expr.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) throw new SelectorError(`for 'in', 'notin' operators, values set can't be empty`);
      for (const v of values) validateLabelValue(expr.key, v);
      return { key: expr.key, op: expr.operator === 'In' ? Op.In : Op.NotIn, values: [...values], bound: 0 };
    case 'Exists':
    case 'DoesNotExist':
      if (values.length !== 0) throw new SelectorError(`values set must be empty for exists and does not exist`);
      return { key: expr.key, op: expr.operator === 'Exists' ? Op.Exists : Op.DoesNotExist, values: [], bound: 0 };
    case 'Gt':
    case 'Lt': {
      if (values.length !== 1) throw new SelectorError(`for 'Gt', 'Lt' operators, exactly one value is required`);
      const bound = parseInt64(values[0]!);
      if (bound === undefined) throw new SelectorError(`for 'Gt', 'Lt' operators, the value must be an integer`);
      return { key: expr.key, op: expr.operator === 'Gt' ? Op.Gt : Op.Lt, values: [], bound };
    }
    default:
      throw new SelectorError(`"${expr.operator}" is not a valid node selector operator`);
  }
}

function compileFieldRequirement(expr: NodeSelectorRequirement): FieldRequirement {
  if (expr.key !== 'metadata.name') throw new SelectorError(`"${expr.key}" is not a valid field selector key`);
  const values = expr.values ?? [];
  if (expr.operator !== 'In' && expr.operator !== 'NotIn') {
    throw new SelectorError(`"${expr.operator}" is not a valid node field selector operator`);
  }
  if (values.length !== 1) throw new SelectorError(`unexpected number of value (${values.length}) for node field selector operator "${expr.operator}"`);
  return { equals: expr.operator === 'In', value: values[0]! };
}

/** Compiles one term; returns undefined for an empty term (which matches nothing). */
function compileTerm(term: NodeSelectorTerm): CompiledTerm | undefined {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return undefined;
  return new CompiledTerm(exprs.map(compileLabelRequirement), fields.map(compileFieldRequirement));
}

/** ORed node selector terms (nodeaffinity.LazyErrorNodeSelector). */
export class NodeSelectorMatcher {
  private readonly terms: CompiledTerm[] = [];
  /** Parse errors of terms that can never match. */
  readonly errors: string[] = [];

  constructor(terms: readonly NodeSelectorTerm[]) {
    for (const term of terms) {
      try {
        const t = compileTerm(term);
        if (t) this.terms.push(t);
      } catch (err) {
        this.errors.push((err as Error).message);
      }
    }
  }

  matches(node: Node): boolean {
    for (let i = 0; i < this.terms.length; i++) if (this.terms[i]!.matches(node)) return true;
    return false;
  }
}

/** Weighted preferred terms (nodeaffinity.PreferredSchedulingTerms); throws on a parse error. */
export class PreferredTermsScorer {
  private readonly terms: { term: CompiledTerm; weight: number }[] = [];

  constructor(prefs: readonly PreferredSchedulingTerm[]) {
    for (const p of prefs) {
      if (!p.weight) continue;
      const t = compileTerm(p.preference);
      if (t) this.terms.push({ term: t, weight: p.weight });
    }
  }

  get isEmpty(): boolean {
    return this.terms.length === 0;
  }

  score(node: Node): number {
    let sum = 0;
    for (let i = 0; i < this.terms.length; i++) {
      const t = this.terms[i]!;
      if (t.term.matches(node)) sum += t.weight;
    }
    return sum;
  }
}
