// A pod's required node constraints, nodeSelector and required node affinity together
// (component-helpers/scheduling/corev1/nodeaffinity RequiredNodeAffinity).
import { Selector } from '../../api/labels.js';
import { NodeSelectorMatcher } from '../../api/nodeselector.js';
import type { Node, Pod } from '../../api/types.js';

export enum MatchResult {
  Match,
  NoMatch,
  /** No term matched and some terms could not be parsed. */
  ParseError,
}

export class RequiredNodeAffinity {
  private constructor(
    /** pod.spec.nodeSelector as an equality selector; null when empty. */
    readonly nodeSelector: Selector | null,
    /** The required terms; null when the pod has none. Terms that fail to parse never match. */
    readonly affinity: NodeSelectorMatcher | null,
  ) {}

  static fromPod(pod: Pod): RequiredNodeAffinity {
    const ns = pod.spec.nodeSelector;
    const selector = ns && Object.keys(ns).length > 0 ? Selector.fromSet(ns) : null;
    const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    const affinity = required ? new NodeSelectorMatcher(required.nodeSelectorTerms ?? []) : null;
    return new RequiredNodeAffinity(selector, affinity);
  }

  /** Allocation-free; parse errors count as a mismatch (upstream ignores them when filtering). */
  match(node: Node): boolean {
    if (this.nodeSelector !== null && !this.nodeSelector.matches(node.metadata.labels)) return false;
    return this.affinity === null || this.affinity.matches(node);
  }

  /** Like match, telling a plain mismatch from one where unparsable terms may be to blame. */
  matchResult(node: Node): MatchResult {
    if (this.nodeSelector !== null && !this.nodeSelector.matches(node.metadata.labels)) return MatchResult.NoMatch;
    if (this.affinity === null || this.affinity.matches(node)) return MatchResult.Match;
    return this.affinity.errors.length > 0 ? MatchResult.ParseError : MatchResult.NoMatch;
  }
}
