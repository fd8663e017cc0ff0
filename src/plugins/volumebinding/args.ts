// VolumeBindingArgs: defaulting and validation (apis/config/v1 SetDefaults_VolumeBindingArgs,
// validation/validation_pluginargs.go ValidateVolumeBindingArgsWithOptions, StorageCapacityScoring on).
import type { FieldError } from '../../framework/registry.js';
import { childPath, fieldInvalid } from '../../api/field_errors.js';
import { MaxCustomPriorityScore, validateFunctionShape } from '../../framework/helpers/shape_score.js';

interface UtilizationShapePoint {
  readonly utilization: number;
  readonly score: number;
}

export interface VolumeBindingArgs {
  /** How long PreBind waits for the volumes to be bound, in seconds (default 600). */
  readonly bindTimeoutSeconds: number;
  /**
   * StorageCapacityScoring's (on by default since v1.37) score by volume utilization; defaults to
   * 0% -> 10, 100% -> 0, preferring nodes with the most free capacity.
   */
  readonly shape: readonly UtilizationShapePoint[];
}

const allowedFields = ['apiVersion', 'kind', 'bindTimeoutSeconds', 'shape'];

const defaultShape: readonly UtilizationShapePoint[] = [
  { utilization: 0, score: MaxCustomPriorityScore },
  { utilization: 100, score: 0 },
];

/** Fills bindTimeoutSeconds and, as StorageCapacityScoring is on, the shape. */
export function defaultVolumeBindingArgs(given: Record<string, unknown>): VolumeBindingArgs {
  for (const k of Object.keys(given)) {
    if (!allowedFields.includes(k)) throw new Error(`VolumeBindingArgs: unknown field "${k}"`);
  }
  const t = given.bindTimeoutSeconds;
  if (t !== undefined && t !== null && (typeof t !== 'number' || !Number.isInteger(t))) {
    throw new Error(`VolumeBindingArgs: bindTimeoutSeconds: expected an integer, got ${JSON.stringify(t)}`);
  }
  const shape = given.shape;
  if (shape !== undefined && shape !== null && !Array.isArray(shape)) {
    throw new Error(`VolumeBindingArgs: shape: expected a list, got ${JSON.stringify(shape)}`);
  }
  return {
    bindTimeoutSeconds: typeof t === 'number' ? t : 600,
    shape: Array.isArray(shape) && shape.length > 0 ? (shape as UtilizationShapePoint[]) : defaultShape,
  };
}

export function validateVolumeBindingArgs(args: VolumeBindingArgs, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (args.bindTimeoutSeconds < 0) {
    errs.push(fieldInvalid(childPath(path, 'bindTimeoutSeconds'), args.bindTimeoutSeconds, 'invalid BindTimeoutSeconds, should not be a negative value'));
  }
  errs.push(...validateFunctionShape(args.shape, childPath(path, 'shape')));
  return errs;
}
