// Node selector terms as component-helpers' scheduling/corev1/nodeaffinity evaluates them
// (LazyErrorNodeSelector, PreferredSchedulingTerms, GetRequiredNodeAffinity): terms are ORed and
// the requirements of a term ANDed; an empty term matches nothing; a term that fails to parse
// never matches and its errors are kept with upstream's field paths and texts.
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, Pod, PreferredSchedulingTerm } from './types.js';
import {
  aggregateMessage,
  childPath,
  goStringSlice,
  indexPath,
  invalidValue,
  newRequirement,
  Op,
  requirementMatches,
  Selector,
  SelectorError,
  unsupportedValue,
  type Requirement,
} from './labels.js';

const labelOperators = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'];
const fieldOperators = ['In', 'NotIn'];

/** A fields.Selector term on the node's fields (only metadata.name is set, when non-empty). */
interface FieldRequirement {
  readonly key: string;
  readonly equals: boolean;
  readonly value: string;
}

class CompiledTerm {
  constructor(
    readonly labels: readonly Requirement[],
    readonly fields: readonly FieldRequirement[],
  ) {}

  matches(node: Node): boolean {
    const nodeLabels = node.metadata.labels;
    for (let i = 0; i < this.labels.length; i++) {
      if (!requirementMatches(this.labels[i]!, nodeLabels)) return false;
    }
    // Upstream skips the field selector when the node has no name (its field set is empty).
    const name = node.metadata.name ?? '';
    if (name === '') return true;
    for (let i = 0; i < this.fields.length; i++) {
      const f = this.fields[i]!;
      const actual = f.key === 'metadata.name' ? name : '';
      if ((actual === f.value) !== f.equals) return false;
    }
    return true;
  }
}

function toOp(operator: string): Op | undefined {
  switch (operator) {
    case 'In': return Op.In;
    case 'NotIn': return Op.NotIn;
    case 'Exists': return Op.Exists;
    case 'DoesNotExist': return Op.DoesNotExist;
    case 'Gt': return Op.Gt;
    case 'Lt': return Op.Lt;
    default: return undefined;
  }
}

/** nodeSelectorRequirementsAsSelector. */
function labelRequirements(exprs: readonly NodeSelectorRequirement[], path: string, errs: string[]): Requirement[] {
  const out: Requirement[] = [];
  for (let i = 0; i < exprs.length; i++) {
    const expr = exprs[i]!;
    const p = indexPath(path, i);
    const op = toOp(expr.operator);
    if (op === undefined) {
      errs.push(unsupportedValue(childPath(p, 'operator'), String(expr.operator), labelOperators));
      continue;
    }
    // An absent key is Go's zero value, the empty string (refused by the key check).
    const r = newRequirement(expr.key ?? '', op, expr.values ?? undefined, p, errs);
    if (r !== undefined) out.push(r);
  }
  return out;
}

/** nodeSelectorRequirementsAsFieldSelector: In/NotIn with exactly one value, any key. */
function fieldRequirements(exprs: readonly NodeSelectorRequirement[], path: string, errs: string[]): FieldRequirement[] {
  const out: FieldRequirement[] = [];
  for (let i = 0; i < exprs.length; i++) {
    const expr = exprs[i]!;
    const p = indexPath(path, i);
    if (expr.operator !== 'In' && expr.operator !== 'NotIn') {
      errs.push(unsupportedValue(childPath(p, 'operator'), String(expr.operator), fieldOperators));
      continue;
    }
    const values = expr.values ?? undefined;
    if (values === undefined || values.length !== 1) {
      errs.push(invalidValue(childPath(p, 'values'), goStringSlice(values), 'must have one element'));
      continue;
    }
    out.push({ key: expr.key ?? '', equals: expr.operator === 'In', value: values[0]! });
  }
  return out;
}

function isEmptyTerm(term: NodeSelectorTerm | null | undefined): boolean {
  return !term || ((term.matchExpressions?.length ?? 0) === 0 && (term.matchFields?.length ?? 0) === 0);
}

/** newNodeSelectorTerm: the compiled term, or its errors pushed to `errs` and undefined. */
function compileTerm(term: NodeSelectorTerm, path: string, errs: string[]): CompiledTerm | undefined {
  const before = errs.length;
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  const labels = exprs.length > 0 ? labelRequirements(exprs, childPath(path, 'matchExpressions'), errs) : [];
  const fieldReqs = fields.length > 0 ? fieldRequirements(fields, childPath(path, 'matchFields'), errs) : [];
  return errs.length > before ? undefined : new CompiledTerm(labels, fieldReqs);
}

/** ORed node selector terms (nodeaffinity.LazyErrorNodeSelector). */
export class NodeSelectorMatcher {
  private readonly terms: CompiledTerm[] = [];
  /** Parse errors of the terms that can never match, as upstream words them. */
  readonly errors: string[] = [];

  constructor(terms: readonly (NodeSelectorTerm | null)[]) {
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i];
      if (isEmptyTerm(term)) continue;
      const t = compileTerm(term!, indexPath('nodeSelectorTerms', i), this.errors);
      if (t) this.terms.push(t);
    }
  }

  /** The error LazyErrorNodeSelector.Match returns when no term matches, or null. */
  get error(): string | null {
    return this.errors.length === 0 ? null : aggregateMessage(this.errors);
  }

  matches(node: Node): boolean {
    for (let i = 0; i < this.terms.length; i++) if (this.terms[i]!.matches(node)) return true;
    return false;
  }
}

/**
 * Weighted preferred terms (nodeaffinity.NewPreferredSchedulingTerms): terms with weight 0 or no
 * requirements are skipped; throws SelectorError with every parse error, aggregated as upstream.
 */
export class PreferredTermsScorer {
  private readonly terms: CompiledTerm[] = [];
  private readonly weights: number[] = [];

  constructor(prefs: readonly PreferredSchedulingTerm[]) {
    const errs: string[] = [];
    for (let i = 0; i < prefs.length; i++) {
      const p = prefs[i]!;
      if (!p.weight || isEmptyTerm(p.preference)) continue;
      const t = compileTerm(p.preference, indexPath('', i), errs);
      if (t) {
        this.terms.push(t);
        this.weights.push(p.weight);
      }
    }
    if (errs.length > 0) throw new SelectorError(aggregateMessage(errs));
  }

  get isEmpty(): boolean {
    return this.terms.length === 0;
  }

  score(node: Node): number {
    let sum = 0;
    for (let i = 0; i < this.terms.length; i++) if (this.terms[i]!.matches(node)) sum += this.weights[i]!;
    return sum;
  }
}

/**
 * A pod's spec.nodeSelector and required node affinity together (nodeaffinity.GetRequiredNodeAffinity):
 * both must match; parse errors make the affinity part unmatchable.
 */
export enum MatchResult {
  Match,
  NoMatch,
  /** No term matched and some terms could not be parsed. */
  ParseError,
}

export class RequiredNodeAffinity {
  private constructor(
    /** null when the pod has no nodeSelector entries. */
    readonly nodeSelector: Selector | null,
    /** null when the pod has no required node affinity. */
    readonly affinity: NodeSelectorMatcher | null,
  ) {}

  static fromPod(pod: Pod): RequiredNodeAffinity {
    const ns = pod.spec.nodeSelector;
    const selector = ns && Object.keys(ns).length > 0 ? Selector.fromSet(ns) : null;
    const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    const affinity = required ? new NodeSelectorMatcher(required.nodeSelectorTerms ?? []) : null;
    return new RequiredNodeAffinity(selector, affinity);
  }

  /** Allocation-free; terms that fail to parse count as a mismatch. */
  matches(node: Node): boolean {
    if (this.nodeSelector !== null && !this.nodeSelector.matches(node.metadata.labels)) return false;
    return this.affinity === null || this.affinity.matches(node);
  }

  /** Like matches, telling a plain mismatch from one where unparsable terms may be to blame. */
  matchResult(node: Node): MatchResult {
    if (this.nodeSelector !== null && !this.nodeSelector.matches(node.metadata.labels)) return MatchResult.NoMatch;
    if (this.affinity === null || this.affinity.matches(node)) return MatchResult.Match;
    return this.affinity.errors.length > 0 ? MatchResult.ParseError : MatchResult.NoMatch;
  }
}
