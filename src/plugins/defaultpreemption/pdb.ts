// PodDisruptionBudgets as preemption reads them (preemption/util.go FilterVictimsWithPDBViolation).
import { Selector } from '../../api/labels.js';
import type { PodDisruptionBudget } from '../../api/types.js';
import type { PodInfo } from '../../framework/pod_info.js';

/** A PDB with its selector compiled once per preemption attempt. */
export interface DisruptionBudget {
  /** "namespace/name", for diagnosis. */
  readonly key: string;
  readonly namespace: string;
  readonly selector: Selector;
  readonly disruptionsAllowed: number;
  /** Pods whose eviction the API server already processed (status.disruptedPods), by name. */
  readonly disruptedPods: Readonly<Record<string, unknown>>;
}

const noPods: Readonly<Record<string, unknown>> = {};

/**
 * Compiles the PDBs that can match a pod: a nil or empty selector matches nothing, and an invalid
 * selector matches no pod either, so those are left out. They come sorted by namespace and name:
 * a victim stops at its first violated budget, and upstream's lister order (a Go map's) is random,
 * so we take the one order the differential harness pins too.
 */
export function compileDisruptionBudgets(pdbs: readonly PodDisruptionBudget[]): DisruptionBudget[] {
  const out: DisruptionBudget[] = [];
  for (const pdb of [...pdbs].sort(byNamespaceAndName)) {
    let selector: Selector;
    try {
      selector = Selector.compile(pdb.spec?.selector);
    } catch {
      continue;
    }
    if (selector.matchesNothing || selector.isEverything) continue;
    const namespace = pdb.metadata?.namespace ?? 'default';
    out.push({
      key: `${namespace}/${pdb.metadata?.name ?? ''}`,
      namespace,
      selector,
      disruptionsAllowed: pdb.status?.disruptionsAllowed ?? 0,
      disruptedPods: pdb.status?.disruptedPods ?? noPods,
    });
  }
  return out;
}

function byNamespaceAndName(a: PodDisruptionBudget, b: PodDisruptionBudget): number {
  const an = a.metadata?.namespace ?? 'default';
  const bn = b.metadata?.namespace ?? 'default';
  if (an !== bn) return an < bn ? -1 : 1;
  const a1 = a.metadata?.name ?? '';
  const b1 = b.metadata?.name ?? '';
  return a1 < b1 ? -1 : a1 > b1 ? 1 : 0;
}

function hasLabels(labels: Readonly<Record<string, string>> | undefined): boolean {
  if (labels === undefined) return false;
  for (const _ in labels) return true;
  return false;
}

/**
 * A counter of the disruptions evicting pods uses up (podIsViolating): each call takes one
 * disruption of every budget the pod matches, in the budgets' order, until one is exceeded (the
 * budgets after it are left as they were, since v1.36), and answers that budget's key, or null.
 */
function disruptionCounter(pdbs: readonly DisruptionBudget[]): (pi: PodInfo) => string | null {
  const allowed: number[] = new Array<number>(pdbs.length);
  for (let i = 0; i < pdbs.length; i++) allowed[i] = pdbs[i]!.disruptionsAllowed;
  return (pi) => {
    const labels = pi.pod.metadata.labels;
    if (!hasLabels(labels)) return null;
    for (let i = 0; i < pdbs.length; i++) {
      const pdb = pdbs[i]!;
      if (pdb.namespace !== pi.namespace || !pdb.selector.matches(labels)) continue;
      // An eviction the API server already processed does not count against the budget again.
      if (Object.prototype.hasOwnProperty.call(pdb.disruptedPods, pi.name)) continue;
      allowed[i]!--;
      if (allowed[i]! < 0) return pdb.key;
    }
    return null;
  };
}

/**
 * Splits pods into those whose eviction would exceed a PDB's allowed disruptions and the rest,
 * keeping their order. With `exceeded` (diagnosis), the budget each violating pod exceeded is
 * noted there.
 */
export function filterPodsWithPDBViolation(
  pods: readonly PodInfo[],
  pdbs: readonly DisruptionBudget[],
  exceeded: Map<PodInfo, string[]> | null = null,
): { violating: PodInfo[]; nonViolating: PodInfo[] } {
  const violating: PodInfo[] = [];
  const nonViolating: PodInfo[] = [];
  const violates = disruptionCounter(pdbs);
  for (const pi of pods) {
    const key = violates(pi);
    if (key !== null) {
      violating.push(pi);
      if (exceeded !== null) exceeded.set(pi, [...(exceeded.get(pi) ?? []), key]);
    } else {
      nonViolating.push(pi);
    }
  }
  return { violating, nonViolating };
}

/**
 * The same split over victims of one or more pods (FilterVictimsWithPDBViolation): a victim is
 * atomic, so one violating pod makes the whole victim violating; each violating victim comes
 * with how many of its pods violate.
 */
export function filterVictimsWithPDBViolation<V extends { readonly pods: readonly PodInfo[] }>(
  victims: readonly V[],
  pdbs: readonly DisruptionBudget[],
): { violating: { victim: V; count: number }[]; nonViolating: V[] } {
  const violating: { victim: V; count: number }[] = [];
  const nonViolating: V[] = [];
  const violates = disruptionCounter(pdbs);
  for (const v of victims) {
    let count = 0;
    for (const pi of v.pods) if (violates(pi) !== null) count++;
    if (count > 0) violating.push({ victim: v, count });
    else nonViolating.push(v);
  }
  return { violating, nonViolating };
}
