// Piecewise-linear score functions built from shape points (framework/plugins/helper/shape_score.go),
// and the validation of such shapes in plugin args (validation_pluginargs.go validateFunctionShape).
import { childPath, fieldInvalid, fieldRequired, indexPath } from '../../api/field_errors.js';
import type { FieldError } from '../registry.js';

/** The highest score a shape point in plugin args may give (config.MaxCustomPriorityScore). */
export const MaxCustomPriorityScore = 10;

export interface FunctionShapePoint {
  /** The function's argument (a utilization in [0, 100]). */
  readonly utilization: number;
  /** The function's value at that point. */
  readonly score: number;
}

/**
 * Builds f(p) from points sorted by utilization: the first score below the first point, the
 * last score above the last point, and integer (truncating) linear interpolation in between,
 * exactly as upstream's int64 arithmetic does. The shape must not be empty.
 */
export function buildBrokenLinearFunction(shape: readonly FunctionShapePoint[]): (p: number) => number {
  const utilization = shape.map((s) => s.utilization);
  const score = shape.map((s) => s.score);
  const n = shape.length;
  return (p: number): number => {
    for (let i = 0; i < n; i++) {
      if (p <= utilization[i]!) {
        if (i === 0) return score[0]!;
        const du = utilization[i]! - utilization[i - 1]!;
        return score[i - 1]! + Math.trunc(((score[i]! - score[i - 1]!) * (p - utilization[i - 1]!)) / du);
      }
    }
    return score[n - 1]!;
  };
}

/** A shape from plugin args: at least one point, utilizations increasing within [0, 100], scores within [0, MaxCustomPriorityScore]. */
export function validateFunctionShape(shape: readonly FunctionShapePoint[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (shape.length === 0) return [fieldRequired(path, 'at least one point must be specified')];
  for (let i = 1; i < shape.length; i++) {
    if (shape[i - 1]!.utilization >= shape[i]!.utilization) {
      errs.push(fieldInvalid(childPath(indexPath(path, i), 'utilization'), shape[i]!.utilization, 'values must be sorted in increasing order'));
      break;
    }
  }
  for (let i = 0; i < shape.length; i++) {
    const point = shape[i]!;
    if (point.utilization < 0 || point.utilization > 100) {
      errs.push(fieldInvalid(childPath(indexPath(path, i), 'utilization'), point.utilization, 'not in valid range [0, 100]'));
    }
    if (point.score < 0 || point.score > MaxCustomPriorityScore) {
      errs.push(fieldInvalid(childPath(indexPath(path, i), 'score'), point.score, `not in valid range [0, ${MaxCustomPriorityScore}]`));
    }
  }
  return errs;
}
