// How validation compiles CEL device selectors (validateCELExpression in
// pkg/apis/resource/validation/validation.go): the DRA CEL environment of src/api/cel with the
// pin's default gates, DRAConsumableCapacity on and DRAListTypeAttributes (alpha) off, as the
// allocator's DefaultFeatures have them.
import { getCompiler, type CelFeatures } from '../cel/index.js';

/** What compiling one selector gives validation: an error in upstream's words, and the estimated cost. */
export interface CELCompileOutcome {
  readonly error: { readonly type: 'Invalid' | 'Internal'; readonly detail: string } | null;
  readonly maxCost: number;
}

const validationFeatures: CelFeatures = { consumableCapacity: true, listTypeAttributes: false };

export function compileDeviceSelector(expression: string): CELCompileOutcome {
  return getCompiler(validationFeatures).compile(expression);
}
