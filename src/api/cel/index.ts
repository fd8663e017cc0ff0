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
// Differences from cel-go that remain (rare in real selectors):
// - compile errors carry cel-js's message after upstream's `compilation failed: ERROR:
//   <input>:line:col:` prefix, not cel-go's parser text (the unknown-variable one is reworded);
// - costs are estimated by cost.ts, an approximation of cel-go's estimator, and no runtime
//   cost is tracked: device inputs are bounded (32 attributes, 64-character values), so an
//   expression within the estimate stays within the per-evaluation limit;
// - of the apiserver's base libraries, Quantity, Semver, Lists, Regex (find/findAll), optional
//   types and the string functions are there; URLs, IP/CIDR, Format, Authz, Sets and the
//   two-variable comprehensions are not.
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
