// The hook through which validation compiles CEL device selectors (validateCELExpression in
// pkg/apis/resource/validation/validation.go): the DRA CEL environment of src/api/cel/ with the
// pin's default features, replaceable in tests.
import { DefaultCelFeatures, getCompiler } from '../cel/index.js';

/** What compiling one selector gives validation: an error in upstream's words, and the estimated cost. */
export interface CELCompileOutcome {
  readonly error: { readonly type: 'Invalid' | 'Internal'; readonly detail: string } | null;
  readonly maxCost: number;
}

export type DeviceSelectorCheck = (expression: string) => CELCompileOutcome;

/** Compiles with a cost estimate, as validation does (the scheduler's cache skips it). */
const compileWithCost: DeviceSelectorCheck = (expression) => getCompiler(DefaultCelFeatures).compile(expression);

let check: DeviceSelectorCheck = compileWithCost;

/** Replaces the compiler (tests); `null` goes back to the DRA CEL environment. */
export function setDeviceSelectorCheck(fn: DeviceSelectorCheck | null): void {
  check = fn ?? compileWithCost;
}

export function compileDeviceSelector(expression: string): CELCompileOutcome {
  return check(expression);
}
