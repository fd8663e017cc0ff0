// DefaultPreemptionArgs: shape, defaulting and validation (apis/config/types_pluginargs.go,
// v1/defaults.go SetDefaults_DefaultPreemptionArgs, validation/validation_pluginargs.go).
import type { FieldError } from '../../framework/registry.js';
import { childPath, fieldInvalid as invalid } from '../../api/field_errors.js';

export interface DefaultPreemptionArgs {
  /** Share of the nodes (0..100) to dry-run preemption on, at least minCandidateNodesAbsolute. */
  readonly minCandidateNodesPercentage: number;
  /** Lower bound on the number of nodes to dry-run preemption on. */
  readonly minCandidateNodesAbsolute: number;
}

const DefaultMinCandidateNodesPercentage = 10;
const DefaultMinCandidateNodesAbsolute = 100;

const kind = 'DefaultPreemptionArgs';
const allowedFields = ['apiVersion', 'kind', 'minCandidateNodesPercentage', 'minCandidateNodesAbsolute'];

function intField(given: Record<string, unknown>, name: string, fallback: number): number {
  const v = given[name];
  // Only an absent field is defaulted: an explicit 0 stays 0, as upstream's pointer fields do.
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new Error(`${kind}: ${name}: expected an integer, got ${JSON.stringify(v)}`);
  return v;
}

/** Decodes the args and fills what is unset with upstream's defaults (10% and 100 nodes). */
export function defaultDefaultPreemptionArgs(given: Record<string, unknown>): DefaultPreemptionArgs {
  for (const k of Object.keys(given)) {
    if (!allowedFields.includes(k)) throw new Error(`${kind}: unknown field "${k}"`);
  }
  return {
    minCandidateNodesPercentage: intField(given, 'minCandidateNodesPercentage', DefaultMinCandidateNodesPercentage),
    minCandidateNodesAbsolute: intField(given, 'minCandidateNodesAbsolute', DefaultMinCandidateNodesAbsolute),
  };
}

/** ValidateDefaultPreemptionArgs; `path` is the args' own field path. */
export function validateDefaultPreemptionArgs(args: DefaultPreemptionArgs, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const percentagePath = childPath(path, 'minCandidateNodesPercentage');
  const absolutePath = childPath(path, 'minCandidateNodesAbsolute');
  const pct = args.minCandidateNodesPercentage;
  const abs = args.minCandidateNodesAbsolute;
  if (pct < 0 || pct > 100) errs.push(invalid(percentagePath, pct, 'not in valid range [0, 100]'));
  if (abs < 0) errs.push(invalid(absolutePath, abs, 'not in valid range [0, inf)'));
  if (pct === 0 && abs === 0) {
    errs.push(
      invalid(percentagePath, pct, 'cannot be zero at the same time as minCandidateNodesAbsolute'),
      invalid(absolutePath, abs, 'cannot be zero at the same time as minCandidateNodesPercentage'),
    );
  }
  return errs;
}
