// InterPodAffinityArgs: defaulting (apis/config/v1/defaults.go SetDefaults_InterPodAffinityArgs)
// and validation (apis/config/validation/validation_pluginargs.go ValidateInterPodAffinityArgs).
import type { FieldError } from '../../framework/registry.js';

export interface InterPodAffinityArgs {
  /** Score weight of an existing pod's required affinity term that the incoming pod matches. */
  hardPodAffinityWeight: number;
  /** Skip existing pods' preferred terms when the incoming pod has no preferred terms itself. */
  ignorePreferredTermsOfExistingPods: boolean;
}

const DefaultHardPodAffinityWeight = 1;
const MinHardPodAffinityWeight = 0;
const MaxHardPodAffinityWeight = 100;

/** Fills unset fields as the v1 config API does; wrong types are left for validation to report. */
export function defaultInterPodAffinityArgs(given: Record<string, unknown>): InterPodAffinityArgs {
  const weight = given['hardPodAffinityWeight'];
  const ignore = given['ignorePreferredTermsOfExistingPods'];
  return {
    hardPodAffinityWeight: weight === undefined || weight === null ? DefaultHardPodAffinityWeight : (weight as number),
    ignorePreferredTermsOfExistingPods: ignore === undefined || ignore === null ? false : (ignore as boolean),
  };
}

export function validateInterPodAffinityArgs(args: InterPodAffinityArgs, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const w = args.hardPodAffinityWeight;
  const weightPath = `${path}.hardPodAffinityWeight`;
  if (typeof w !== 'number' || !Number.isInteger(w)) {
    errs.push({ path: weightPath, message: `Invalid value: ${JSON.stringify(w)}: must be an integer` });
  } else if (w < MinHardPodAffinityWeight || w > MaxHardPodAffinityWeight) {
    errs.push({
      path: weightPath,
      message: `Invalid value: ${w}: not in valid range [${MinHardPodAffinityWeight}-${MaxHardPodAffinityWeight}]`,
    });
  }
  if (typeof args.ignorePreferredTermsOfExistingPods !== 'boolean') {
    errs.push({
      path: `${path}.ignorePreferredTermsOfExistingPods`,
      message: `Invalid value: ${JSON.stringify(args.ignorePreferredTermsOfExistingPods)}: must be a boolean`,
    });
  }
  return errs;
}
