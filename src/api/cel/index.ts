// The DRA CEL environment (k8s.io/dynamic-resource-allocation/cel at v0.37.2), shared by API
// validation (which compiles selectors with a cost estimate) and the structured allocator
// (which evaluates them per device through a CelCache).
//
// Library: @marcbachmann/cel-js. It type-checks against declared variables and custom object
// types, lets opaque types (Quantity, Semver) carry receiver-style methods, supports optional
// types and the standard macros, and has no dependencies. @bufbuild/cel is conformance-tested,
// but its object values are protobuf messages (ReflectMessage), and upstream's Quantity and
// Semver are opaque types with methods, not messages.
//
// Where cel-js reads a selector differently from cel-go, rewrites.ts rewrites the source first
// (has() of a field behind an index; `in` on the domain maps, whose lookups default to empty).
// Beyond Quantity, Semver, Lists and Regex, the environment has the apiserver's IP, CIDR and
// named-format libraries and cel-go's Sets, Lists (3), strings.quote and two-variable
// comprehensions. runtime-cost.ts stops an evaluation over the cost limit. What remains different
// from cel-go is listed in docs/fidelity.md (Known differences, CEL device selectors).
export {
  CELSelectorExpressionMaxCost,
  CelEvaluationError,
  DefaultCelFeatures,
  DeviceActivation,
  enhanceRuntimeError,
  getCompiler,
  type CompilationResult,
} from './compile.js';
export { CelCache } from './cache.js';
