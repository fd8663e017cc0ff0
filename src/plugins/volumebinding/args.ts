// VolumeBindingArgs: defaulting and validation (apis/config/v1 SetDefaults_VolumeBindingArgs,
// validation/validation_pluginargs.go ValidateVolumeBindingArgsWithOptions).
import type { FieldError } from '../../framework/registry.js';
import { childPath, fieldInvalid } from '../../framework/field_errors.js';

export interface UtilizationShapePoint {
  readonly utilization: number;
  readonly score: number;
}

export interface VolumeBindingArgs {
  /** How long PreBind waits for the volumes to be bound, in seconds (default 600). */
  readonly bindTimeoutSeconds: number;
  /** Only with StorageCapacityScoring (off by default): must stay unset. */
  readonly shape?: readonly UtilizationShapePoint[] | null;
}

const allowedFields = ['apiVersion', 'kind', 'bindTimeoutSeconds', 'shape'];

/** Fills bindTimeoutSeconds; the shape default applies only with StorageCapacityScoring, which is off. */
export function defaultVolumeBindingArgs(given: Record<string, unknown>): VolumeBindingArgs {
  for (const k of Object.keys(given)) {
    if (!allowedFields.includes(k)) throw new Error(`VolumeBindingArgs: unknown field "${k}"`);
  }
  const t = given.bindTimeoutSeconds;
  if (t !== undefined && t !== null && (typeof t !== 'number' || !Number.isInteger(t))) {
    throw new Error(`VolumeBindingArgs: bindTimeoutSeconds: expected an integer, got ${JSON.stringify(t)}`);
  }
  const shape = given.shape;
  return {
    bindTimeoutSeconds: typeof t === 'number' ? t : 600,
    ...(shape !== undefined && shape !== null ? { shape: shape as UtilizationShapePoint[] } : {}),
  };
}

export function validateVolumeBindingArgs(args: VolumeBindingArgs, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (args.bindTimeoutSeconds < 0) {
    errs.push(fieldInvalid(childPath(path, 'bindTimeoutSeconds'), args.bindTimeoutSeconds, 'invalid BindTimeoutSeconds, should not be a negative value'));
  }
  if (args.shape !== undefined && args.shape !== null) {
    errs.push(fieldInvalid(childPath(path, 'shape'), args.shape, 'unsupported when the StorageCapacityScoring feature is disabled'));
  }
  return errs;
}
