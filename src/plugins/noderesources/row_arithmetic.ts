// NodeResourcesFit's check and the resource scorers' score of one packed row (fit.go
// fitsRequest's pods/cpu/memory/ephemeral-storage part, resource_allocation.go score), shared by
// the main thread and the row pass's worker threads so that both compute the very same numbers.
import { ResourceCPU, ResourceEphemeralStorage, ResourceMemory } from '../../api/resource_requests.js';
import type { NodeRows } from '../../framework/node_rows.js';
import type { RowResourceCheck, RowScorerSpec } from '../../framework/row_pass.js';
import { balancedResourceScorer } from './balanced_scorer.js';
import { leastResourceScorer } from './least_allocated.js';
import { mostResourceScorer } from './most_allocated.js';
import { requestedToCapacityRatioScorer } from './requested_to_capacity_ratio.js';
import type { ResourceScorer } from './strategies.js';

// How each configured resource is read from a NodeInfo or its row, decided once from its name.
export const KindCPU = 0;
export const KindMemory = 1;
export const KindEphemeralStorage = 2;
export const KindScalar = 3;
/** Anything else (e.g. `pods`): never scored, as upstream finds no scalar allocatable for it. */
export const KindIgnored = 4;

/** Whether the row at `at` has room for the pod (Fit's Filter on the packed numbers). */
export function fitsRow(rows: NodeRows, at: number, check: RowResourceCheck): boolean {
  const ephemeral = check.ephemeralStorage;
  return !(rows.podCount(at) + 1 > rows.allowedPodNumber(at) ||
    check.milliCPU > rows.allocatableMilliCPU(at) - rows.requestedMilliCPU(at) ||
    check.memory > rows.allocatableMemory(at) - rows.requestedMemory(at) ||
    (ephemeral > 0 && ephemeral > rows.allocatableEphemeralStorage(at) - rows.requestedEphemeralStorage(at)));
}

/** The node's allocatable cpu, memory or ephemeral storage at row `at`. */
function allocatableInRow(rows: NodeRows, at: number, kind: number): number {
  if (kind === KindCPU) return rows.allocatableMilliCPU(at);
  if (kind === KindMemory) return rows.allocatableMemory(at);
  return rows.allocatableEphemeralStorage(at);
}

/**
 * What the pods at row `at` use of a cpu, memory or ephemeral-storage resource: their real requests
 * (`useRequested`) or the non-zero ones, which ephemeral storage does not have.
 */
function usedInRow(rows: NodeRows, at: number, kind: number, useRequested: boolean): number {
  if (kind === KindCPU) return useRequested ? rows.requestedMilliCPU(at) : rows.nonZeroRequestedMilliCPU(at);
  if (kind === KindMemory) return useRequested ? rows.requestedMemory(at) : rows.nonZeroRequestedMemory(at);
  return rows.requestedEphemeralStorage(at);
}

/** The kind of the resource `name` among a row's numbers; KindIgnored for any other (scalars are the caller's to tell). */
export function packedKind(name: string): number {
  switch (name) {
    case ResourceCPU: return KindCPU;
    case ResourceMemory: return KindMemory;
    case ResourceEphemeralStorage: return KindEphemeralStorage;
    default: return KindIgnored;
  }
}

/** The strategy function a spec names; null for one the row pass does not know. */
export function resourceScorerOf(spec: RowScorerSpec): ResourceScorer | null {
  switch (spec.strategy) {
    case 'LeastAllocated': return leastResourceScorer(spec.resources);
    case 'MostAllocated': return mostResourceScorer(spec.resources);
    case 'RequestedToCapacityRatio': return spec.shape === null || spec.shape.length === 0 ? null : requestedToCapacityRatioScorer(spec.resources, spec.shape);
    case 'NodeResourcesBalancedAllocation': return balancedResourceScorer;
    default: return null;
  }
}

/** A strategy's score of one row, for resources that are all packed numbers (cpu, memory, ephemeral storage). */
export class RowScorer {
  private readonly kinds: Int8Array;
  // Scratch reused for every row: scoring is synchronous and never re-entered.
  private readonly requested: Float64Array;
  private readonly allocatable: Float64Array;

  constructor(resources: readonly { readonly name: string }[], private readonly useRequested: boolean, private readonly scorer: ResourceScorer) {
    this.kinds = Int8Array.from(resources, (r) => packedKind(r.name));
    this.requested = new Float64Array(resources.length);
    this.allocatable = new Float64Array(resources.length);
  }

  /** The row pass's scorer for `spec`; null when a resource is not packed or the strategy unknown. */
  static of(spec: RowScorerSpec): RowScorer | null {
    if (spec.resources.length === 0 || spec.resources.some((r) => packedKind(r.name) === KindIgnored)) return null;
    const scorer = resourceScorerOf(spec);
    return scorer === null ? null : new RowScorer(spec.resources, spec.useRequested, scorer);
  }

  score(rows: NodeRows, at: number, podRequests: Float64Array): number {
    const kinds = this.kinds;
    const requested = this.requested;
    const allocatable = this.allocatable;
    for (let i = 0; i < kinds.length; i++) {
      const kind = kinds[i]!;
      const a = allocatableInRow(rows, at, kind);
      // Only a resource the node has takes part; the rest stay (0, 0) and strategies skip them.
      allocatable[i] = a;
      requested[i] = a === 0 ? 0 : usedInRow(rows, at, kind, this.useRequested) + podRequests[i]!;
    }
    return this.scorer(requested, allocatable, podRequests);
  }
}
