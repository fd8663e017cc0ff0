// The hook through which validation compiles CEL device selectors (validateCELExpression in
// pkg/apis/resource/validation/validation.go). The DRA CEL environment lives in src/api/cel/
// (dra-alloc's piece); until it is wired in here, expressions pass validation unchecked.

/** What compiling one selector gives validation: an error in upstream's words, and the estimated cost. */
export interface CELCompileOutcome {
  readonly error: { readonly type: 'Invalid' | 'Internal'; readonly detail: string } | null;
  readonly maxCost: number;
}

export type DeviceSelectorCheck = (expression: string) => CELCompileOutcome;

const unchecked: DeviceSelectorCheck = () => ({ error: null, maxCost: 0 });

let check: DeviceSelectorCheck = unchecked;

/**
 * Plugs the CEL environment into validation (called once by src/api/cel when it is loaded);
 * `null` goes back to accepting every expression.
 */
export function setDeviceSelectorCheck(fn: DeviceSelectorCheck | null): void {
  check = fn ?? unchecked;
}

export function compileDeviceSelector(expression: string): CELCompileOutcome {
  return check(expression);
}
