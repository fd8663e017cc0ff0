// Piecewise-linear score functions built from shape points (framework/plugins/helper/shape_score.go).

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
